/**
 * How a chat reaches its MCP servers: a stdio server is a process started with only the environment its
 * configuration names (mcp-environment.ts), an HTTP server a streamable-HTTP connection. Every transport is
 * kept, so the chat's servers end with it (the whole process group, as Pi's transport kills it), and watched,
 * so Settings can say whether each server connected, with how many tools, or why it failed: Pi's MCP
 * extension keeps its connections' states to itself.
 */

import { resolve } from "node:path";
import type { McpServerEntry, McpTransportFactory } from "@earendil-works/pi-coding-agent";
import {
  type JsonRpcMessage,
  type McpTransport,
  StdioTransport,
  StreamableHttpTransport,
} from "@earendil-works/pi-mcp";
import type { McpServerStatus, McpServerView } from "../../../shared/mcp";
import { expandHome, serverEnvironment, serverHeaders } from "./mcp-environment";

/** The most of a failed server's stderr kept for Settings. */
const STDERR_TAIL = 2000;

/** The chat's servers' transports and states. */
export class McpConnections {
  private readonly views = new Map<string, McpServerView>();
  /** Each open transport, with its server. */
  private readonly open = new Map<McpTransport, string>();
  /** Servers turned off in the workspace's settings: no transport is made for them. */
  private readonly off = new Set<string>();
  /** Servers `"enabled": false` in mcp.json: Pi makes no connection for them at all. */
  private readonly disabledInConfig = new Set<string>();
  private closing = false;

  constructor(
    entries: readonly McpServerEntry[],
    /** Called after any server's view changed. */
    private readonly changed: () => void,
  ) {
    for (const entry of entries) {
      const offInWorkspace = (entry as { offInWorkspace?: boolean }).offInWorkspace === true;
      if (offInWorkspace) this.off.add(entry.name);
      if (entry.config.enabled === false) this.disabledInConfig.add(entry.name);
      const enabled = entry.config.enabled !== false && !offInWorkspace;
      this.views.set(entry.name, {
        name: entry.name,
        status: enabled ? "connecting" : "disabled",
        tools: 0,
        transport: "url" in entry.config ? "http" : "stdio",
        source: entry.source,
        scope: entry.scope === "project" ? "project" : "global",
        ...(offInWorkspace ? { offInWorkspace: true } : {}),
        ...(usesOAuth(entry) ? { oauth: true } : {}),
      });
    }
  }

  /** Every server as it stands now. */
  list(): McpServerView[] {
    return [...this.views.values()].map((view) => ({ ...view }));
  }

  /** The factory Pi's MCP extension builds each connection's transport with. */
  readonly createTransport: McpTransportFactory = (entry, cwd, authProvider) => {
    // Pi still holds a connection for it (it was on when the chat opened, or is "off" only here): refused
    // before anything starts, so its next call fails instead of starting the server again.
    if (this.off.has(entry.name))
      throw new Error(
        `The MCP server "${entry.name}" is turned off in this workspace: turn it on in Settings to use it.`,
      );
    const transport = this.build(entry, cwd, authProvider);
    this.watch(entry.name, transport, usesOAuth(entry));
    return transport;
  };

  /** Ends every server of the chat (stdin closed, then SIGTERM, then SIGKILL to its process group). */
  async closeAll(): Promise<void> {
    this.closing = true;
    await Promise.all([...this.open.keys()].map((transport) => transport.close().catch(() => {})));
  }

  /**
   * Turns a server off or on in this chat (the workspace's toggle): off, its transports end and none is
   * made until it is on again. Says whether Pi holds a connection for it to reconnect (false for a server
   * `"enabled": false` in mcp.json).
   */
  async setOff(server: string, off: boolean): Promise<boolean> {
    if (!this.views.has(server)) return false;
    if (off) {
      this.off.add(server);
      this.set(server, { status: "disabled", offInWorkspace: true, tools: 0, error: undefined });
      const ending = [...this.open].filter(([, name]) => name === server).map(([transport]) => transport);
      await Promise.all(ending.map((transport) => transport.close().catch(() => {})));
      return false;
    }
    this.off.delete(server);
    const reconnects = !this.disabledInConfig.has(server);
    this.set(server, { status: reconnects ? "connecting" : "disabled", offInWorkspace: undefined });
    return reconnects;
  }

  private build(entry: McpServerEntry, cwd: string, authProvider: unknown): McpTransport {
    const { config, name } = entry;
    if ("url" in config) {
      return new StreamableHttpTransport({
        url: config.url,
        headers: serverHeaders(name, config.headers),
        authProvider: authProvider as ConstructorParameters<
          typeof StreamableHttpTransport
        >[0]["authProvider"],
      });
    }
    return new StdioTransport({
      command: expandHome(config.command),
      args: config.args?.map(expandHome),
      cwd: resolve(cwd, expandHome(config.cwd ?? ".")),
      env: serverEnvironment(name, config.env),
      // Only what the configuration names: never the host's whole environment.
      inheritEnv: false,
      stderr: "pipe",
    });
  }

