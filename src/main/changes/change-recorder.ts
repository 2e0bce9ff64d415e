import { randomUUID } from "node:crypto";
import { realpath } from "node:fs/promises";
import { join } from "node:path";
import type { ChangeSet, CommandWindow, FileDiff, RestorePreview, RevertResult } from "../../shared/changes";
import { computeChangeSet, diffFile, pathsOfChanges, summarizeChangeSet } from "./change-set";
import { changedPaths } from "./changed-paths";
import {
  DEFAULT_DIFF_MAX_BYTES,
  DEFAULT_EXCLUDES,
  DEFAULT_FIRST_SNAPSHOT_TIMEOUT_MS,
  DEFAULT_MAX_FILE_BYTES,
} from "./defaults";
import type { WatchLimit } from "./folder-watcher";
import { type PruneResult, pruneRecords } from "./prune";
import { RecorderGate } from "./recorder-gate";
import { offReason, openSnapshotter, RecorderScans } from "./recorder-scans";
import {
  type AfterResult,
  type BeforeResult,
  type ChangeRecorderOptions,
  notRecorded,
  type RecorderState,
  refusedAll,
} from "./recorder-types";
import { overlapping, RecordStore, windowOf } from "./records";
import { ShadowRepo } from "./shadow-repo";
import type { Snapshot, Snapshotter } from "./snapshot";
import { StoredObjects } from "./stored-objects";
import { revert } from "./undo";
import { type ChainFile, previewUndoChain, undoChainNow, writeBeforeChain } from "./undo-chain";

/**
 * Records what each approved command does to the workspace, and takes it back on request. Call
 * `before(id)` just before the command starts and `after(id)` as soon as it ends; the rest reads the
 * records. Never throws for the engine's own trouble: when git is missing or the workspace too large,
 * `state` is off with the reason and every call says so, so commands still run.
 */
export class ChangeRecorder {
  /** On or off, and the queue every call runs in. */
  private readonly gate: RecorderGate;
  /** Whether `prepare` (the first snapshot) is running. */
  private preparing = false;
  private readonly previews = new Map<string, { commandId: string; now: Snapshot; changes: ChangeSet }>();
  private readonly maxFileBytes: number;
  /** The first snapshot, each command's before- and after-state, the idle full scan: while on. */
  private readonly scans: RecorderScans | undefined;

  private constructor(
    options: ChangeRecorderOptions,
    state: RecorderState,
    repo?: ShadowRepo,
    private readonly store?: RecordStore,
    private readonly snapshots?: Snapshotter,
    private readonly objects?: StoredObjects,
  ) {
    this.maxFileBytes = options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
    this.gate = new RecorderGate(state, store && repo && objects ? { store, repo, objects } : undefined);
    const firstLimitMs = options.firstSnapshotTimeoutMs ?? DEFAULT_FIRST_SNAPSHOT_TIMEOUT_MS;
    this.scans =
      snapshots &&
      new RecorderScans(
        snapshots,
        firstLimitMs,
        (reason) => this.gate.turnOff(reason),
        options.idleFullScanMs,
      );
  }

  /** Opens (or creates) the records of `options.workspace`; resolves off, never rejects, when it cannot. */
  static async open(options: ChangeRecorderOptions): Promise<ChangeRecorder> {
    try {
      const workspace = await realpath(options.workspace);
      const repo = await ShadowRepo.open({
        workspace,
        dataDir: options.dataDir,
        excludes: options.excludes ?? DEFAULT_EXCLUDES,
        ...(options.gitBinary ? { gitBinary: options.gitBinary } : {}),
        ...(options.gitTimeoutMs ? { timeoutMs: options.gitTimeoutMs } : {}),
        ...(options.gitCheckout ? { borrow: [join(options.gitCheckout.commonDir, "objects")] } : {}),
      });
      const store = await RecordStore.load(options.dataDir);
      const objects = new StoredObjects(repo);
      const snapshots = openSnapshotter(workspace, objects, options);
      return new ChangeRecorder(options, { type: "on" }, repo, store, snapshots, objects);
    } catch (error) {
      return new ChangeRecorder(options, { type: "off", reason: offReason(error) });
    }
  }

