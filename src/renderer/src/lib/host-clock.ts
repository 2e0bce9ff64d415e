/**
 * The host's clock as the page sees it. Every time in the host's state (when a command started, when a
 * retry is due) is the host's; with the browser host on another machine the two clocks may differ by
 * minutes, and a countdown computed on the page's clock would be off by as much. Each snapshot carries the
 * host's time, so the page keeps the difference (plus the snapshot's one-way trip, a few milliseconds).
 */
let pageAheadMs = 0;

/** A snapshot arrived, made at `hostTime` by the host's clock. */
export function syncHostClock(hostTime: number): void {
  if (Number.isFinite(hostTime)) pageAheadMs = Date.now() - hostTime;
}

/** Now, by the host's clock: what the host's times are compared with. */
export function hostNow(): number {
  return Date.now() - pageAheadMs;
}
