import type { AuditEntry } from "../../shared/rules";
import type { AuditLog } from "./audit-log";
import { describeRule } from "./rule-patterns";
import type { TableMiss } from "./rule-table";

/**
 * Puts on record, once per rule, that a rule saved before the argument table did not let a command run
 * because of the table: the person sees the change in History, not just on one card.
 */
export class NarrowedLog {
  /** Rules already on record (or being written), so concurrent misses in one conversation write one line. */
  private readonly logged = new Set<string>();

  constructor(private readonly audit: AuditLog) {}

  /** The audit entry to write for this miss, or undefined when it is not a saved rule's first. */
  async firstMiss(
    miss: TableMiss,
    command: string,
  ): Promise<Pick<AuditEntry, "command" | "rule" | "reason"> | undefined> {
    if (!miss.rule.narrowed || this.logged.has(miss.rule.id)) return undefined;
    this.logged.add(miss.rule.id);
    const rule = describeRule(miss.rule);
    // Another conversation, or an earlier run of the app, may have written it already.
    const earlier = await this.audit.read({ query: rule, limit: Number.MAX_SAFE_INTEGER });
    if (earlier.some((entry) => entry.event === "narrowed" && entry.rule === rule)) return undefined;
    return {
      command,
      rule,
      reason: `The rule, saved before Pi Desk's argument table, no longer covers this: ${miss.why}. The person was asked instead.`,
    };
  }
}
