import type {
  ApprovalDecision,
  BackgroundState,
  CommandView,
  RunCommandDetails,
} from "../../shared/commands";
import type { EditDecision, EditView, FileEditDetails } from "../../shared/edits";
import type { McpCallDetails, McpCallView, McpDecision } from "../../shared/mcp";
import type { AuditEntry, CommandRule, RuleDraft } from "../../shared/rules";
import type { CommandRequest, HostDecisionEvent } from "../run-command";
import { ApprovalBroker } from "./approval-broker";
import {
  type AnyDecision,
  type ApprovalCards,
  type ApprovalSubject,
  auditSubject,
  type CommandSubject,
  checkDecisionFits,
  checkMcpArguments,
  commandCard,
  commandSubject,
  type DecisionFor,
  decidedCard,
  decisionAudit,
  type EditRequest,
  editCard,
  editSubject,
  type McpRequest,
  mcpCard,
  mcpSubject,
} from "./approval-kinds";
import type { AuditLog } from "./audit-log";
import { NarrowedLog } from "./narrowed-log";
import type { RuleBook } from "./rule-book";
import { describeRule } from "./rule-patterns";

export type { ApprovalCards, EditRequest, McpRequest } from "./approval-kinds";

/** What a gate is made of. */
export interface ApprovalGateOptions {
  /** The workspace's "always allow / always deny" rules. */
  rules: RuleBook;
  /** The workspace's append-only audit log. */
  audit: AuditLog;
  /** The cards the person decides on. */
  cards: ApprovalCards;
  /** The conversation every audit line names. */
  sessionId: () => string;
  /** Called after every change to the rules, failed or not, with the rules then in force. */
  onRulesChanged: (state: { rules: CommandRule[]; rulesProblem?: string }) => void;
}

export type { AnyDecision } from "./approval-kinds";

/** How an asked request ended: what was decided, or cancelled (the turn stopped before the person decided). */
export type GateAnswer<D> = D | { kind: "cancelled" };

/**
 * The person between the agent and everything it changes: a request (a command, a file edit) goes to the
 * rules first, then waits in the broker for the person's decision; every decision and every end goes to the
 * audit log. One gate for every kind: a kind brings its card and its rule matcher (approval-kinds.ts).
 * The conversation (WorkspaceSession) owns a gate and hands its `approve*` methods to the tools.
 */
export class ApprovalGate {
  private readonly broker = new ApprovalBroker<ApprovalSubject, AnyDecision>();
  private readonly writes = new Set<Promise<void>>();
  /** The first time each saved rule did not match because of the argument table, once on record. */
  private readonly narrowed: NarrowedLog;

  constructor(private readonly options: ApprovalGateOptions) {
    this.narrowed = new NarrowedLog(options.audit);
  }

  /** `run_command`'s approval hook: rules first, then the person. */
  async approveCommand(request: CommandRequest, signal: AbortSignal | undefined): Promise<ApprovalDecision> {
    const { cards } = this.options;
    cards.updateCommand(request.toolCallId, commandCard(request, this.why(request.toolCallId)));
    const answer = await this.ask(commandSubject(request), signal);
    if (answer.kind === "cancelled")
      return { kind: "deny", reason: "The turn was stopped before the user decided." };
    return answer;
  }

  /** The edit tools' approval hook: rules first (never for protected paths), then the person. */
  approveEdit(request: EditRequest, signal: AbortSignal | undefined): Promise<GateAnswer<EditDecision>> {
    const { cards } = this.options;
    cards.updateEdit(request.toolCallId, {
      status: "pending",
      ...editCard(request, this.why(request.toolCallId)),
    });
    return this.ask(editSubject(request), signal);
  }

  /** The MCP tools' approval hook: rules first, then the person (a server's hints never decide). */
  approveMcpCall(request: McpRequest, signal: AbortSignal | undefined): Promise<GateAnswer<McpDecision>> {
    const { cards } = this.options;
    cards.updateMcpCall(request.toolCallId, mcpCard(request, this.why(request.toolCallId)));
    return this.ask(mcpSubject(request), signal);
  }

  /**
   * Why the agent asks, for the card: its words before the call. A call a script made has none of its own
   * (those words were the script's, shown on the script's card, which this card names).
   */
  private why(toolCallId: string): string | undefined {
    const { cards } = this.options;
    return cards.parentOf?.(toolCallId) ? undefined : cards.reasonFor();
  }

