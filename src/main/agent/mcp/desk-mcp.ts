/**
 * Pi's MCP support in a desk chat: Pi's own extension (`createMcpExtension`), given the servers as the `pi`
 * command line reads them (mcp-config.ts), transports that narrow a stdio server's environment and let the
 * chat end its servers (mcp-transports.ts), and every tool it registers wrapped so that each call is a
 * request at the chat's gate (mcp-gated-tool.ts).
 */
import {
  createCodemodeExtension,
  createMcpExtension,
  createToolSearchExtension,
  type ExtensionAPI,
  type ExtensionFactory,
  type ToolDefinition,
} from "@earendil-works/pi-coding-agent";
import type { McpServersState } from "../../../shared/mcp";
import { type DeskMcpConfig, loadDeskMcpConfig, projectTrusted } from "./mcp-config";
import { McpSignIns } from "./mcp-sign-in";
import { McpConnections } from "./mcp-transports";

/** The tool allowlist's entry for every MCP tool (`mcp__<server>__<tool>`). */
export const MCP_TOOLS_PATTERN = "mcp__*";

/** Pi's own tools that reach MCP tools: a script that calls them, and a search that declares them. */
export const SCRIPT_TOOLS = ["codemode", "tool_search"] as const;

/** A chat's MCP servers. */
export interface DeskMcp {
  /** The extension to load into the chat's Pi session (then `session.bindExtensions`). */
  extension: ExtensionFactory;
  /** Whether any server is configured (no servers: nothing to load or bind). */
  configured: boolean;
  /** Whether this chat loaded Pi's codemode and tool_search (the workspace's "Scripts and tool search"). */
  scripts: boolean;
  /** Whether there is anything to tell the person: a server, a mistake in a file, or a project file skipped. */
  worthShowing: boolean;
  /** The servers and what kept some out, as Settings shows them. */
  state(): McpServersState;
  /** Turns a server off or on in this chat; says whether Pi should reconnect it (see `McpConnections.setOff`). */
  setOff(name: string, off: boolean): Promise<boolean>;
  /** Signing in and out of the chat's OAuth servers. */
  signIns: McpSignIns;
  /** Ends every server process of the chat. */
  close(): Promise<void>;
  /** Tells the page the state again (a workspace setting it shows changed). */
  changed(): void;
}

/** What a chat's MCP servers are made of. */
export interface DeskMcpOptions {
  /** Pi's agent folder (its `mcp.json` and trust store). */
  agentDir: string;
  /** The chat's folder (the project whose `.pi/mcp.json` may be read, the servers' working directory). */
  workspace: string;
  /** The folder whose trust in Pi decides whether `.pi/mcp.json` is read (a worktree chat: its workspace's); default `workspace`. */
  trustFolder?: string;
  /** Called when a server's state changed. */
  onChange: () => void;
  /** Servers the workspace's settings turn off. */
  off?: readonly string[];
  /** Opens a sign-in page in the person's browser; absent where the shell cannot (the page shows the link). */
  openExternal?: (url: string) => void;
  /** Called after a sign-in to one of the chat's servers succeeded. */
  signedIn?: (name: string) => void;
  /** Wraps each MCP tool before Pi registers it (the gate); absent: registered as Pi made it. */
  wrapTool?: (tool: ToolDefinition) => ToolDefinition;
  /**
   * Loads Pi's codemode and tool_search (each call wrapped by `wrapTool` too) and honours the servers'
   * configured exposure; absent or false: neither is loaded and every tool is offered `direct`.
   */
  scripts?: boolean;
  /** The workspace's setting now (Settings shows it; a chat takes it when it starts). */
  scriptsSetting?: () => boolean;
}

/** Reads the chat's servers and makes the extension that connects them. */
export function createDeskMcp(options: DeskMcpOptions): DeskMcp {
  const config: DeskMcpConfig = loadDeskMcpConfig({
    agentDir: options.agentDir,
    workspace: options.workspace,
    trusted: projectTrusted(options.agentDir, options.trustFolder ?? options.workspace),
    ...(options.off ? { off: options.off } : {}),
    ...(options.scripts ? { scripts: true } : {}),
  });
  const scripts = options.scripts === true;
  const connections = new McpConnections(config.servers, options.onChange);
  const signIns = new McpSignIns(connections, options.openExternal, options.signedIn);
  const mcp = createMcpExtension({
    // Without scripts codemode is not loaded (see mcp-config.ts), so it is never switched on; with them Pi
    // switches codemode or tool_search on as the servers' exposure needs, as the `pi` command line does.
    loadConfig: () => (scripts ? config : { ...config, autoEnableCodemode: false }),
    createTransport: connections.createTransport,
    // Only for a sign-in the person started in Settings (mcp-sign-in.ts).
    openUrl: signIns.openUrl,
  });
  // `models: false`: a script may not run the person's classifier and image models, which cost money and
  // would pass no gate; it reaches the outside world only through tools, each of which waits at the gate.
  const factories = scripts
    ? [mcp, createCodemodeExtension({ models: false }), createToolSearchExtension()]
    : [mcp];
  const wrapTool = options.wrapTool;
  const extension: ExtensionFactory = async (pi) => {
    const api = wrapTool ? withWrappedTools(pi, wrapTool) : pi;
    for (const factory of factories) await factory(api);
  };
  return {
    extension,
    configured: config.servers.length > 0,
    scripts,
    worthShowing:
      config.servers.length > 0 || config.errors.length > 0 || config.skippedProjectConfig !== undefined,
    state: () => ({
      servers: connections.list(),
      scripts: { on: options.scriptsSetting?.() ?? scripts, inThisChat: scripts },
      errors: [...config.errors],
      ...(config.skippedProjectConfig ? { skippedProjectConfig: config.skippedProjectConfig } : {}),
    }),
    setOff: (name, off) => connections.setOff(name, off),
    signIns,
    close: () => connections.closeAll(),
    changed: options.onChange,
  };
}

/**
 * The extension's API with `registerTool` wrapping each tool first: the one place every MCP tool (a
 * server's, the resource tools) passes before the model can call it.
 */
function withWrappedTools(pi: ExtensionAPI, wrap: (tool: ToolDefinition) => ToolDefinition): ExtensionAPI {
  return new Proxy(pi, {
    get(target, property) {
      if (property === "registerTool") return (tool: ToolDefinition) => target.registerTool(wrap(tool));
      const value = Reflect.get(target, property, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}
