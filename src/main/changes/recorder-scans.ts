import { join } from "node:path";
import { errorMessage } from "../base/errors";
import { DEFAULT_EXCLUDES, DEFAULT_MAX_FILE_BYTES, DEFAULT_MAX_FILES } from "./defaults";
import type { DeferredBefore } from "./deferred-befores";
import { type GitCheckout, seedFromGitIndex } from "./git-index-seed";
import type { ChangeRecorderOptions } from "./recorder-types";
import { ScanTimeoutError, TooManyFilesError } from "./scan-errors";
import { GitMissingError } from "./shadow-repo";
import { type Snapshot, Snapshotter } from "./snapshot";
import type { StoredObjects } from "./stored-objects";

/**
 * When the recorder scans, and what a scan that cannot pass does to it: the first snapshot of a
 * process runs within its time limit, and it, a workspace with too many files, or git gone turns
 * recording off (with a reason that says how to turn it on); a command's before-state is a scan, or,
 * where the watcher is off, deferred to its `after`'s one scan; and a full scan runs while idle after
 * each command. The recorder's calls run these in its queue; this holds only their state.
 */

/** How long after the last command the idle full scan runs, unless the options say otherwise. */
const IDLE_FULL_SCAN_MS = 10_000;

/** The snapshotter of a recorder's workspace, as `options` ask for it, keeping its files in `dataDir`. */
export function openSnapshotter(
  workspace: string,
  objects: StoredObjects,
  options: ChangeRecorderOptions,
): Snapshotter {
  return new Snapshotter(
    workspace,
    objects,
    {
      maxFileBytes: options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES,
      maxFiles: options.maxFiles ?? DEFAULT_MAX_FILES,
    },
    options.excludes ?? DEFAULT_EXCLUDES,
    join(options.dataDir, "watch"),
    {
      statCacheFile: join(options.dataDir, "stat-cache"),
      ...(options.onProgress ? { onProgress: options.onProgress } : {}),
      ...(options.maxWatchedFolders ? { maxWatchedFolders: options.maxWatchedFolders } : {}),
      ...(options.gitCheckout
        ? { seed: () => seedFromGitIndex(workspace, options.gitCheckout as GitCheckout, options.gitBinary) }
        : {}),
    },
  );
}

/** The recorder's scans (see the module's comment); one a recorder that is on. */
export class RecorderScans {
  private firstTaken = false;
  private idleScan: NodeJS.Timeout | undefined;
  /** Commands whose before-state waits for their `after` (see `DeferredBefores.defer`). */
  private readonly deferred = new Map<string, DeferredBefore<Snapshot>>();

  constructor(
    private readonly snapshots: Snapshotter,
    /** The first snapshot's time limit (ms). */
    private readonly firstLimitMs: number,
    /** Turns recording off, for `reason` (shown to the person). */
    private readonly turnOff: (reason: string) => void,
    private readonly idleFullScanMs = IDLE_FULL_SCAN_MS,
  ) {}

  /** The before-state of command `commandId`, taken by a scan or deferred to its `after`. */
  async before(commandId: string): Promise<Snapshot> {
    if (this.firstTaken && this.snapshots.befores.canDefer) {
      // Only a full scan could tell what changed since the last one: `after`'s single scan dates
      // the changes instead (see `DeferredBefores.defer`), so a command costs one full scan, not two.
      const deferred = this.snapshots.befores.defer(Date.now());
      this.deferred.set(commandId, deferred);
      return { ...deferred.base, startedAt: deferred.start, endedAt: deferred.start };
    }
    return this.take();
  }

  /**
   * The after-state of command `commandId`, and its before-state: `before` (as `before` recorded it),
   * or, where that was deferred, completed by what this scan dated before the command's start.
   */
  async after(commandId: string, before: Snapshot): Promise<{ before: Snapshot; after: Snapshot }> {
    const deferred = this.deferred.get(commandId);
    this.deferred.delete(commandId);
    let after: Snapshot;
    try {
      after = await this.take();
    } catch (error) {
      if (deferred) this.snapshots.befores.discard(deferred);
      throw error;
    }
    return { before: deferred ? await this.snapshots.befores.complete(deferred) : before, after };
  }

  /** A snapshot, the first one of this process within its time limit; turns off on what cannot pass. */
  async take(): Promise<Snapshot> {
    const first = !this.firstTaken;
    try {
      const snapshot = await this.snapshots.scan(first ? Date.now() + this.firstLimitMs : undefined);
      this.firstTaken = true;
      return snapshot;
    } catch (error) {
      if (error instanceof TooManyFilesError || error instanceof GitMissingError || first) {
        this.turnOff(offReason(error, this.firstLimitMs));
      }
      throw error;
    }
  }

  /**
   * A full scan a while after the last command, off any command's path: it catches what the watcher
   * cannot see (see `FolderWatcher`) before the next command's `before`. `run` puts it in the queue.
   */
  scheduleIdleScan(run: (scan: () => Promise<void>) => void): void {
    clearTimeout(this.idleScan);
    this.idleScan = setTimeout(() => {
      run(async () => {
        await this.snapshots.scan(undefined, true);
      });
    }, this.idleFullScanMs);
    this.idleScan.unref();
  }

  /** Drops the idle full scan not yet started (at close). */
  cancelIdleScan(): void {
    clearTimeout(this.idleScan);
  }
}

/** Why recording is off after `error`; `firstLimitMs` when it came from the first snapshot's scan. */
export function offReason(error: unknown, firstLimitMs?: number): string {
  if (error instanceof TooManyFilesError || error instanceof GitMissingError) return error.message;
  if (firstLimitMs !== undefined && error instanceof ScanTimeoutError) {
    return (
      `Recording changes is off: the first snapshot of the workspace took too long (over ${firstLimitMs / 1000} s). ` +
      "Add its large folders to .gitignore, or allow the first snapshot more time, to turn it on."
    );
  }
  return `Recording changes is off: ${errorMessage(error)}`;
}
