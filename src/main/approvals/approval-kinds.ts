/**
 * What differs between kinds of request at the gate: how each is named in the audit log, what its card
 * shows, which decisions fit it and what a rule matches it by. A new kind adds a subject here and a body
 * on the renderer's approval card; the gate's flow (rules, claim, audit, resolve) stays the same.
 */

import { createHash } from "node:crypto";
import type { ApprovalDecision, CommandView } from "../../shared/commands";
import type { EditDecision, EditShape, EditTool, EditView, ProposedDiff } from "../../shared/edits";
import type { McpCallView, McpDecision, McpToolHint, PiScriptTool } from "../../shared/mcp";
import type { NetworkMode } from "../../shared/network";
import type { AuditEntry } from "../../shared/rules";
import type { CommandRequest, ParsedCommandLine } from "../run-command";
import { ruleOffer } from "./rule-patterns";

/** A decision of the person's, whatever the kind of request it answers. */
export type AnyDecision = ApprovalDecision | EditDecision | McpDecision;

/** What a rule matches a request by: a command's parsed line, an edit's workspace-relative path, an MCP tool. */
export type RuleSubject =
  | { kind: "command"; parsed: ParsedCommandLine }
  | { kind: "file-edit"; path: string }
  | { kind: "mcp-tool"; server: string; tool: string }
  /** Pi's codemode or tool_search: no rule matches it (each script differs; see `mcpSubject`). */
  | { kind: "pi-tool"; tool: PiScriptTool };

/** A command waiting at the gate. */
export interface CommandSubject {
  kind: "command";
  /** The tool call id. */
  id: string;
  /** The command as the agent asked for it. */
  command: string;
  /** Whether it runs sandboxed (the person may allow it the network). */
  sandboxed: boolean;
  /** What rules match. */
  matchable: RuleSubject;
  /** Never decided by a rule. */
  protected: false;
}

/** A file edit waiting at the gate. */
export interface EditSubject {
  kind: "file-edit";
  /** The tool call id. */
  id: string;
  /** Which tool. */
  tool: EditTool;
  /** The file, workspace-relative. */
  path: string;
  /** What rules match. */
  matchable: RuleSubject;
  /** A protected path (`.env*`, `.pi/`, CI and hook folders): always asks, whatever the rules. */
  protected: boolean;
}

/** A call to an MCP tool waiting at the gate. */
export interface McpSubject {
  kind: "mcp-call";
  /** The tool call id. */
  id: string;
  /** The server's name in mcp.json. */
  server: string;
  /** The tool's name on its server. */
  tool: string;
  /** Pi's codemode or tool_search rather than a server's tool. */
  piTool?: PiScriptTool;
  /** The arguments as the agent asked. */
  arguments: Record<string, unknown>;
  /** Why arguments the person edited do not fit the tool's schema; undefined when they fit. */
  check: (args: Record<string, unknown>) => string | undefined;
  /** What rules match. */
  matchable: RuleSubject;
  /** Never protected: every rule applies (a server's hints are never taken as a rule). */
  protected: false;
}

/** Anything that waits at the gate. */
export type ApprovalSubject = CommandSubject | EditSubject | McpSubject;

/** The decision type that answers a subject. */
export type DecisionFor<S extends ApprovalSubject> = S extends CommandSubject
  ? ApprovalDecision
  : S extends McpSubject
    ? McpDecision
    : EditDecision;

/** A call to an MCP tool the gated tool asks the gate about, with what its card shows. */
export interface McpRequest {
  /** The tool call id. */
  toolCallId: string;
  /** The server's name in mcp.json. */
  server: string;
  /** The tool's name on its server. */
  tool: string;
  /** Pi's codemode or tool_search rather than a server's tool (`server` is then "pi"). */
  piTool?: PiScriptTool;
  /** The tool's description, as its server gives it. */
  description?: string;
  /** The arguments as the agent asked. */
  arguments: Record<string, unknown>;
  /** The server's own notes about the tool. */
  hints: McpToolHint[];
  /** Why arguments do not fit the tool's schema; undefined when they fit. */
  check: (args: Record<string, unknown>) => string | undefined;
}

/** An edit the tools ask the gate about, with what its card shows. */
export interface EditRequest {
  /** The tool call id. */
  toolCallId: string;
  /** Which tool. */
  tool: EditTool;
  /** The file, workspace-relative with `/` separators. */
  path: string;
  /** What it does to the file. */
  shape: EditShape;
  /** The diff from the file on disk to the proposal. */
  diff: ProposedDiff;
  /** The proposed whole new content. */
  proposed: string;
  /** A protected path: always asks. */
  protected: boolean;
}

/** What the gate shows on the cards while it decides: the session's projection of commands and edits. */
export interface ApprovalCards {
  /** The card of a command, if it has one yet. */
  commands: ReadonlyMap<string, CommandView>;
  /** Changes a command's card. */
  updateCommand(id: string, patch: Partial<CommandView>): unknown;
  /** Changes an edit's card. */
  updateEdit(id: string, patch: Partial<EditView>): unknown;
  /** Changes an MCP call's card. */
  updateMcpCall(id: string, patch: Partial<McpCallView>): unknown;
  /** The agent's words just before its tool call: why it wants the command or the edit. */
  reasonFor(): string | undefined;
  /** The codemode call whose script made this call, if a script made it. */
  parentOf?(id: string): string | undefined;
}

