/**
 * The person's MCP servers (Pi's `mcp.json`) in a chat, and every call to one of their tools as a request
 * at the approval gate. Plain data, so it crosses to the renderer.
 */
import type { CommandChanges, RevertEntry } from "./changes";

/** Where a server stands in a chat. */
export type McpServerStatus =
  /** Its process is starting, or it is answering the first requests. */
  | "connecting"
  /** Connected: its tools are offered to the agent. */
  | "connected"
  /** It could not start, or ended before it connected (`error` says why). */
  | "failed"
  /** It uses OAuth and rejected the connection without credentials: the person signs in (`signInMcpServer`). */
  | "needs-sign-in"
  /** It was connected and its connection ended; the next call reconnects. */
  | "disconnected"
  /** `"enabled": false` in its `mcp.json`: not started. */
  | "disabled";

/** One configured server, as Settings lists it. */
export interface McpServerView {
  /** Its name in `mcp.json`. */
  name: string;
  /** Where it stands. */
  status: McpServerStatus;
  /** How many tools it offers, once connected. */
  tools: number;
  /** Why it failed or disconnected, with the tail of what it printed on stderr. */
  error?: string;
  /** A process Pi Desk starts, or a server over HTTP. */
  transport: "stdio" | "http";
  /** The file that defines it. */
  source: string;
  /** The person's own `mcp.json`, or the workspace's. */
  scope: "global" | "project";
  /** Turned off in this workspace's settings (`status` is then "disabled"). */
  offInWorkspace?: boolean;
  /** It signs in with OAuth (over HTTP, with no `Authorization` header of its own): Sign in / Sign out apply. */
  oauth?: boolean;
  /** A sign-in is under way: the page shows the authorization page's link and a field for the redirected URL. */
  signingIn?: McpSignInView;
  /** Why the last sign-in did not finish, in Pi's words. */
  signInError?: string;
}

/** A sign-in under way (Pi's OAuth flow: the authorization page, then its redirect to Pi's loopback callback). */
export interface McpSignInView {
  /**
   * The authorization page to open in a browser, once Pi has it (absent while Pi contacts the authorization
   * server). The desktop app opens it in the system browser itself.
   */
  authorizationUrl?: string;
}

/** The chat's MCP servers and what kept some out. */
export interface McpServersState {
  /** Every configured server, by name. */
  servers: McpServerView[];
  /** What was wrong in the `mcp.json` files (an entry that is skipped, a file that is not JSON). */
  errors: string[];
  /** The workspace's `.pi/mcp.json`, when it exists and was skipped because the project is not trusted in Pi. */
  skippedProjectConfig?: string;
  /** Pi's codemode and tool_search ("Scripts and tool search", off by default); absent from older hosts. */
  scripts?: McpScriptsState;
}

/** Whether Pi's codemode and tool_search are on in the workspace, and in this chat. */
export interface McpScriptsState {
  /** The workspace's setting now: chats started from now on load them. */
  on: boolean;
  /** Whether this chat loaded them (it took the setting when it started). */
  inThisChat: boolean;
}

/** A server's own notes about a tool (MCP's annotations): shown on the card, never taken as a decision. */
export type McpToolHint = "read-only" | "destructive" | "idempotent" | "open-world";

/** Where an MCP call is in its life. */
export type McpCallStatus =
  /** Waiting for the person (or the rules). */
  | "pending"
  /** Approved and sent to the server; waiting for its answer. */
  | "running"
  /** The server answered. */
  | "done"
  /** The server answered with an error, or could not be reached. */
  | "failed"
  /** The person (or a rule) said no: nothing was sent. */
  | "denied"
  /** Stopped before it was decided, or cancelled while it ran. */
  | "cancelled";

/** Pi's own tools that reach MCP tools, shown and decided like an MCP call: a script, a tool search. */
export type PiScriptTool = "codemode" | "tool_search";

