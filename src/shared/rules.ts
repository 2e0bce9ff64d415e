/** Whether a rule lets a command run without asking, or refuses it without asking. */
export type RuleEffect = "allow" | "deny";

/**
 * How a rule's pattern matches: a command whole (`exact`) or by its first words (`prefix`); a file edit by
 * its workspace-relative path (`file`), or every file edit (`any-file`, pattern `*`).
 */
export type RuleMatch = "exact" | "prefix" | "file" | "any-file";

/** How long a rule lasts: this conversation, or the workspace (kept on disk). */
export type RuleScope = "session" | "workspace";

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
  /** What was decided: a command (absent means a command, as lines before file edits existed say) or a file edit. */
  kind?: "command" | "file-edit";
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
    | "restored";
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
}
