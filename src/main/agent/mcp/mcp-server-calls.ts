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
    if (known.offInWorkspace)
      throw new Error(`The MCP server "${name}" is turned off in this workspace: turn it on first.`);
    if (known.status === "disabled")
      throw new Error(
        `The MCP server "${name}" is disabled in mcp.json: enable it there, then open a new chat.`,
      );
    await runMcpCommand(this.session, `reconnect ${name}`);
  }

  /**
   * The person signed in to a server of this name in another chat: Pi's stored credentials (by name and
   * URL) may serve this chat's too, so a server here that needs sign-in tries again now rather than at
   * this chat's next turn (Pi's own check). Still refused, it keeps needing sign-in.
   */
  async signedInElsewhere(name: string): Promise<void> {
    const known = this.mcp?.state().servers.find((server) => server.name === name);
    if (known?.status !== "needs-sign-in" || known.signingIn) return;
    await runMcpCommand(this.session, `reconnect ${name}`).catch(() => {});
  }

  /**
   * The workspace's toggle, in this open chat: off, the server's connection ends and its tools leave the
   * agent's tools from its next turn; on, Pi connects it again and offers its tools again.
   */
  async setOffInWorkspace(name: string, off: boolean): Promise<void> {
    if (!this.mcp) return;
    const reconnect = await this.mcp.setOff(name, off);
    if (off) {
      // Pi labels each of a server's tools `<server>/<tool>`.
      const ofServer = (tool: string) => this.session.getToolDefinition(tool)?.label.startsWith(`${name}/`);
      this.session.setActiveToolsByName(this.session.getActiveToolNames().filter((tool) => !ofServer(tool)));
    } else if (reconnect) {
      // A failure to connect shows in the server's state, as at a chat's start.
      await runMcpCommand(this.session, `reconnect ${name}`).catch(() => {});
    }
  }

  /** The workspace's "Scripts and tool search" changed: Settings shows it (the chat keeps what it started with). */
  scriptsSettingChanged(): void {
    this.mcp?.changed();
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