  /** Whether recording is on. */
  get state(): RecorderState {
    return this.gate.state;
  }

  /**
   * Set when the folder watcher ran out of inotify watches (a tree with more folders than the system
   * allows): each command is then recorded by a full scan; the message names the one-line fix.
   */
  get watchLimit(): WatchLimit | undefined {
    return this.snapshots?.folderWatcher.limit;
  }

  /** Files the last scan read and hashed (the rest were trusted by their stat data): 0 for a reopen with nothing changed. */
  get lastHashed(): number {
    return this.snapshots?.lastHashed ?? 0;
  }

  /**
   * Takes the first snapshot now (it stores every file, so it is the slow one): call it when the
   * workspace opens so the first command does not wait for it. Turns recording off when it takes too long.
   */
  prepare(): Promise<RecorderState> {
    this.preparing = true;
    return this.gate
      .guard(
        async () => {
          await (this.scans as RecorderScans).take();
          return this.state;
        },
        () => this.state,
      )
      .finally(() => {
        this.preparing = false;
      });
  }

  /**
   * Records the workspace just before command `commandId` starts. While the first snapshot is still
   * being taken (`prepare`), answers at once that this command goes unrecorded: an approved command
   * should not wait seconds for it.
   */
  before(commandId: string): Promise<BeforeResult> {
    if (this.preparing) {
      return Promise.resolve(
        notRecorded(
          "The first snapshot of the workspace is still being taken; this command runs unrecorded.",
        ),
      );
    }
    return this.gate.guard<BeforeResult>(async (store) => {
      const before = await (this.scans as RecorderScans).before(commandId);
      store.save({ commandId, before });
      return { recorded: true, startedAt: before.startedAt };
    }, notRecorded);
  }

  /**
   * Records the workspace just after command `commandId` ended, and returns what it changed. For a
   * command that edits, adds or deletes a few files this starts no git process (see `Snapshotter` and
   * `changesInProcess`).
   */
  after(commandId: string): Promise<AfterResult> {
    return this.gate.guard<AfterResult>(async (store, repo, objects) => {
      const stored = store.get(commandId);
      if (!stored)
        return { recorded: false, reason: `No before-state was recorded for command ${commandId}.` };
      const { before, after } = await (this.scans as RecorderScans).after(commandId, stored.before);
      // A before-state deferred to this scan is completed by it (see `RecorderScans.after`).
      const record = before === stored.before ? stored : { ...stored, before };
      const changes = await computeChangeSet(repo, objects, record.before, after);
      store.save({ commandId, before: record.before, after });
      // Next in the queue, so before any later call; every call flushes first anyway (see
      // `RecorderGate.guard`). A failure here (a full disk) is met again, and reported, by the next
      // call's flush.
      void this.gate.serial(() => objects.flushTrees()).catch(() => {});
      (this.scans as RecorderScans).scheduleIdleScan((scan) => void this.gate.guard(scan, () => {}));
      return {
        recorded: true,
        changes,
        summary: summarizeChangeSet(changes),
        overlapping: overlapping(store.get(commandId) ?? record, store.list()),
      };
    }, notRecorded);
  }

  /** The change set of a finished command, or undefined when there is no complete record of it. */
  changeSet(commandId: string): Promise<ChangeSet | undefined> {
    return this.gate.guard(
      async (store, repo, objects) => {
        const record = store.get(commandId);
        return record?.after ? computeChangeSet(repo, objects, record.before, record.after) : undefined;
      },
      () => undefined,
      false,
    );
  }

