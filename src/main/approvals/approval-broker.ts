import { randomUUID } from "node:crypto";

/** How a wait ends: with what the person decided, or `cancelled` when the turn stopped first. */
export type BrokerOutcome<D> = { kind: "decided"; decision: D } | { kind: "cancelled" };

/** A pending request taken by one decision: only its holder may resolve it, or hand it back. */
export interface Claim<S, D> {
  /** What waits (the gate's subject: a command, a file edit). */
  subject: S;
  /** Resolves the wait with the decision. */
  resolve(decision: D): void;
  /** Hands the request back to waiting (the decision failed before it took effect). */
  release(): void;
}

interface Pending<S, D> {
  subject: S;
  settle: (outcome: BrokerOutcome<D>) => void;
  signal: AbortSignal | undefined;
  onAbort: () => void;
}

/**
 * Holds the requests waiting for the person. Each gets an id the host issues; a decision must claim a
 * pending id, synchronously and once: an unknown, already claimed or expired (cancelled) id is refused, so
 * two decisions sent together, or a stale or replayed one, can never both take effect.
 */
export class ApprovalBroker<S, D> {
  private readonly pending = new Map<string, Pending<S, D>>();

  /** Registers a request as waiting; resolves with the decision, or `cancelled` when `signal` aborts first. */
  wait(
    subject: S,
    signal: AbortSignal | undefined,
  ): { approvalId: string; outcome: Promise<BrokerOutcome<D>> } {
    const approvalId = randomUUID();
    const outcome = new Promise<BrokerOutcome<D>>((resolve) => {
      if (signal?.aborted) return resolve({ kind: "cancelled" });
      const entry: Pending<S, D> = {
        subject,
        signal,
        settle: resolve,
        onAbort: () => this.cancel(approvalId),
      };
      this.pending.set(approvalId, entry);
      signal?.addEventListener("abort", entry.onAbort, { once: true });
    });
    return { approvalId, outcome };
  }

  /**
   * Takes a pending request for one decision, before anything is awaited: from here on no other decision,
   * and no Stop, can answer it. Throws with what to do when it is not pending.
   */
  claim(approvalId: string): Claim<S, D> {
    const entry = this.pending.get(approvalId);
    if (!entry) {
      throw new Error(
        `Nothing is waiting under approval id "${approvalId}": it was already decided, cancelled, or never ` +
          "issued. Refresh to see what waits.",
      );
    }
    this.pending.delete(approvalId);
    entry.signal?.removeEventListener("abort", entry.onAbort);
    let done = false;
    return {
      subject: entry.subject,
      resolve: (decision) => {
        if (done) return;
        done = true;
        entry.settle({ kind: "decided", decision });
      },
      release: () => {
        if (done) return;
        done = true;
        // Stopped while the decision was being made: the request ends as if the stop came first.
        if (entry.signal?.aborted) return entry.settle({ kind: "cancelled" });
        this.pending.set(approvalId, entry);
        entry.signal?.addEventListener("abort", entry.onAbort, { once: true });
      },
    };
  }

  /** What waits under an id, without claiming it; undefined when nothing does. */
  peek(approvalId: string): S | undefined {
    return this.pending.get(approvalId)?.subject;
  }

  /** Resolves every pending request as cancelled (the turn stopped, the session closed). */
  cancelAll(): void {
    for (const approvalId of [...this.pending.keys()]) this.cancel(approvalId);
  }

  /** How many wait. */
  get size(): number {
    return this.pending.size;
  }

  private cancel(approvalId: string): void {
    const entry = this.pending.get(approvalId);
    if (!entry) return;
    this.pending.delete(approvalId);
    entry.signal?.removeEventListener("abort", entry.onAbort);
    entry.settle({ kind: "cancelled" });
  }
}