/** Everything the page shows of one call to an MCP tool (or to Pi's codemode or tool_search, `piTool`). */
export interface McpCallView {
  /** The agent's tool call id. */
  id: string;
  /**
   * Pi's codemode (its script in `arguments.code`) or tool_search (its query in `arguments.query`), not a
   * server's tool; `server` is then "pi". Absent for a server's tool.
   */
  piTool?: PiScriptTool;
  /** The codemode call whose script made this call (Pi's `parentToolCallId`); absent for the agent's own calls. */
  parentToolCallId?: string;
  /**
   * A reopened chat's codemode call: the calls its script made, as Pi recorded them on its result (their
   * own cards are shown live only). Absent while live and for other calls.
   */
  scriptCalls?: McpScriptCall[];
  /** The server's name in `mcp.json`. */
  server: string;
  /** The tool's own name on its server. */
  tool: string;
  /** The tool's description, as the server gives it. */
  description?: string;
  /** The arguments, as the agent asked (or as the person edited them, once approved). */
  arguments: Record<string, unknown>;
  /** The server's notes about the tool. */
  hints: McpToolHint[];
  /** Where it is now. */
  status: McpCallStatus;
  /** The id a decision must name; set only while waiting for the person. */
  approvalId?: string;
  /** Why the agent wants it, in its own words, when it said so. */
  why?: string;
  /** Who decided: the person, or a rule (named in `rule`). */
  decidedBy?: "person" | "rule";
  /** The rule that decided, as the person would read it. */
  rule?: string;
  /** The person edited the arguments before approving. */
  editedByPerson?: boolean;
  /** The tool's result as the model reads it (text), bounded. */
  result?: string;
  /** Images in the result, as the card shows them (a few, each bounded); the model gets them all. */
  images?: McpImage[];
  /** Audio in the result, as the card plays it (a few, each bounded); Pi tells the model only that it is there. */
  audio?: McpAudio[];
  /** Resources the result points to (MCP resource links); the agent reads one with `read_mcp_resource`. */
  links?: McpResourceLink[];
  /** Why it was denied, failed or cancelled. */
  reason?: string;
  /** What it changed in the workspace's files, when recorded (a local server's call, like a command). */
  changes?: CommandChanges;
  /** Undos of its changes and restores to before it, oldest first. */
  reverts?: RevertEntry[];
  /** Its change record was dropped to keep the records within their budget: no undo any more. */
  changesDropped?: boolean;
}

/** One call a codemode script made, as Pi records it on the script's result. */
export interface McpScriptCall {
  /** Its tool call id (`<script's call id>/<n>`). */
  id: string;
  /** The tool's name (`mcp__everything__echo`, `run_command`). */
  name: string;
  /** How it ended: answered, failed or refused, or not ended when the script did. */
  status: "ok" | "error" | "unfinished";
}

/** An image of a tool's result. */
export interface McpImage {
  /** Its type, `image/png` and the like. */
  mimeType: string;
  /** Its bytes, base64. */
  data: string;
}

/** An audio clip of a tool's result. */
export interface McpAudio {
  /** Its type, `audio/wav` and the like. */
  mimeType: string;
  /** Its bytes, base64. */
  data: string;
}

/** A resource a tool's result points to (MCP's `resource_link`), as the server describes it. */
export interface McpResourceLink {
  /** Its URI, on the server (`file://`, `https://`, or the server's own scheme). */
  uri: string;
  /** Its name. */
  name: string;
  /** Its title for people, when the server gives one. */
  title?: string;
  /** What it is, when the server says. */
  description?: string;
  /** Its type, when the server says. */
  mimeType?: string;
}

/** The person's answer to a waiting MCP call. */
export type McpDecision =
  | {
      kind: "approve";
      /** The person's own arguments, sent instead of the agent's; checked against the tool's schema first. */
      arguments?: Record<string, unknown>;
    }
  | {
      kind: "deny";
      /** Why, in the person's words; the model reads it. */
      reason?: string;
    };

/** What the host records of every MCP call (the tool result's `details`). */
export interface McpCallDetails {
  /** Marks these details as Pi Desk's. */
  piDesk: "mcp-call";
  /** The server. */
  server: string;
  /** The tool. */
  tool: string;
  /** How it ended. */
  status: Exclude<McpCallStatus, "pending" | "running">;
  /** The arguments sent (absent when nothing was sent). */
  arguments?: Record<string, unknown>;
  /** The person edited the arguments. */
  editedByPerson?: boolean;
  /** Why it was denied, failed or cancelled. */
  reason?: string;
  /** What it changed in the workspace's files, when recorded. */
  changes?: CommandChanges;
  /** The server's own answer as text (bounded), without what Pi Desk added for the model. */
  resultText?: string;
  /** The resources the answer pointed to, so a reopened chat's card still lists them (sounds are not kept). */
  links?: McpResourceLink[];
}