  /** The unified diff of `path` in a command's change set, at most `maxBytes` (256 KiB by default). */
  diff(commandId: string, path: string, maxBytes = DEFAULT_DIFF_MAX_BYTES): Promise<FileDiff> {
    const none = (note: string): FileDiff => ({ path, text: "", truncated: false, note });
    return this.gate.guard(async (store, repo, objects) => {
      const record = store.get(commandId);
      if (!record?.after) return none(`No complete record of command ${commandId}.`);
      const changes = await computeChangeSet(repo, objects, record.before, record.after);
      const file = changes.files.find((candidate) => candidate.path === path);
      if (!file) return none(`${path} is not among the files command ${commandId} changed.`);
      return diffFile(repo, record.before, record.after, file, maxBytes);
    }, none);
  }

  /** When `commandId` ran, and the commands that ran at the same time, for the card to name them. */
  windows(commandId: string): { window: CommandWindow; overlapping: CommandWindow[] } | undefined {
    const record = this.store?.get(commandId);
    return record && this.store
      ? { window: windowOf(record), overlapping: overlapping(record, this.store.list()) }
      : undefined;
  }

  /** Whether a record of `commandId` is kept (it may be dropped to fit the budget). */
  has(commandId: string): boolean {
    return this.store?.get(commandId) !== undefined;
  }

  /** Every kept record's window, oldest first. */
  commands(): CommandWindow[] {
    return this.store?.list().map(windowOf) ?? [];
  }

  /**
   * Takes back what command `commandId` did: every file it changed goes back to its before-state.
   * Files changed since its after-state are conflicts unless named in `undoAnyway`.
   */
  undo(commandId: string, undoAnyway: readonly string[] = []): Promise<RevertResult> {
    return this.gate.guard(async (store, repo, objects) => {
      const record = store.get(commandId);
      if (!record?.after) return refusedAll(`No complete record of command ${commandId}: nothing to undo.`);
      const paths = await changedPaths(repo, objects, record);
      return this.putBack(repo, record.after, record.before, paths, undoAnyway);
    }, refusedAll);
  }

  /** Lists every file that would change to bring the workspace back to its state before `commandId`. */
  previewRestore(commandId: string): Promise<RestorePreview | undefined> {
    return this.gate.guard(
      async (store, repo, objects) => {
        const record = store.get(commandId);
        if (!record) return undefined;
        const now = await (this.scans as RecorderScans).take();
        const changes = await computeChangeSet(repo, objects, now, record.before);
        const previewId = randomUUID();
        this.previews.set(previewId, { commandId, now, changes });
        // Previews are short-lived: keep the few latest.
        for (const old of [...this.previews.keys()].slice(0, -8)) this.previews.delete(old);
        return { previewId, commandId, changes };
      },
      () => undefined,
      false,
    );
  }

  /**
   * Applies a preview: every file it listed goes back to the command's before-state. A file changed
   * since the preview is a conflict unless named in `undoAnyway`.
   */
  restore(previewId: string, undoAnyway: readonly string[] = []): Promise<RevertResult> {
    return this.gate.guard(async (store, repo) => {
      const preview = this.previews.get(previewId);
      const record = preview && store.get(preview.commandId);
      if (!preview || !record)
        return refusedAll("That preview is no longer known: preview the restore again.");
      const paths = pathsOfChanges(preview.changes);
      const result = await this.putBack(repo, preview.now, record.before, paths, undoAnyway);
      // Kept while it left conflicts: "undo anyway" applies it again (what it put back counts as done).
      if (result.conflicts.length === 0) this.previews.delete(previewId);
      return result;
    }, refusedAll);
  }

  /**
   * What undoing the commands `commandIds` (newest first: a chat's rewind) would do to each file they
   * changed, without touching any (see `previewUndoChain`). Commands without a complete record are skipped:
   * the caller names them as not recorded.
   */
  previewUndoChain(commandIds: readonly string[], redoIds: readonly string[] = []): Promise<ChainFile[]> {
    return this.gate.guard(
      async (store, repo, objects) => {
        const chain = store.complete(commandIds);
        const redo = store.complete(redoIds);
        const ids = new Set([...commandIds, ...redoIds]);
        const others = store.list().filter((record) => !ids.has(record.commandId));
        return previewUndoChain(repo, objects, chain, others, this.maxFileBytes, redo);
      },
      () => [],
      false,
    );
  }

