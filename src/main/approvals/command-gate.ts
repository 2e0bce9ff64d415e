import type {
  ApprovalDecision,
  BackgroundState,
  CommandView,
  RunCommandDetails,
} from "../../shared/commands";
import type { AuditEntry, CommandRule, RuleDraft } from "../../shared/rules";
import type { CommandRequest } from "../run-command";
import { ApprovalBroker } from "./approval-broker";
import type { AuditLog } from "./audit-log";
import { NarrowedLog } from "./narrowed-log";
import type { RuleBook } from "./rule-book";
import { describeRule, ruleOffer } from "./rule-patterns";

/** What the gate shows on a command's card while it decides: the session's projection of commands. */
export interface CommandCards {
  /** The card of a command, if it has one yet. */
  commands: ReadonlyMap<string, CommandView>;
  /** Changes a command's card. */
  updateCommand(id: string, patch: Partial<CommandView>): unknown;
  /** The agent's words just before its tool call: why it wants the command. */
  reasonFor(): string | undefined;
}

/** What a gate is made of. */
export interface CommandGateOptions {
  /** The workspace's "always allow / always deny" rules. */
  rules: RuleBook;
  /** The workspace's append-only audit log. */
  audit: AuditLog;
  /** The cards the person decides on. */
  cards: CommandCards;
  /** The conversation every audit line names. */
  sessionId: () => string;
  /** Called after every change to the rules, failed or not, with the rules then in force. */
  onRulesChanged: (state: { rules: CommandRule[]; rulesProblem?: string }) => void;
}

/**
 * The person between the agent and every command: a request goes to the rules first, then waits in the
 * approval broker for the person's decision; every decision and every end goes to the audit log. The
 * conversation (WorkspaceSession) owns a gate and hands `approve` to `run_command` as its approval hook.
 */
export class CommandGate {
  private readonly broker = new ApprovalBroker();
  private readonly writes = new Set<Promise<void>>();
  private readonly narrowed: NarrowedLog;

  constructor(private readonly options: CommandGateOptions) {
    this.narrowed = new NarrowedLog(options.audit);
  }

  /** The tool's approval hook: rules first, then the person. */
  async approve(request: CommandRequest, signal: AbortSignal | undefined): Promise<ApprovalDecision> {
    const { cards, rules } = this.options;
    const id = request.toolCallId;
    const offer = ruleOffer(request.parsed);
    const why = cards.reasonFor();
    cards.updateCommand(id, {
      command: request.command,
      timeoutSeconds: request.timeoutSeconds,
      sandbox: request.sandbox,
      runInBackground: request.background,
      backgroundCapSeconds: request.backgroundCapSeconds,
      parts: request.parsed.commands.map(({ name, text, start, end }) => ({ name, text, start, end })),
      risks: request.parsed.risks.map(({ kind, text, start, end, note }) => ({
        kind,
        text,
        start,
        end,
        note,
      })),
      ...(offer ? { ruleOffer: offer } : {}),
      ...(why ? { why } : {}),
    });
    const ruled = rules.decide(request.parsed);
    // No rule decided: say why a rule that starts like it did not apply (the argument table), once on record.
    const miss = ruled ? undefined : rules.missedByTable(request.parsed);
    if (miss) cards.updateCommand(id, { ruleNotApplied: miss.notApplied });
    const first = miss && (await this.narrowed.firstMiss(miss, request.command));
    if (first) await this.record(id, "narrowed", "rule", first);
    if (ruled) {
      const rule = describeRule(ruled.rule);
      const event = ruled.effect === "allow" ? "approved" : "denied";
      await this.record(id, event, "rule", { command: request.command, rule });
      cards.updateCommand(id, { decidedBy: "rule", rule });
      return ruled.effect === "allow"
        ? { kind: "approve" }
        : { kind: "deny", reason: `A rule denies it: ${rule}.` };
    }
    const { approvalId, outcome } = this.broker.wait(id, signal);
    cards.updateCommand(id, { approvalId });
    const answer = await outcome;
    if (answer.kind === "cancelled") {
      await this.record(id, "cancelled", "stop", { command: request.command });
      return { kind: "deny", reason: "The turn was stopped before the user decided." };
    }
    return answer;
  }

  /** Delivers the person's decision on a pending command, with an optional rule for next time. */
  async decide(approvalId: string, decision: ApprovalDecision, rule?: RuleDraft): Promise<void> {
    const { cards } = this.options;
    const commandId = this.broker.commandOf(approvalId);
    const command = cards.commands.get(commandId);
    if (rule) await this.addRule(rule);
    await this.record(commandId, decision.kind === "approve" ? "approved" : "denied", "person", {
      command:
        decision.kind === "approve" ? (decision.command ?? command?.command ?? "") : (command?.command ?? ""),
      ...(decision.kind === "deny" && decision.reason ? { reason: decision.reason } : {}),
      ...(decision.kind === "approve" && (decision.command || decision.timeoutSeconds)
        ? { edited: true }
        : {}),
    });
    // Answered: the card stops offering a decision at once, before the command starts; and it says what the
    // person chose for it (the network, the background).
    cards.updateCommand(commandId, {
      decidedBy: "person",
      approvalId: undefined,
      ...(decision.kind === "approve" && decision.network && command?.sandbox
        ? { sandbox: { ...command.sandbox, network: true } }
        : {}),
      ...(decision.kind === "approve" && decision.background !== undefined
        ? { runInBackground: decision.background }
        : {}),
    });
    this.broker.decide(approvalId, decision);
  }

  /** Every command still waiting for the person is answered "cancelled" (Stop, a closing session). */
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
    void this.record(commandId, event, refused ? "policy" : "host", {
      command: details.command ?? view?.command ?? "",
      status: details.status,
      exitCode: details.exitCode,
      ...(details.reason ? { reason: details.reason } : {}),
    });
  }

  /** Writes how a background command ended: stopped (and by whom) or exited on its own. */
  recordBackgroundEnd(commandId: string, command: string, state: BackgroundState): void {
    if (state.status === "stopped") {
      void this.record(commandId, "stopped", state.stoppedBy ?? "host", { command });
    } else {
      void this.record(commandId, "exited", "host", { command, exitCode: state.exitCode ?? null });
    }
  }

  /** Writes the person's undo of a command's changes, or restore of the workspace to before it. */
  recordRevert(commandId: string, command: string, kind: "undo" | "restore", text: string): void {
    void this.record(commandId, kind === "undo" ? "undone" : "restored", "person", { command, reason: text });
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

  /** Runs a change to the rules and reports how they are after it, failed or not (the file may have turned unreadable). */
  private async changingRules<T>(change: () => Promise<T>): Promise<T> {
    try {
      return await change();
    } finally {
      this.options.onRulesChanged(this.ruleState());
    }
  }

  private async record(
    commandId: string,
    event: AuditEntry["event"],
    by: AuditEntry["by"],
    extra: Partial<AuditEntry> & { command: string },
  ): Promise<void> {
    const write = this.options.audit
      .append({ at: Date.now(), sessionId: this.options.sessionId(), commandId, event, by, ...extra })
      .catch((error: unknown) => console.error(`Pi Desk: could not write the audit log: ${String(error)}`));
    this.writes.add(write);
    await write;
    this.writes.delete(write);
  }
}
