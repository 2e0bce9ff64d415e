import { readFile, rename, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { ChangesState } from "../../shared/changes";
import { ChangeRecorder } from "./change-recorder";
import { DEFAULT_EXCLUDES, DEFAULT_MAX_FILE_BYTES } from "./defaults";
import type { ChangeRecorderOptions } from "./recorder-types";

/**
 * The most one workspace's history of commands takes on disk (1 GiB) before the oldest records are
 * dropped: on top of the copy of the workspace's current files, which is kept whatever the budget.
 */
export const DEFAULT_RECORDS_BUDGET_BYTES = 1024 * 1024 * 1024;

/** The file in the data folder that keeps the copy's size (see `ChangeRecords`) for the next open. */
const COPY_FILE = "copy-bytes";

/** How long after a command's record the disk figures are read again: one read for a burst of commands. */
const SETTLE_MS = 2_000;

/** How one workspace's records are kept. */
export interface ChangeRecordsOptions extends ChangeRecorderOptions {
  /**
   * The most the history of commands takes on disk, on top of the copy of the workspace's current
   * files; the oldest records are dropped past it. `DEFAULT_RECORDS_BUDGET_BYTES` by default.
   */
  budgetBytes?: number;
  /** Called with the new figures when recording turns on or off, or the records grew or were pruned. */
  onState?: (state: ChangesState) => void;
  /** Called with the commands whose records were dropped to fit the budget: they can no longer be undone. */
  onDropped?: (commandIds: string[]) => void;
}

/**
 * One workspace's change records: its recorder (one per data folder: two recorders on one shadow
 * repository would race for its index), kept within a disk budget, with the figures Settings shows.
 * `open` takes the first snapshot in the background, so the workspace opens at once.
 *
 * The budget is for the history, not for the copy of the workspace's current files that recording
 * needs in any case (and a prune keeps): a 300,000-file repository's copy takes about 3 GB, past any
 * fixed budget, and counting it made such a workspace prune (a `git gc` of gigabytes) after every
 * command and keep no history at all. The copy's size is measured when no record is kept (after the
 * first snapshot, or a prune that dropped them all) and kept in the data folder; the records may take
 * the copy plus the budget, and Settings shows both.
 */
export class ChangeRecords {
  private figures: ChangesState;
  /** Bytes of the copy of the workspace's current files (0 until measured). */
  private copyBytes = 0;
  private readonly historyBudget: number;
  private settleTimer: NodeJS.Timeout | undefined;
  private closed = false;
  /** Settles once the first snapshot was taken (or failed and turned recording off). */
  private prepared: Promise<void> = Promise.resolve();
  /** The measurement a settled command started, if any: close waits for it (it may write the copy's size). */
  private measuring: Promise<void> = Promise.resolve();

  private constructor(
    readonly recorder: ChangeRecorder,
    private readonly options: ChangeRecordsOptions,
  ) {
    this.historyBudget = options.budgetBytes ?? DEFAULT_RECORDS_BUDGET_BYTES;
    this.figures = {
      state: recorder.state.type === "on" ? { type: "preparing" } : recorder.state,
      excludes: [...(options.excludes ?? DEFAULT_EXCLUDES)],
      maxFileBytes: options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES,
      usageBytes: 0,
      budgetBytes: this.historyBudget,
    };
  }

  /** Opens the workspace's records and starts its first snapshot; never rejects (off, with the reason). */
  static async open(options: ChangeRecordsOptions): Promise<ChangeRecords> {
    let records: ChangeRecords | undefined;
    const recorder = await ChangeRecorder.open({
      ...options,
      onProgress: (progress) => {
        options.onProgress?.(progress);
        records?.progressed(progress);
      },
    });
    records = new ChangeRecords(recorder, options);
    await records.loadCopy();
    if (records.recorder.state.type === "on") {
      records.prepared = records.recorder.prepare().then(() => records.measure());
    }
    return records;
  }

  /**
   * Waits for the first snapshot, at most `ms`: a small workspace's takes a moment, and its first command
   * should not go unrecorded for want of it; a large one's may take minutes, and a command never waits that long.
   * A command cancelled meanwhile (`signal`) stops the wait at once.
   */
  async whenPrepared(ms: number, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return;
    let timer: NodeJS.Timeout | undefined;
    let stop = () => {};
    const given = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, ms);
      stop = resolve;
      signal?.addEventListener("abort", stop, { once: true });
    });
    await Promise.race([this.prepared, given]);
    clearTimeout(timer);
    signal?.removeEventListener("abort", stop);
  }

  /** The figures as last measured. */
  get state(): ChangesState {
    return this.figures;
  }

  /** A command's record was written: read the disk figures soon (once for a burst), pruning past the budget. */
  settle(): void {
    if (this.closed || this.settleTimer) return;
    this.settleTimer = setTimeout(() => {
      this.settleTimer = undefined;
      this.measuring = this.measure().catch(() => {});
    }, SETTLE_MS);
    this.settleTimer.unref();
  }

  /** The records' own folder (a rewind's journal is kept beside them). */
  get dataDir(): string {
    return this.options.dataDir;
  }

  /** Whether a command's record is still kept (its changes can still be undone or restored to). */
  has(commandId: string): boolean {
    return this.recorder.has(commandId);
  }

  /** Waits for the recorder's calls in flight; the records stay on disk for the next open. */
  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.settleTimer);
    // A measurement under way (after the first snapshot, or a command's) writes into the data folder: the
    // folder is the next owner's once this returns.
    await Promise.all([this.prepared.catch(() => {}), this.measuring]);
    await this.recorder.close();
  }

  /** The first snapshot came further: tell (the recorder tells at most every 250 ms). */
  private progressed(progress: { scanned: number; total: number }): void {
    if (this.closed || this.figures.state.type !== "preparing") return;
    this.figures = { ...this.figures, progress: { ...progress } };
    this.options.onState?.(this.figures);
  }

  /**
   * Reads the space the records take, drops the oldest past the budget (on top of the copy), and
   * tells when anything moved.
   */
  private async measure(): Promise<void> {
    if (this.closed) return;
    const usage = await this.recorder.usage().catch(() => undefined);
    let usageBytes = usage ?? this.figures.usageBytes;
    // With no record kept, all the records take is the copy of the workspace's current files.
    if (usage !== undefined && this.recorder.state.type === "on" && this.recorder.commands().length === 0) {
      await this.keepCopy(usage);
    }
    if (usageBytes > this.copyBytes + this.historyBudget) {
      const pruned = await this.recorder.prune(this.copyBytes + this.historyBudget).catch(() => undefined);
      if (pruned) {
        usageBytes = pruned.bytesAfter;
        if (pruned.dropped.length > 0) this.options.onDropped?.(pruned.dropped);
        if (this.recorder.commands().length === 0) await this.keepCopy(usageBytes);
      }
    }
    const state = this.recorder.state;
    const watchLimit = this.recorder.watchLimit?.message;
    const budgetBytes = this.copyBytes + this.historyBudget;
    if (
      usageBytes === this.figures.usageBytes &&
      budgetBytes === this.figures.budgetBytes &&
      state.type === this.figures.state.type &&
      watchLimit === this.figures.watchLimit
    ) {
      return;
    }
    const { progress: _done, ...rest } = this.figures;
    this.figures = {
      ...rest,
      state,
      usageBytes,
      budgetBytes,
      ...(this.copyBytes > 0 ? { copyBytes: this.copyBytes } : {}),
      ...(watchLimit ? { watchLimit } : {}),
    };
    this.options.onState?.(this.figures);
  }

  /** Reads the copy's size kept by an earlier open (none: 0, measured when no record is kept). */
  private async loadCopy(): Promise<void> {
    const text = await readFile(join(this.options.dataDir, COPY_FILE), "utf8").catch(() => "");
    const bytes = Number(text.trim());
    if (!Number.isSafeInteger(bytes) || bytes <= 0) return;
    this.copyBytes = bytes;
    this.figures = { ...this.figures, budgetBytes: bytes + this.historyBudget, copyBytes: bytes };
  }

  /** Keeps the copy's size, in memory and in the data folder (a write that fails: measured again later). */
  private async keepCopy(bytes: number): Promise<void> {
    if (bytes === this.copyBytes) return;
    this.copyBytes = bytes;
    const file = join(this.options.dataDir, COPY_FILE);
    await writeFile(`${file}.tmp`, `${bytes}\n`)
      .then(() => rename(`${file}.tmp`, file))
      .catch(() => {});
  }
}