/** How a decision changes a card: it stops offering a decision, and says who decided and what they chose. */
export function decidedCard(
  subject: ApprovalSubject,
  how: { by: "person" | "rule"; rule?: string; decision: AnyDecision },
  view: CommandView | undefined,
): Partial<CommandView> | Partial<EditView> | Partial<McpCallView> {
  const who = { decidedBy: how.by, approvalId: undefined, ...(how.rule ? { rule: how.rule } : {}) };
  if (subject.kind === "file-edit") return { ...who, proposed: undefined };
  if (subject.kind === "mcp-call") return who;
  const approve =
    how.decision.kind === "approve"
      ? (how.decision as Extract<ApprovalDecision, { kind: "approve" }>)
      : undefined;
  return {
    ...who,
    // The network a person allows one command is the sandbox's full one: the host's, local services too.
    ...(fullNetwork(approve?.network) && view?.sandbox
      ? { sandbox: { ...view.sandbox, network: true, localServices: view.sandbox.enabled } }
      : {}),
    ...(approve?.background !== undefined ? { runInBackground: approve.background } : {}),
    ...(approve && view?.network
      ? { network: { ...view.network, chosen: chosenMode(view.network.mode, approve.network) } }
      : {}),
  };
}

/** The mode a decision picks for the command: its own, `true` for full, or the offer's when it says none. */
function chosenMode(
  offered: NetworkMode,
  network: Extract<ApprovalDecision, { kind: "approve" }>["network"],
): NetworkMode {
  if (network === true) return "full";
  if (typeof network === "object" && network !== null) return network.mode;
  return offered;
}

/** The gate's subject for a command. */
export function commandSubject(request: CommandRequest): CommandSubject {
  return {
    kind: "command",
    id: request.toolCallId,
    command: request.command,
    sandboxed: request.sandbox.enabled,
    matchable: { kind: "command", parsed: request.parsed },
    protected: false,
  };
}

/** The gate's subject for a file edit. */
export function editSubject(request: EditRequest): EditSubject {
  return {
    kind: "file-edit",
    id: request.toolCallId,
    tool: request.tool,
    path: request.path,
    matchable: { kind: "file-edit", path: request.path },
    protected: request.protected,
  };
}

/** What a command's card shows while it waits: the command, its limits, its parts and risks, the offer. */
export function commandCard(request: CommandRequest, why: string | undefined): Partial<CommandView> {
  const offer = ruleOffer(request.parsed);
  return {
    command: request.command,
    timeoutSeconds: request.timeoutSeconds,
    sandbox: request.sandbox,
    network: {
      ...request.network,
      allowedHosts: [...request.network.allowedHosts],
      askedHosts: [...request.network.askedHosts],
    },
    runInBackground: request.background,
    backgroundCapSeconds: request.backgroundCapSeconds,
    parts: request.parsed.commands.map(({ name, text, start, end }) => ({ name, text, start, end })),
    risks: request.parsed.risks.map(({ kind, text, start, end, note, say }) => ({
      kind,
      text,
      start,
      end,
      note,
      ...(say ? { say } : {}),
    })),
    ...(offer ? { ruleOffer: offer } : {}),
    ...(why ? { why } : {}),
  };
}

/** What an edit's card shows while it waits. */
export function editCard(request: EditRequest, why: string | undefined): Partial<EditView> {
  return {
    path: request.path,
    shape: request.shape,
    diff: request.diff,
    proposed: request.proposed,
    ...(request.protected ? {} : { ruleOffer: { path: request.path } }),
    ...(why ? { why } : {}),
  };
}

/** The gate's subject for a call to an MCP tool. */
export function mcpSubject(request: McpRequest): McpSubject {
  return {
    kind: "mcp-call",
    id: request.toolCallId,
    server: request.server,
    tool: request.tool,
    ...(request.piTool ? { piTool: request.piTool } : {}),
    arguments: request.arguments,
    check: request.check,
    // A script or a search is never decided by a rule: each script is new code (an "always allow" would
    // allow whatever the model writes next), and a search is asked for as rarely as a script (Pi's
    // MCP extension turns it on only for `deferred` servers); every call either leads to still waits.
    matchable: request.piTool
      ? { kind: "pi-tool", tool: request.piTool }
      : { kind: "mcp-tool", server: request.server, tool: request.tool },
    protected: false,
  };
}

/** What an MCP call's card shows while it waits. */
export function mcpCard(request: McpRequest, why: string | undefined): Partial<McpCallView> {
  return {
    status: "pending",
    server: request.server,
    tool: request.tool,
    arguments: request.arguments,
    hints: request.hints,
    // Pi's own long tool description (how scripts work) is for the model, not the card.
    ...(request.description && !request.piTool ? { description: request.description } : {}),
    ...(why ? { why } : {}),
  };
}