  /**
   * Undoes the commands `commandIds`, newest first, then plays `redoIds` again, oldest first (a branch
   * switch), in one turn of the queue (no scan comes between).
   */
  undoChain(commandIds: readonly string[], redoIds: readonly string[] = []): Promise<RevertResult[]> {
    return this.gate.guard(
      (store, repo, objects) =>
        undoChainNow(repo, objects, store.complete(commandIds), this.maxFileBytes, store.complete(redoIds)),
      (reason) => [refusedAll(reason)],
    );
  }

  /**
   * Writes into another folder `target` (a fork's new worktree) each file the commands `commandIds` (oldest
   * first) changed, as it was before the oldest of them; this recorder's folder is not touched.
   */
  writeBefore(commandIds: readonly string[], target: string): Promise<RevertResult> {
    return this.gate.guard(
      (store, repo, objects) => writeBeforeChain(repo, objects, store.complete(commandIds), target),
      refusedAll,
    );
  }

  /**
   * Puts every file back as it was in `commandId`'s before-state, whatever changed since (a rewind that a
   * crash cut short: only it changed them while the host was down).
   */
  rollBack(commandId: string): Promise<RevertResult> {
    return this.gate.guard(async (store, repo, objects) => {
      const record = store.get(commandId);
      if (!record) return refusedAll(`No record of ${commandId}: nothing to roll back.`);
      const now = await (this.scans as RecorderScans).take();
      const changes = await computeChangeSet(repo, objects, now, record.before);
      const every = pathsOfChanges(changes);
      return this.putBack(repo, now, record.before, every, every);
    }, refusedAll);
  }

  /** Puts `paths` back from `from` to `to` (see `revert`), with this recorder's size limit. */
  private putBack(
    repo: ShadowRepo,
    from: Snapshot,
    to: Snapshot,
    paths: readonly string[],
    undoAnyway: readonly string[],
  ): Promise<RevertResult> {
    return revert(repo, {
      from,
      to,
      paths,
      undoAnyway: new Set(undoAnyway),
      maxFileBytes: this.maxFileBytes,
    });
  }

  /** Writes the records and the trees they name to disk now (before a journal names one of them). */
  flushRecords(): Promise<void> {
    return this.gate.guard(
      (store) => store.flush(),
      () => {},
    );
  }

  /** Whether `commandId` has a complete record (its before- and after-state): its changes can be undone. */
  complete(commandId: string): boolean {
    return this.store?.get(commandId)?.after !== undefined;
  }

  /** Bytes the records take on disk (the shadow repository's objects). */
  usage(): Promise<number> {
    return this.gate.guard(
      (_store, repo) => repo.sizeBytes(),
      () => 0,
      false,
    );
  }

  /** Drops the oldest records until the shadow repository fits in `budgetBytes`. */
  prune(budgetBytes: number): Promise<PruneResult> {
    const nothing = () => ({ dropped: [], bytesBefore: 0, bytesAfter: 0 });
    return this.gate.guard(
      async (store, repo) => {
        const snapshots = this.snapshots as Snapshotter;
        const result = await pruneRecords(
          repo,
          store,
          budgetBytes,
          snapshots.current ? [snapshots.current] : [],
        );
        snapshots.forgetStored();
        return result;
      },
      nothing,
      false,
    );
  }

  /** Waits for the calls in flight; the records stay on disk for the next `open`. */
  async close(): Promise<void> {
    this.scans?.cancelIdleScan();
    await this.gate.drain();
    await this.store?.flush();
    try {
      // The trees the last scans kept in memory, then the stat data of the last one (the cache names
      // its tree, and is trusted only where that tree is stored): the next process hashes less again.
      await this.objects?.flushTrees();
      await this.snapshots?.saveCache();
    } catch {
      // A full disk: the next process hashes again, slower but right.
    }
    this.snapshots?.close();
  }
}