  /** Delivers the person's decision on a pending request, with an optional rule for next time. */
  async decide(approvalId: string, decision: AnyDecision, rule?: RuleDraft): Promise<void> {
    // Claimed before anything is awaited: a second decision, or Stop, arriving meanwhile changes nothing.
    const claim = this.broker.claim(approvalId);
    const { subject } = claim;
    try {
      checkDecisionFits(subject, decision);
      checkMcpArguments(subject, decision);
      if (rule) await this.addRule(rule);
    } catch (error) {
      claim.release();
      throw error;
    }
    await this.record(subject, decision.kind === "approve" ? "approved" : "denied", "person", {
      ...decisionAudit(subject, decision),
    });
    // Answered: the card stops offering a decision at once, before anything runs or is written.
    this.decided(subject, { by: "person", decision });
    claim.resolve(decision);
  }

  /** Whether a request waits here under this approval id (the host finds the chat a decision is for). */
  isWaiting(approvalId: string): boolean {
    return this.broker.peek(approvalId) !== undefined;
  }

  /** Every request still waiting for the person is answered "cancelled" (Stop, a closing session). */
  cancelPending(): void {
    this.broker.cancelAll();
  }

  /**
   * Writes how a command ended (ran, failed, timed out, refused by the policy) to the audit log; a command
   * still running in the background when the tool returned is `started` instead.
   */
  recordEnd(commandId: string, details: RunCommandDetails): void {
    const view = this.options.cards.commands.get(commandId);
    const refused = details.status === "refused";
    const event = refused ? "refused" : details.status === "background" ? "started" : "finished";
    void this.write(commandId, event, refused ? "policy" : "host", {
      command: details.command ?? view?.command ?? "",
      status: details.status,
      exitCode: details.exitCode,
      ...(details.reason ? { reason: details.reason } : {}),
    });
  }

  /** Writes how a file edit ended: applied, or why not (refused by the host, failed, denied, cancelled). */
  recordEditEnd(editId: string, details: FileEditDetails): void {
    const refused = details.status === "failed" && !details.changedByPerson && details.reason !== undefined;
    void this.write(editId, refused ? "refused" : "finished", refused ? "policy" : "host", {
      kind: "file-edit",
      tool: details.tool,
      path: details.path,
      status: details.status,
      ...(details.reason ? { reason: details.reason } : {}),
    });
  }

  /** Writes how an MCP call ended: answered, failed, or cancelled while it ran (denials are written when decided). */
  recordMcpEnd(callId: string, details: McpCallDetails): void {
    if (details.status === "denied") return;
    void this.write(callId, "finished", "host", {
      kind: "mcp-call",
      server: details.server,
      tool: details.tool,
      status: details.status,
      ...(details.reason ? { reason: details.reason } : {}),
    });
  }

  /** Writes how a background command ended: stopped (and by whom) or exited on its own. */
  recordBackgroundEnd(commandId: string, command: string, state: BackgroundState): void {
    if (state.status === "stopped") {
      void this.write(commandId, "stopped", state.stoppedBy ?? "host", { command });
    } else {
      void this.write(commandId, "exited", "host", { command, exitCode: state.exitCode ?? null });
    }
  }

  /**
   * Writes one of a sandboxed command's network decisions: a refused host at once, an allowed connection
   * when it closes (with its bytes up and down). An opening is not a line of its own: its close says it all.
   */
  recordHostDecision(commandId: string, event: HostDecisionEvent): void {
    if (event.phase === "opened") return;
    const allowed = event.phase === "closed";
    void this.write(commandId, allowed ? "host-allowed" : "host-refused", allowed ? "host" : "policy", {
      kind: "host",
      command: this.options.cards.commands.get(commandId)?.command,
      host: event.host,
      port: event.port,
      allowed,
      bytesUp: event.bytesUp,
      bytesDown: event.bytesDown,
      ...(event.refusal ? { refusal: event.refusal } : {}),
      ...(event.reason ? { reason: event.reason } : {}),
    });
  }

  /** Writes the person's undo of a command's (or an edit's) changes, or restore of the workspace to before it. */
  recordRevert(id: string, label: Partial<AuditEntry>, kind: "undo" | "restore", text: string): void {
    void this.write(id, kind === "undo" ? "undone" : "restored", "person", { ...label, reason: text });
  }

  /**
   * Writes the person's rewind of the chat, branch switch, or "Back to where I was": the message it was about
   * (its entry id and text, when there is one) and what became of the files.
   */
  recordRewind(
    event: "rewound" | "branch-switched" | "went-back",
    message: { entryId: string; text?: string },
    files: NonNullable<AuditEntry["files"]>,
  ): void {
    void this.write(message.entryId, event, "person", {
      kind: "rewind",
      ...(message.text !== undefined ? { command: message.text } : {}),
      files,
    });
  }

  /** The rules in force, and why the workspace's rules file could not be read when it could not. */
  ruleState(): { rules: CommandRule[]; rulesProblem?: string } {
    const problem = this.options.rules.problem();
    return { rules: this.options.rules.list(), ...(problem ? { rulesProblem: problem } : {}) };
  }