  /** Follows the protocol's first steps to say when the server connected and how many tools it offers. */
  private watch(server: string, transport: McpTransport, oauth: boolean): void {
    this.open.set(transport, server);
    let connected = false;
    let needsSignIn = false;
    let listing: number | string | undefined;
    let counted = 0;
    const send = transport.send.bind(transport);
    transport.send = (message, options) => {
      const request = message as { id?: number | string; method?: string; params?: { cursor?: string } };
      if (request.method === "tools/list" && request.id !== undefined) {
        listing = request.id;
        if (!request.params?.cursor) counted = 0;
      }
      const sent = send(message, options);
      // Pi's connection says "needs-auth" for this and keeps it to itself: the same errors, read here.
      if (oauth)
        sent.catch((error: unknown) => {
          if (!isSignInRequired(error)) return;
          needsSignIn = true;
          this.set(server, { status: "needs-sign-in", tools: 0, error: undefined });
        });
      return sent;
    };
    const start = transport.start.bind(transport);
    transport.start = async () => {
      this.set(server, { status: "connecting", tools: 0, error: undefined });
      try {
        await start();
      } catch (error) {
        this.set(server, { status: "failed", error: failureText(error, transport) });
        throw error;
      }
    };
    transport.onMessage((message: JsonRpcMessage) => {
      const reply = message as {
        id?: number | string;
        result?: { capabilities?: { tools?: unknown }; tools?: unknown[]; nextCursor?: string };
      };
      if (reply.result?.capabilities && !reply.result.capabilities.tools) {
        connected = true;
        this.set(server, { status: "connected", tools: 0, error: undefined });
      }
      if (reply.id !== undefined && reply.id === listing && Array.isArray(reply.result?.tools)) {
        counted += reply.result.tools.length;
        if (!reply.result.nextCursor) {
          connected = true;
          this.set(server, { status: "connected", tools: counted, error: undefined });
        }
      }
    });
    transport.onClose(() => {
      this.open.delete(transport);
      // After a sign-in was asked for (or a sign-out), or the server was turned off, the end is no failure.
      const status = this.views.get(server)?.status;
      if (this.closing || needsSignIn || status === "needs-sign-in" || status === "disabled") return;
      const why = stderrTail(transport);
      if (connected) this.set(server, { status: "disconnected", error: `The connection ended.${why}` });
      else if (this.views.get(server)?.status !== "failed")
        this.set(server, {
          status: "failed",
          error: `The server ended before it connected.${why} Check its command and arguments in mcp.json.`,
        });
    });
  }

  /** Changes a server's view (its sign-in, or its state after a sign-out), and says so. */
  update(server: string, patch: Partial<McpServerView>): void {
    this.set(server, patch);
  }

  private set(server: string, patch: Partial<McpServerView> & { status?: McpServerStatus }): void {
    const view = this.views.get(server);
    if (!view) return;
    const next = { ...view, ...patch };
    for (const key of ["error", "signingIn", "signInError", "offInWorkspace"] as const)
      if (next[key] === undefined) delete next[key];
    this.views.set(server, next);
    this.changed();
  }
}

/** Whether Pi signs in to this server with OAuth: over HTTP, with no `Authorization` of its own (Pi's rule). */
function usesOAuth(entry: McpServerEntry): boolean {
  const config = entry.config;
  if (!("url" in config) || (config as { auth?: unknown }).auth) return false;
  return !Object.keys(config.headers ?? {}).some((name) => name.toLowerCase() === "authorization");
}

/** The errors after which Pi's connection needs the person to sign in (its `needsSignIn`). */
function isSignInRequired(error: unknown): boolean {
  const name = (error as { name?: string } | undefined)?.name;
  return name === "McpOAuthAuthorizationRequiredError" || name === "McpAuthRequiredError";
}

function failureText(error: unknown, transport: McpTransport): string {
  const message = error instanceof Error ? error.message : String(error);
  const code = (error as { code?: string }).code;
  const advice =
    code === "ENOENT"
      ? " The program was not found: check `command` in mcp.json (an absolute path, or a program on PATH)."
      : "";
  return `${message}.${advice}${stderrTail(transport)}`;
}

function stderrTail(transport: McpTransport): string {
  const text = transport instanceof StdioTransport ? transport.stderr.trim() : "";
  return text ? `\n${text.slice(-STDERR_TAIL)}` : "";
}
