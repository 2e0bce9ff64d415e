import { randomUUID } from "node:crypto";
import type { AgentSession, AgentSessionEvent } from "@earendil-works/pi-coding-agent";
import type { CommandTools } from "./command-tools";
import { HOST_COMMAND_MESSAGE_TYPE, type HostCommandDetails } from "./host-command-message";

/**
 * Runs a command the host asks for, not the model (a worktree chat's setup step), as an ordinary `run_command`
 * call of the chat: its card, the person's approval (or a rule they made), the sandbox, the audit log, the
 * change records. The chat's own events are played to it as Pi plays a tool call's, so the card and the
 * audit follow the one path every command takes; the model is told the outcome after, as the next thing it reads.
 */
export async function runHostCommand(
  chat: { tools: CommandTools; session: AgentSession; play: (event: AgentSessionEvent) => void },
  command: string,
  purpose: string,
): Promise<void> {
  const toolCallId = `host-${randomUUID().slice(0, 8)}`;
  const args = { command };
  const toolName = "run_command";
  chat.play({ type: "tool_execution_start", toolCallId, toolName, args });
  let text: string;
  let ended: HostCommandDetails["result"];
  try {
    const result = await chat.tools.runCommand.execute(
      toolCallId,
      args,
      undefined,
      (partialResult) =>
        chat.play({ type: "tool_execution_update", toolCallId, toolName, args, partialResult }),
      undefined as never,
    );
    chat.play({ type: "tool_execution_end", toolCallId, toolName, result, isError: result.isError ?? false });
    text = result.content.map((part) => (part.type === "text" ? part.text : "")).join("\n");
    ended = { content: result.content, details: result.details, isError: result.isError ?? false };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const result = { content: [{ type: "text" as const, text: message }], details: undefined };
    chat.play({ type: "tool_execution_end", toolCallId, toolName, result, isError: true });
    text = message;
    ended = { content: result.content, isError: true };
  }
  // The call and its result go into Pi's session file with the message (its `details`, which the model does
  // not read): the chat reopened shows the command's card as it ended (see `hostCommandOf`).
  const details: HostCommandDetails = { toolCallId, command, result: ended };
  await chat.session
    .sendCustomMessage({
      customType: HOST_COMMAND_MESSAGE_TYPE,
      content: `Pi Desk ran ${purpose} before the conversation: \`${command}\`.\n${text}`,
      display: false,
      details,
    })
    .catch(() => {});
}