/** How a subject is named on every audit line about it. */
export function auditSubject(subject: ApprovalSubject): Partial<AuditEntry> {
  if (subject.kind === "mcp-call" && subject.piTool === "codemode")
    return {
      kind: "mcp-call",
      server: subject.server,
      tool: subject.tool,
      ...auditScript(subject.arguments),
    };
  if (subject.kind === "mcp-call")
    return {
      kind: "mcp-call",
      server: subject.server,
      tool: subject.tool,
      arguments: auditArguments(subject.arguments),
    };
  return subject.kind === "command"
    ? { command: subject.command }
    : { kind: "file-edit", tool: subject.tool, path: subject.path };
}

/** What a person's decision adds to its audit line: the command as approved, the reason, whether edited. */
export function decisionAudit(subject: ApprovalSubject, decision: AnyDecision): Partial<AuditEntry> {
  const reason = decision.kind === "deny" && decision.reason ? { reason: decision.reason } : {};
  if (subject.kind === "mcp-call") {
    const edited = decision.kind === "approve" && "arguments" in decision ? decision.arguments : undefined;
    if (edited && subject.piTool === "codemode") return { ...reason, edited: true, ...auditScript(edited) };
    return { ...reason, ...(edited ? { edited: true, arguments: auditArguments(edited) } : {}) };
  }
  if (subject.kind === "file-edit") {
    const changed = decision.kind === "approve" && "content" in decision && decision.content !== undefined;
    return { ...reason, ...(changed ? { edited: true } : {}) };
  }
  const approve =
    decision.kind === "approve" ? (decision as Extract<ApprovalDecision, { kind: "approve" }>) : undefined;
  return {
    command: approve?.command ?? subject.command,
    ...reason,
    ...(approve && (approve.command || approve.timeoutSeconds) ? { edited: true } : {}),
  };
}

/** Refuses a decision that carries what only another kind of request takes (a command for an edit, content for a command). */
export function checkDecisionFits(subject: ApprovalSubject, decision: AnyDecision): void {
  if (decision.kind !== "approve") return;
  const fields = Object.keys(decision).filter((key) => key !== "kind");
  const allowed =
    subject.kind === "command"
      ? ["command", "timeoutSeconds", "network", "background"]
      : subject.kind === "mcp-call"
        ? ["arguments"]
        : ["content"];
  const foreign = fields.filter((key) => !allowed.includes(key));
  if (foreign.length > 0) {
    const what =
      subject.kind === "command" ? "a command" : subject.kind === "mcp-call" ? "a tool call" : "a file edit";
    throw new Error(
      `This approval is for ${what}; it cannot take ${foreign.join(", ")}. Approve it with ${
        allowed.map((key) => `"${key}"`).join(", ") || "no changes"
      } only, or refresh the page.`,
    );
  }
}

/** Refuses edited arguments that break the tool's schema: nothing is sent, the card stays waiting. */
export function checkMcpArguments(subject: ApprovalSubject, decision: AnyDecision): void {
  if (subject.kind !== "mcp-call" || decision.kind !== "approve" || !("arguments" in decision)) return;
  const args = decision.arguments;
  if (!args) return;
  const problem = subject.check(args);
  if (problem)
    throw new Error(
      `These arguments do not fit the tool's schema (${problem}), so nothing was sent. Fix them, or approve the agent's arguments.`,
    );
}

/** Names that hold secrets: their values are never written to the audit log. */
const SECRET_NAME = /token|secret|password|passwd|api.?key|auth|credential|cookie|private/i;

/** The most of the arguments' JSON an audit line keeps. */
const AUDIT_ARGUMENTS_CHARS = 4000;

/** The arguments as an audit line keeps them: JSON with secret-named values hidden, cut at a bound. */
export function auditArguments(args: Record<string, unknown>): string {
  const text = JSON.stringify(args, (key, value: unknown) =>
    key && SECRET_NAME.test(key) && value !== null && typeof value !== "object" ? "[hidden]" : value,
  );
  return text.length > AUDIT_ARGUMENTS_CHARS ? `${text.slice(0, AUDIT_ARGUMENTS_CHARS)}…` : text;
}

/** The most of a script an audit line keeps (characters); a longer one is cut and named by its hash. */
const AUDIT_SCRIPT_CHARS = 64 * 1024;

/** A codemode script as an audit line keeps it: in full up to the bound, with the hash of the whole. */
function auditScript(args: Record<string, unknown>): Pick<AuditEntry, "script" | "scriptSha256"> {
  const code = typeof args.code === "string" ? args.code : JSON.stringify(args);
  return {
    script: code.length > AUDIT_SCRIPT_CHARS ? `${code.slice(0, AUDIT_SCRIPT_CHARS)}…` : code,
    scriptSha256: createHash("sha256").update(code).digest("hex"),
  };
}

/** Whether a decision gives the command the full network (`true`, or the choice "full"); host rules do not. */
function fullNetwork(network: Extract<ApprovalDecision, { kind: "approve" }>["network"]): boolean {
  return network === true || (typeof network === "object" && network.mode === "full");
}