  /** Makes a rule. */
  addRule(draft: RuleDraft): Promise<CommandRule> {
    return this.changingRules(() => this.options.rules.add(draft));
  }

  /** Changes a rule. */
  updateRule(id: string, draft: RuleDraft): Promise<CommandRule> {
    return this.changingRules(() => this.options.rules.update(id, draft));
  }

  /** Removes a rule. */
  removeRule(id: string): Promise<void> {
    return this.changingRules(() => this.options.rules.remove(id));
  }

  /** The workspace's audit log, newest first. */
  history(query?: string, limit?: number): Promise<AuditEntry[]> {
    return this.options.audit.read({ query, limit });
  }

  /** Resolves once every audit line begun so far is written (or has failed and been reported). */
  async settled(): Promise<void> {
    await Promise.allSettled([...this.writes]);
  }

  /** Rules first, then the person: the one path every kind of request takes. */
  private async ask<S extends ApprovalSubject>(
    subject: S,
    signal: AbortSignal | undefined,
  ): Promise<GateAnswer<DecisionFor<S>>> {
    const { rules } = this.options;
    // A protected file is never accepted by a rule (a deny rule still refuses it).
    const verdict = rules.decideFor(subject.matchable);
    const ruled = verdict && subject.protected && verdict.effect === "allow" ? null : verdict;
    if (!ruled && subject.kind === "command") await this.tableMiss(subject);
    if (ruled) {
      const rule = describeRule(ruled.rule);
      await this.record(subject, ruled.effect === "allow" ? "approved" : "denied", "rule", { rule });
      const decision = (
        ruled.effect === "allow"
          ? { kind: "approve" }
          : { kind: "deny", reason: `A rule denies it: ${rule}.` }
      ) as DecisionFor<S>;
      this.decided(subject, { by: "rule", rule, decision });
      return decision;
    }
    const { approvalId, outcome } = this.broker.wait(subject, signal);
    this.patch(subject, { approvalId });
    const answer = await outcome;
    if (answer.kind === "cancelled") {
      await this.record(subject, "cancelled", "stop", {});
      this.patch(subject, { approvalId: undefined });
      return { kind: "cancelled" };
    }
    return answer.decision as DecisionFor<S>;
  }

  /** No rule decided a command: the card says why a rule that starts like it did not apply (the argument table). */
  private async tableMiss(subject: CommandSubject): Promise<void> {
    if (subject.matchable.kind !== "command") return;
    const miss = this.options.rules.missedByTable(subject.matchable.parsed);
    if (!miss) return;
    this.patch(subject, { ruleNotApplied: miss.notApplied });
    const first = await this.narrowed.firstMiss(miss, subject.command);
    if (first) await this.record(subject, "narrowed", "rule", first);
  }

  /** The card stops offering a decision and says who decided and what they chose. */
  private decided(
    subject: ApprovalSubject,
    how: { by: "person" | "rule"; rule?: string; decision: AnyDecision },
  ): void {
    this.patch(subject, decidedCard(subject, how, this.options.cards.commands.get(subject.id)));
  }

  /** Changes the card of whatever waits. */
  private patch(
    subject: ApprovalSubject,
    patch: Partial<CommandView> | Partial<EditView> | Partial<McpCallView>,
  ): void {
    if (subject.kind === "command")
      this.options.cards.updateCommand(subject.id, patch as Partial<CommandView>);
    else if (subject.kind === "mcp-call")
      this.options.cards.updateMcpCall(subject.id, patch as Partial<McpCallView>);
    else this.options.cards.updateEdit(subject.id, patch as Partial<EditView>);
  }

  /** Runs a change to the rules and reports how they are after it, failed or not (the file may have turned unreadable). */
  private async changingRules<T>(change: () => Promise<T>): Promise<T> {
    try {
      return await change();
    } finally {
      this.options.onRulesChanged(this.ruleState());
    }
  }

  private record(
    subject: ApprovalSubject,
    event: AuditEntry["event"],
    by: AuditEntry["by"],
    extra: Partial<AuditEntry>,
  ): Promise<void> {
    const parent = this.options.cards.parentOf?.(subject.id);
    return this.write(subject.id, event, by, {
      ...auditSubject(subject),
      ...(parent ? { parentToolCallId: parent } : {}),
      ...extra,
    });
  }

  private async write(
    id: string,
    event: AuditEntry["event"],
    by: AuditEntry["by"],
    extra: Partial<AuditEntry>,
  ): Promise<void> {
    const write = this.options.audit
      .append({ at: Date.now(), sessionId: this.options.sessionId(), commandId: id, event, by, ...extra })
      .catch((error: unknown) => console.error(`Pi Desk: could not write the audit log: ${String(error)}`));
    this.writes.add(write);
    await write;
    this.writes.delete(write);
  }
}
