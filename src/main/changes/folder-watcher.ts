import { type FSWatcher, mkdirSync, readFileSync, utimesSync, watch, writeFileSync } from "node:fs";
import { basename, join } from "node:path";

/**
 * Watch no more folders than this share of the user's inotify watches (`max_user_watches`, shared
 * with editors and other watchers): full scans past it. 8,192 on a system's default of 8,192 would leave
 * editors nothing, so at most half, and at least 4,096 where the limit is not known.
 */
const WATCH_SHARE = 0.5;
const MIN_FOLDERS = 4096;
/** The kernel setting that bounds inotify watches per user. */
export const MAX_USER_WATCHES_FILE = "/proc/sys/fs/inotify/max_user_watches";

/** Why the watcher does not watch the whole workspace, for Settings (with the fix). */
export interface WatchLimit {
  /** Folders the workspace has (recorded ones) when the watcher gave up: at least this many. */
  folders: number;
  /** The user's inotify watches (`max_user_watches`); undefined where it cannot be read. */
  maxUserWatches: number | undefined;
  /** The message for Settings, with the one-line fix. */
  message: string;
}
/** The file `settle` touches in the engine's own folder. */
const BARRIER_FILE = "barrier";
/** A barrier event that takes longer than this means the watcher cannot be trusted: full scans from then. */
const BARRIER_TIMEOUT_MS = 2000;

/** What the watcher saw since it was last asked. */
export interface WatchReport {
  /** Folders (relative, `""` or ending in `/`) in which something was created, written, moved or deleted. */
  dirty: Set<string>;
  /** Whether events may have been lost (or watching is off): scan every folder. */
  incomplete: boolean;
}

/**
 * Tells which folders changed since the last scan, so a scan can skip the lstat of every file in the
 * others: that pass is most of a scan's cost (about 80 ms for 20,000 files here, twice per command).
 * One `fs.watch` (inotify on Linux) per recorded folder, none in ignored ones.
 *
 * It only narrows a scan when it can be sure it saw everything:
 * - `settle` waits until every event queued before it was delivered: it touches a file in a folder of
 *   the engine's own, watched through the same inotify queue (libuv keeps one per process), and waits
 *   for that event, which the kernel queued after everything the command did;
 * - inotify drops events when its queue overflows, and libuv drops the overflow notice; but a queue
 *   overflows only when it holds `max_queued_events` (16,384 by default) unread, and those are then
 *   delivered, so many events since the last scan mean "maybe lost": the scan is then a full one;
 * - a watch that cannot be added (the per-user limit), a barrier that does not arrive, or platforms
 *   where `fs.watch` is not per folder (only Linux is trusted here) turn narrowing off.
 * What inotify cannot see at all (writes through a memory map, another machine writing a network
 * disk) is caught by the full scans the recorder takes while idle (see `ChangeRecorder`).
 */
export class FolderWatcher {
  private readonly watchers = new Map<string, FSWatcher>();
  /**
   * How many watched folders are at or under each folder (by path, `""` the root): `unwatch` of a
   * folder with none under it returns at once. A first scan calls it for each new folder (30,000 in
   * a big tree), and a walk over every watch each time grew with the square of the folders.
   */
  private readonly watchedUnder = new Map<string, number>();
  /** Watched folders that were deleted or moved since: to watch again. */
  private readonly stale = new Set<string>();
  private dirty = new Set<string>();
  private events = 0;
  private broken: boolean;
  private readonly maxEvents: number;
  private barrier: FSWatcher | undefined;
  /** Callers of `settle` waiting for their barrier event, oldest first. */
  private readonly waiting: (() => void)[] = [];
  private readonly barrierFile: string;
  private readonly maxFolders: number;
  private readonly maxUserWatches: number | undefined;
  /** Set when the watcher gave up for want of watches: why, for Settings. */
  limit: WatchLimit | undefined;

  constructor(
    private readonly workspace: string,
    private readonly barrierDir: string,
    maxFolders?: number,
    watchesFile = MAX_USER_WATCHES_FILE,
  ) {
    this.maxUserWatches = readNumber(watchesFile);
    this.maxFolders =
      maxFolders ?? Math.max(MIN_FOLDERS, Math.floor((this.maxUserWatches ?? 0) * WATCH_SHARE));
    this.barrierFile = join(barrierDir, BARRIER_FILE);
    this.broken = process.platform !== "linux";
    this.maxEvents = Math.min(4096, Math.floor(queueLimit() / 4));
    if (!this.broken) this.openBarrier();
  }

  /** Starts watching folder `rel` (if not already): call before reading it, so no change falls between. */
  watch(rel: string): void {
    if (this.broken) return;
    if (this.stale.delete(rel)) this.unwatch(rel);
    if (this.watchers.has(rel)) return;
    if (this.watchers.size >= this.maxFolders) {
      this.tooMany();
      return;
    }
    try {
      const path = rel === "" ? this.workspace : join(this.workspace, rel.slice(0, -1));
      const self = basename(path);
      const watcher = watch(path, { persistent: false }, (_type, name) => {
        this.events++;
        this.dirty.add(rel);
        // The folder itself was deleted or moved (libuv then names it, or gives no name): this watch
        // follows the old inode, and a folder made in its place (which may even get the same inode
        // number) is not watched by it. Watch again at its next scan; a child of the same name costs
        // a needless re-watch, nothing more.
        if (!name || String(name) === self) this.stale.add(rel);
      });
      // A folder deleted or replaced: its parent saw that too; this watch is dead, drop it.
      watcher.on("error", () => this.unwatch(rel));
      this.watchers.set(rel, watcher);
      this.countUnder(rel, 1);
    } catch (error) {
      // ENOSPC: the user's inotify watches are used up (by us and by every other watcher of the user).
      if ((error as NodeJS.ErrnoException).code === "ENOSPC") this.tooMany();
      else this.giveUp();
    }
  }

