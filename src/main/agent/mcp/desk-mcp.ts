/**
 * Pi's MCP support in a desk chat: Pi's own extension (`createMcpExtension`), given the servers as the `pi`
 * command line reads them (mcp-config.ts), transports that narrow a stdio server's environment and let the
 * chat end its servers (mcp-transports.ts), and every tool it registers wrapped so that each call is a
 * request at the chat's gate (mcp-gated-tool.ts).
 */
import {
  createMcpExtension,
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

/** A chat's MCP servers. */
export interface DeskMcp {
  /** The extension to load into the chat's Pi session (then `session.bindExtensions`). */
  extension: ExtensionFactory;
  /** Whether any server is configured (no servers: nothing to load or bind). */
  configured: boolean;
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
}

/** What a chat's MCP servers are made of. */
export interface DeskMcpOptions {
  /** Pi's agent folder (its `mcp.json` and trust store). */
  agentDir: string;
  /** The chat's folder (the project whose `.pi/mcp.json` may be read, the servers' working directory). */
  workspace: string;
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
}

/** Reads the chat's servers and makes the extension that connects them. */
export function createDeskMcp(options: DeskMcpOptions): DeskMcp {
  const config: DeskMcpConfig = loadDeskMcpConfig({
    agentDir: options.agentDir,
    workspace: options.workspace,
    trusted: projectTrusted(options.agentDir, options.workspace),
    ...(options.off ? { off: options.off } : {}),
  });
  const connections = new McpConnections(config.servers, options.onChange);
  const signIns = new McpSignIns(connections, options.openExternal, options.signedIn);
  const mcp = createMcpExtension({
    // Codemode is not loaded (see mcp-config.ts), so it is never switched on.
    loadConfig: () => ({ ...config, autoEnableCodemode: false }),
    createTransport: connections.createTransport,
    // Only for a sign-in the person started in Settings (mcp-sign-in.ts).
    openUrl: signIns.openUrl,
  });
  const wrapTool = options.wrapTool;
  const extension: ExtensionFactory = (pi) => mcp(wrapTool ? withWrappedTools(pi, wrapTool) : pi);
  return {
    extension,
    configured: config.servers.length > 0,
    worthShowing:
      config.servers.length > 0 || config.errors.length > 0 || config.skippedProjectConfig !== undefined,
    state: () => ({
      servers: connections.list(),
      errors: [...config.errors],
      ...(config.skippedProjectConfig ? { skippedProjectConfig: config.skippedProjectConfig } : {}),
    }),
    setOff: (name, off) => connections.setOff(name, off),
    signIns,
    close: () => connections.closeAll(),
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
