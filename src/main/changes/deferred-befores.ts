import type { StoredObjects } from "./stored-objects";
import { applyTreeEdits, type TreeEdit } from "./tree-edits";
import type { ChangeSeen } from "./workspace-scan";

/**
 * A command's before-state taken without a scan, when a scan could only be a full one (the watcher is
 * off): the last scan's snapshot, corrected at the command's end by what later scans found changed
 * and can date to before the command's start (see `Snapshotter.deferBefore`).
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
 * then never dated before the start again, since later timestamps only grow).
 */
export class DeferredBefores<S extends SnapshotLike> {
  private readonly open = new Set<DeferredBefore<S>>();

  /** Whether any is open (a scan then tells its changes, see `date`). */
  get size(): number {
    return this.open.size;
  }

  /** Opens one from `base` for a command starting at `start`; the oldest past `MAX_DEFERRED` are broken. */
  add(base: S, start: number): DeferredBefore<S> {
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
  async complete(objects: StoredObjects, deferred: DeferredBefore<S>): Promise<S> {
    this.open.delete(deferred);
    const { base, start } = deferred;
    const tree = deferred.broken ? base.tree : await applyTreeEdits(objects, base.tree, deferred.edits);
    return { ...base, tree: tree ?? base.tree, startedAt: start, endedAt: start };
  }

  /** Closes `deferred` without a before-state of its own (its base stands). */
  discard(deferred: DeferredBefore<S>): void {
    deferred.broken = true;
    this.open.delete(deferred);
  }

  /** The scans' state was thrown away: no change can be dated from the next scan, which finds all new. */
  breakAll(): void {
    for (const deferred of this.open) deferred.broken = true;
  }
}
