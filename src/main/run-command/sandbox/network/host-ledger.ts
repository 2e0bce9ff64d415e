import type { HostRefusal, HostTally } from "../../../../shared/network";
import type { HostDecisionEvent } from "./host-gate";

/** Each refusal in a few words, for the model's one line. */
const WHY: Record<HostRefusal, string> = {
  "not-allowed": "not allowed",
  "private-address": "resolves to a loopback or private address",
  "by-address": "an IP address; only names are allowed",
  malformed: "an unreadable request",
  "too-many": "too many connections at once",
  unreachable: "could not be reached",
  ended: "the command had ended",
};

/** Distinct hosts listed per command; the rest are counted together under `OTHER_HOSTS`. */
export const MAX_HOSTS_LISTED = 100;

/** The name the hosts past `MAX_HOSTS_LISTED` are counted under. */
export const OTHER_HOSTS = "(other hosts)";

/** A command's hosts reached and refused, from its proxy's decisions: what the card and the result show. */
export class HostLedger {
  private readonly entries = new Map<string, HostTally>();

  /** Counts one decision: a connection when opened or refused, its bytes when closed. */
  record(event: HostDecisionEvent): void {
    const allowed = event.phase !== "refused";
    let key = `${allowed ? "+" : "-"}${event.host}:${event.port}`;
    // A command trying name after name must not grow the card (and the record) without end.
    const other = !this.entries.has(key) && this.entries.size >= MAX_HOSTS_LISTED;
    if (other) key = `${allowed ? "+" : "-"}`;
    const entry = this.entries.get(key) ?? {
      host: other ? OTHER_HOSTS : event.host,
      port: other ? 0 : event.port,
      allowed,
      count: 0,
      bytesUp: 0,
      bytesDown: 0,
    };
    if (event.phase !== "closed") entry.count += 1;
    entry.bytesUp += event.bytesUp;
    entry.bytesDown += event.bytesDown;
    if (event.reason) entry.reason = event.reason;
    if (event.refusal) entry.refusal = event.refusal;
    this.entries.set(key, entry);
  }

  /** Every host so far, in the order first seen. */
  list(): HostTally[] {
    return [...this.entries.values()].map((entry) => ({ ...entry }));
  }

  /**
   * The one line the model's result ends with when hosts were refused, so it asks the user instead of
   * retrying; undefined when none were.
   */
  refusedLine(): string | undefined {
    const refused = this.list().filter((entry) => !entry.allowed);
    if (refused.length === 0) return undefined;
    const names = refused.map(
      (entry) =>
        `${entry.port ? `${entry.host}:${entry.port}` : entry.host} (${WHY[entry.refusal ?? "malformed"]})`,
    );
    const shown = names.length > 8 ? [...names.slice(0, 8), `${names.length - 8} more`] : names;
    return (
      `Network: the sandbox refused connections to ${shown.join(", ")}. Retrying will not help: ask the ` +
      "user to allow the hosts the command needs (by name), or to choose another network setting for it."
    );
  }
}
