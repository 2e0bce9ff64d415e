import type { Stats } from "node:fs";

/**
 * What a file's timestamps vouch for, given how coarse they are: whether an entry stamped this close to
 * a scan's start can be trusted not to change again in the same tick (git's "racily clean" rule), and
 * the latest moment what stamped it can have happened. Shared by the scan and the stat cache, which
 * must draw the line in the same place.
 */

/**
 * A file whose timestamps are this close to (or after) the scan's start is hashed again next scan even
 * if its stat data has not moved: timestamps are coarse (the kernel's tick, up to 10 ms), so a second
 * write in the same tick as our read would otherwise go unseen (git's "racily clean" entries). Disks
 * that keep whole seconds only (FAT, HFS+, some network file systems) get `RACY_COARSE_MS`. Kept short:
 * a file still racy is read again at every scan, and a command that writes thousands of files would
 * have them all read again by the next command's `before` otherwise.
 */
const RACY_MS = 20;
const RACY_COARSE_MS = 2000;

/**
 * The racy window of an entry modified at `mtimeMs`: whole-second timestamps mean a disk that keeps no
 * finer ones (a finer one lands on .000 one time in 1,000).
 */
export function racyWindow(mtimeMs: number): number {
  return mtimeMs % 1000 === 0 ? RACY_COARSE_MS : RACY_MS;
}

/**
 * The latest moment (ms since the epoch, this machine's clock) at which what set `stat`'s timestamps
 * can have happened: its later timestamp plus the timestamps' granularity (the kernel stamps with a
 * clock that lags by up to a tick). Nothing known (gone): +Infinity, "just now".
 */
export function upToOf(stat: Stats | undefined): number {
  if (!stat) return Number.POSITIVE_INFINITY;
  return Math.max(stat.mtimeMs, stat.ctimeMs) + racyWindow(stat.mtimeMs);
}
