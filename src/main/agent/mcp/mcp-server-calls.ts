/**
 * What the person does with a chat's MCP servers from Settings: reconnect, sign in (and answer Pi's
 * question with the redirected URL, or give up), sign out. Each is Pi's own `/mcp` action (mcp-command.ts).
 */
import type { AgentSession } from "@earendil-works/pi-coding-agent";
import type { DeskMcp } from "./desk-mcp";
import { type McpCommandUi, runMcpCommand } from "./mcp-command";

/** A chat's MCP server actions. */
export class McpServerCalls {
  constructor(
    private readonly session: AgentSession,
    private readonly mcp: DeskMcp | undefined,
  ) {}

  /** Connects one of the chat's servers again, through Pi's own `/mcp reconnect`. */
  async reconnect(name: string): Promise<void> {
    const known = this.mcp?.state().servers.find((server) => server.name === name);
    if (!known)
      throw new Error(
        `This chat has no MCP server named "${name}". Add it to mcp.json, then open a new chat.`,
      );
    if (known.status === "disabled")
      throw new Error(
        `The MCP server "${name}" is disabled in mcp.json: enable it there, then open a new chat.`,
      );
    await runMcpCommand(this.session, `reconnect ${name}`);
  }

  /** Starts Pi's sign-in; resolves once the authorization page is known (see `McpSignIns.signIn`). */
  signIn(name: string): Promise<void> {
    return this.signIns().signIn(name, this.run);
  }

  /** The redirected URL the person pasted. */
  async paste(name: string, url: string): Promise<void> {
    this.signIns().paste(name, url);
  }

  /** Gives up the sign-in under way. */
  async cancelSignIn(name: string): Promise<void> {
    this.signIns().cancel(name);
  }

  /** Signs out: Pi deletes the stored credentials. */
  signOut(name: string): Promise<void> {
    return this.signIns().signOut(name, this.run);
  }

  private readonly run = (args: string, ui: McpCommandUi) => runMcpCommand(this.session, args, ui);

  private signIns() {
    if (!this.mcp)
      throw new Error("This chat has no MCP servers. Add them to mcp.json, then open a new chat.");
    return this.mcp.signIns;
  }
}
