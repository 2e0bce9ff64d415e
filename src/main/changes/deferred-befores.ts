import type { StoredObjects } from "./stored-objects";
import { applyTreeEdits, type TreeEdit } from "./tree-edits";
import type { ChangeSeen } from "./workspace-scan";

/**
 * A command's before-state taken without a scan, when a scan could only be a full one (the watcher is
 * off): the last scan's snapshot, corrected at the command's end by what later scans found changed
 * and can date to before the command's start (see `DeferredBefores.defer`).
 */
export interface DeferredBefore<S extends SnapshotLike = SnapshotLike> {
  /** The last scan's snapshot when the command started. */
  base: S;
  /** When the command started (ms since the epoch): a change made no later than this is before it. */
  start: number;
  /** Changes dated before `start`, by path: the before-state has them. */
  edits: Map<string, TreeEdit>;
  /** Paths changed at or after `start` (or at a time not known): the before-state keeps `base`'s. */
  during: Set<string>;
  /** Set when the scans' state was thrown away meanwhile: the before-state is `base` as it is. */
  broken: boolean;
}

/** What of a snapshot this needs (the snapshot's own module uses this one: no cycle). */
export interface SnapshotLike {
  /** Its git tree. */
  tree: string;
  /** When its scan began. */
  startedAt: number;
  /** When its tree was written. */
  endedAt: number;
}

/** At most this many deferred before-states are kept open (a caller that never calls `after`). */
const MAX_DEFERRED = 32;

/**
 * The deferred before-states still open, and how each change a scan finds is dated into them: one
 * made before a command's start joins its before-state, any other stays the command's (its path is
 * then never dated before the start again, since later timestamps only grow). The `Snapshotter` holds
 * one (`befores`) and tells it each change its scans find while any is open.
 */
export class DeferredBefores<S extends SnapshotLike> {
  private readonly open = new Set<DeferredBefore<S>>();

  constructor(
    private readonly objects: StoredObjects,
    /** The last scan's snapshot where a before-state may be deferred now, else undefined. */
    private readonly deferrable: () => S | undefined,
  ) {}

  /**
   * Whether a before-state may be taken without a scan (`defer`): the watcher is off, so a scan now
   * would read every file, and a whole state is in memory to start from.
   */
  get canDefer(): boolean {
    return this.deferrable() !== undefined;
  }

  /** Whether any is open (a scan then tells its changes, see `date`). */
  get size(): number {
    return this.open.size;
  }

  /**
   * A command's before-state without a scan, for a command starting now (`start`): where only full
   * scans can see changes, this saves one of the two per command (1.5 s at 300,000 files). The state
   * is the last scan's; every scan until `complete` dates what it finds changed by the file's and its
   * folder's timestamps, and a change made before `start` joins the before-state. What cannot be
   * dated before the start is the command's, as a change made meanwhile by anyone else would be with
   * a scan at the start too; the one difference: a file changed since the last scan and changed again
   * by the command shows both changes on the command's card. Only while `canDefer`; the oldest open
   * past `MAX_DEFERRED` are broken.
   */
  defer(start: number): DeferredBefore<S> {
    const base = this.deferrable();
    if (!base) throw new Error("No before-state can be deferred now: take it with a scan.");
    const deferred: DeferredBefore<S> = { base, start, edits: new Map(), during: new Set(), broken: false };
    this.open.add(deferred);
    for (const old of [...this.open].slice(0, -MAX_DEFERRED)) this.discard(old);
    return deferred;
  }

  /** Dates a change a scan found into each open before-state. */
  date(change: ChangeSeen): void {
    for (const deferred of this.open) {
      if (deferred.broken || deferred.during.has(change.path)) continue;
      if (change.upTo < deferred.start) {
        deferred.edits.set(change.path, change.node && { mode: change.node.mode, oid: change.node.oid });
      } else deferred.during.add(change.path);
    }
  }

  /** Closes `deferred` and returns its before-state: the base with the changes dated before its start. */
  async complete(deferred: DeferredBefore<S>): Promise<S> {
    this.open.delete(deferred);
    const { base, start } = deferred;
    const tree = deferred.broken ? base.tree : await applyTreeEdits(this.objects, base.tree, deferred.edits);
    return { ...base, tree: tree ?? base.tree, startedAt: start, endedAt: start };
  }

  /** Closes `deferred` without a before-state of its own (its command's end could not be recorded). */
  discard(deferred: DeferredBefore<S>): void {
    deferred.broken = true;
    this.open.delete(deferred);
  }

  /** The scans' state was thrown away: no change can be dated from the next scan, which finds all new. */
  breakAll(): void {
    for (const deferred of this.open) deferred.broken = true;
  }
}
