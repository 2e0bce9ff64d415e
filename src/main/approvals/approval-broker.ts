import { randomUUID } from "node:crypto";
import type { ApprovalDecision } from "../../shared/commands";

/** What a pending approval resolves to: the person's decision, or cancelled when the turn stopped. */
export type ApprovalOutcome = ApprovalDecision | { kind: "cancelled" };

interface Pending {
  commandId: string;
  resolve: (outcome: ApprovalOutcome) => void;
}

/**
 * Holds the commands waiting for the person. Each gets an id the host issues; a decision must name a
 * pending id, once: an unknown, already decided or expired (cancelled) id is refused, so a stale or
 * replayed decision can never run anything.
 */
export class ApprovalBroker {
  private readonly pending = new Map<string, Pending>();

  /** Registers a command as waiting; resolves with the decision, or `cancelled` when `signal` aborts. */
  wait(
    commandId: string,
    signal: AbortSignal | undefined,
  ): { approvalId: string; outcome: Promise<ApprovalOutcome> } {
    const approvalId = randomUUID();
    const outcome = new Promise<ApprovalOutcome>((resolve) => {
      const settle = (value: ApprovalOutcome) => {
        signal?.removeEventListener("abort", onAbort);
        this.pending.delete(approvalId);
        resolve(value);
      };
      const onAbort = () => settle({ kind: "cancelled" });
      if (signal?.aborted) return settle({ kind: "cancelled" });
      signal?.addEventListener("abort", onAbort, { once: true });
      this.pending.set(approvalId, { commandId, resolve: settle });
    });
    return { approvalId, outcome };
  }

  /** The command a pending id belongs to; throws with what to do when it is not pending. */
  commandOf(approvalId: string): string {
    const entry = this.pending.get(approvalId);
    if (!entry) {
      throw new Error(
        `No command is waiting under approval id "${approvalId}": it was already decided, cancelled, or never ` +
          "issued. Refresh to see the commands that wait.",
      );
    }
    return entry.commandId;
  }

  /** Delivers the person's decision; refused unless the id is pending. */
  decide(approvalId: string, decision: ApprovalDecision): void {
    this.commandOf(approvalId);
    this.pending.get(approvalId)?.resolve(decision);
  }

  /** Resolves every pending approval as cancelled (the turn stopped, the session closed). */
  cancelAll(): void {
    for (const entry of [...this.pending.values()]) entry.resolve({ kind: "cancelled" });
  }

  /** How many wait. */
  get size(): number {
    return this.pending.size;
  }
}
