/**
 * Pi's own `/mcp` command (reconnect, login, logout) run for a chat. Pi's MCP extension keeps its
 * connections to itself and offers these actions only as that command, so Pi Desk runs it with a command
 * context of the session, and, for a sign-in, a small UI of its own: Pi's notices collected (an "error"
 * one is the action's failure) and its one question, the redirected URL, answered by the person's paste.
 */
import type { AgentSession, ExtensionUIContext } from "@earendil-works/pi-coding-agent";

/** What Pi's sign-in asks of a UI. */
export interface McpCommandUi {
  /** A notice from Pi; an "error" one says why the action failed. */
  notify(message: string, type?: "info" | "warning" | "error"): void;
  /** Pi asks for the redirected URL; `undefined` or "" gives the sign-in up; `signal` ends the question. */
  input(title: string, placeholder?: string, options?: { signal?: AbortSignal }): Promise<string | undefined>;
}

/** Runs `/mcp <args>` in the chat's session; with `ui`, as an interactive client would (Pi signs in only then). */
export async function runMcpCommand(session: AgentSession, args: string, ui?: McpCommandUi): Promise<void> {
  const runner = session.extensionRunner;
  const command = runner.getCommand("mcp");
  if (!command) throw new Error("Pi's MCP support is not loaded in this chat: open a new chat.");
  const context = runner.createCommandContext();
  if (ui) {
    // Only this call sees the UI: the session stays without one, so nothing else of Pi's waits on a person.
    const own: ExtensionUIContext = { ...runner.getUIContext(), notify: ui.notify, input: ui.input };
    Object.defineProperties(context, {
      ui: { value: own },
      hasUI: { value: true },
      // Not "tui": Pi then shows the URL as a notice and asks with `input`, as its RPC clients do.
      mode: { value: "rpc" },
    });
  }
  await command.handler(args, context);
}