  /** Stops watching `rel` and every folder under it (deleted, ignored now, or replaced by another). */
  unwatch(rel: string): void {
    if (!this.watchedUnder.has(rel)) return;
    for (const [path, watcher] of this.watchers) {
      if (path.startsWith(rel)) {
        watcher.close();
        this.watchers.delete(path);
        this.countUnder(path, -1);
      }
    }
  }

  /** Adds `by` to the count of watched folders of `rel` and of each folder above it. */
  private countUnder(rel: string, by: number): void {
    // `rel` is "" or ends in "/": its folders above are the prefixes that end in "/", and "".
    for (let end = rel.length; end >= 0; end = end === 0 ? -1 : rel.lastIndexOf("/", end - 2) + 1) {
      const up = rel.slice(0, end);
      const count = (this.watchedUnder.get(up) ?? 0) + by;
      if (count > 0) this.watchedUnder.set(up, count);
      else this.watchedUnder.delete(up);
    }
  }

  /**
   * Waits until every event the kernel queued before this call has been delivered. Calls must not
   * overlap (the recorder runs one scan at a time): inotify merges an event identical to the one still
   * unread before it, so two touches in a row could come back as one; a waiter left without its event
   * times out, and watching is then off (safe, only slower).
   */
  async settle(): Promise<void> {
    if (this.broken || !this.barrier) return;
    const arrived = new Promise<void>((resolve) => this.waiting.push(resolve));
    // A timer that holds the process open: the watches do not (persistent: false), and a caller with
    // nothing else pending would otherwise see its process exit mid-scan.
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, BARRIER_TIMEOUT_MS);
    });
    const now = new Date();
    try {
      utimesSync(this.barrierFile, now, now); // one syscall, one IN_ATTRIB event
    } catch {
      this.giveUp();
      return;
    }
    const inTime = await Promise.race([arrived.then(() => true), late.then(() => false)]);
    clearTimeout(timer);
    if (!inTime) this.giveUp();
  }

  /** The folders changed since the last call, and whether the report may be missing some. */
  take(): WatchReport {
    const report = { dirty: this.dirty, incomplete: this.broken || this.events > this.maxEvents };
    this.dirty = new Set();
    this.events = 0;
    return report;
  }

  /** Whether watching is on at all. */
  get watching(): boolean {
    return !this.broken;
  }

  /** Stops watching; a scan after this is a full one (nothing tells it what changed any more). */
  close(): void {
    this.broken = true;
    this.unwatch("");
    this.barrier?.close();
    this.barrier = undefined;
  }

  private openBarrier(): void {
    try {
      mkdirSync(this.barrierDir, { recursive: true });
      writeFileSync(this.barrierFile, "");
      this.barrier = watch(this.barrierDir, { persistent: false }, (_type, name) => {
        if (name === null || String(name) !== BARRIER_FILE) return;
        this.waiting.shift()?.();
      });
      this.barrier.on("error", () => this.giveUp());
    } catch {
      this.giveUp();
    }
  }

  /** Out of watches: full scans from now on, and Settings says why and how to raise the limit. */
  private tooMany(): void {
    if (!this.broken) this.limit = watchLimit(this.watchers.size + 1, this.maxUserWatches);
    this.giveUp();
  }

  private giveUp(): void {
    this.broken = true;
    this.close();
  }
}

/**
 * The message for a workspace with more folders than the watcher may watch: each command's changes are
 * then found by a full scan (slower on a big tree), and the fix is one line. The new limit asked for
 * leaves room for editors (the watcher takes at most half) and for the tree to grow.
 */
export function watchLimit(folders: number, maxUserWatches: number | undefined): WatchLimit {
  const wanted = Math.max(524_288, 2 ** Math.ceil(Math.log2(folders * 4)));
  const now =
    maxUserWatches === undefined
      ? ""
      : ` (fs.inotify.max_user_watches is ${maxUserWatches.toLocaleString("en")})`;
  return {
    folders,
    maxUserWatches,
    message:
      `The workspace has more folders (at least ${folders.toLocaleString("en")}) than the system lets Pi Desk ` +
      `watch${now}, so each command's changes are found by scanning the whole workspace, which is slower. ` +
      `To raise the limit, run: echo fs.inotify.max_user_watches=${wanted} | sudo tee /etc/sysctl.d/60-pi-desk.conf && sudo sysctl --system` +
      " (then reopen the workspace).",
  };
}

/** The kernel's inotify queue length (events beyond it are dropped), 16,384 unless configured. */
function queueLimit(): number {
  return readNumber("/proc/sys/fs/inotify/max_queued_events") ?? 16_384;
}

/** A number in a file of /proc, or undefined where it cannot be read (another OS). */
function readNumber(file: string): number | undefined {
  try {
    return Number(readFileSync(file, "utf8").trim()) || undefined;
  } catch {
    return undefined;
  }
}
