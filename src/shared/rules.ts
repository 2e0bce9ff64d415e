import type { HostRefusal } from "./network";
/** Whether a rule lets a command run without asking, or refuses it without asking. */
export type RuleEffect = "allow" | "deny";

/**
 * How a rule's pattern matches: a command whole (`exact`) or by its first words (`prefix`); a file edit by
 * its workspace-relative path (`file`), or every file edit (`any-file`, pattern `*`); a call to one MCP tool
 * (`mcp-tool`, pattern `server/tool`) or to any tool of an MCP server (`mcp-server`, pattern `server`).
 */
export type RuleMatch = "exact" | "prefix" | "file" | "any-file" | "mcp-tool" | "mcp-server";

/** How long a rule lasts: this conversation, or the workspace (kept on disk). */
export type RuleScope = "session" | "workspace";

/**
 * What an argument can make a program do beyond its job, in the allowlist's argument table: an "always
 * allow" prefix never covers such an argument after its prefix.
 */
export type ArgumentEffect =
  /** Runs another program, evaluates code, or sets configuration that names a program to run. */
  | "runs"
  /** Deletes or writes a file (or a setting) that nothing before it named. */
  | "writes";

/** Why an "always allow" prefix rule did not let a command run: an argument after its prefix is in the table. */
export interface RuleNotApplied {
  /** The rule's pattern, e.g. `find .`. */
  pattern: string;
  /** The argument after it, as written (after quote removal), e.g. `-exec`. */
  argument: string;
  /** What that argument makes the program do. */
  effect: ArgumentEffect;
}

/** A rule the person made so they are not asked the same thing again. */
export interface CommandRule {
  /** Host-issued id, to edit or remove it. */
  id: string;
  /** Allow or deny; deny wins over allow. */
  effect: RuleEffect;
  /** Exact command or word prefix. */
  match: RuleMatch;
  /** The command, or its first words. */
  pattern: string;
  /** This session or the workspace. */
  scope: RuleScope;
  /** When it was made (ms since the epoch). */
  createdAt: number;
  /** The argument table's version when it was made or last changed; absent for rules saved before the table. */
  tableVersion?: number;
  /**
   * Set by the host on an allow prefix rule saved before the argument table, which now covers less than it
   * did: what it no longer covers after its prefix. Saving the rule again clears it.
   */
  narrowed?: ArgumentEffect[];
}

/** A new rule, or the new content of an existing one. */
export interface RuleDraft {
  /** Allow or deny. */
  effect: RuleEffect;
  /** Exact command or word prefix. */
  match: RuleMatch;
  /** The command, or its first words. */
  pattern: string;
  /** This session or the workspace. */
  scope: RuleScope;
}

/** One line of a workspace's audit log: every decision about a command, who made it, and how it ended. */
export interface AuditEntry {
  /** When (ms since the epoch). */
  at: number;
  /** The session the command belongs to. */
  sessionId: string;
  /** The command's or the file edit's id (its tool call id). */
  commandId: string;
  /**
   * What was decided: a command (absent means a command, as lines before file edits existed say), a file
   * edit, or one host a sandboxed command's network proxy let through or refused (`commandId` is the command's).
   */
  kind?: "command" | "file-edit" | "host" | "mcp-call" | "rewind";
  /** An MCP call's server (`kind: "mcp-call"`; its tool is in `tool`). */
  server?: string;
  /** An MCP call's arguments as JSON, values of secret-named keys hidden (`kind: "mcp-call"`). */
  arguments?: string;
  /**
   * A codemode script as decided (`kind: "mcp-call"`, `server` "pi", `tool` "codemode"), in full up to 64 KiB
   * (cut longer, `scriptSha256` then names the whole): what ran must be readable later, and the model wrote
   * it (the nested calls' arguments, where secrets would be, have their own lines, secrets hidden).
   */
  script?: string;
  /** The SHA-256 (hex) of the whole script, so a cut one can be matched with the chat's session file. */
  scriptSha256?: string;
  /** The codemode call whose script made this call (a command's or an MCP call's line); absent for the agent's own. */
  parentToolCallId?: string;
  /** The command as decided (after any edit); absent for a file edit. */
  command?: string;
  /** A file edit's tool (`edit` or `write`). */
  tool?: string;
  /** A file edit's file, workspace-relative. */
  path?: string;
  /**
   * What happened. A background command is `started` when the tool returned with it still running, then
   * `stopped` (by the person, the agent, the cap, its chat closing or the app quitting) or `exited`. The
   * person's undo of its changes is `undone`; putting the workspace back to before it is `restored`.
   * `narrowed`: a rule saved before the argument table did not let the command run because of the table
   * (written the first time for each rule; `rule` names it, `reason` says which argument).
   * A chat taken back (`kind: "rewind"`, `commandId` the person's message's entry id, `command` its text,
   * `files` what became of each file): `rewound` to before a message, `branch-switched` to another way the
   * conversation took, `went-back` by "Back to where I was".
   */
  event:
    | "approved"
    | "denied"
    | "refused"
    | "cancelled"
    | "finished"
    | "started"
    | "stopped"
    | "exited"
    | "undone"
    | "restored"
    | "narrowed"
    | "host-allowed"
    | "host-refused"
    | "rewound"
    | "branch-switched"
    | "went-back";
  /**
   * Who or what decided: the person, a rule, the host's policy, the agent's Stop, the host; for a stopped
   * background command also the agent (`stop_command`), the cap, its chat closing or the app quitting.
   */
  by: "person" | "rule" | "policy" | "stop" | "host" | "agent" | "cap" | "chat-closed" | "quit";
  /** The rule that matched, when a rule decided. */
  rule?: string;
  /** The person's reason, or the host's. */
  reason?: string;
  /** Whether the person edited the command or its timeout. */
  edited?: boolean;
  /** The final status, for `finished`. */
  status?: string;
  /** The exit code, for `finished`. */
  exitCode?: number | null;
  /** The host name a sandboxed command asked its proxy for, as it asked (`kind: "host"`). */
  host?: string;
  /** The port it asked for (0 when the request never said). */
  port?: number;
  /** Whether the proxy let the connection through (`host-allowed`) or refused it (`host-refused`). */
  allowed?: boolean;
  /** Bytes the command sent to the host over that connection (0 when refused). */
  bytesUp?: number;
  /** Bytes it received from the host over that connection (0 when refused). */
  bytesDown?: number;
  /** Why the proxy refused it, as a kind the page words itself (`host-refused` only). */
  refusal?: HostRefusal;
  /** A rewind's files by outcome (`kind: "rewind"`): how many were put back, kept as changed since, not recorded. */
  files?: { restored: number; kept: number; notRecorded: number };
}
