/**
 * The host's clock as the page sees it. Every time in the host's state (when a command started, when a
 * retry is due) is the host's; with the browser host on another machine the two clocks may differ by
 * minutes, and a countdown computed on the page's clock would be off by as much. Each snapshot carries the
 * host's time, so the page keeps the difference.
 */
let pageAheadMs = 0;

/**
 * Below this the clocks are taken as the same: the measure includes the snapshot's trip, and on one
 * machine (the desktop app, a local browser host) that trip would make a 30 s countdown start at 31 s.
 */
const SAME_CLOCK_MS = 1000;

/** A snapshot arrived, made at `hostTime` by the host's clock. */
export function syncHostClock(hostTime: number): void {
  if (!Number.isFinite(hostTime)) return;
  const ahead = Date.now() - hostTime;
  pageAheadMs = Math.abs(ahead) < SAME_CLOCK_MS ? 0 : ahead;
}

/** Now, by the host's clock: what the host's times are compared with. */
export function hostNow(): number {
  return Date.now() - pageAheadMs;
}
