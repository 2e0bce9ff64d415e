import type { ChangesState } from "../../shared/changes";
import { ChangeRecorder } from "./change-recorder";
import { DEFAULT_EXCLUDES, DEFAULT_MAX_FILE_BYTES } from "./defaults";
import type { ChangeRecorderOptions } from "./recorder-types";

/** The most one workspace's records take on disk (1 GiB) before the oldest are dropped. */
export const DEFAULT_RECORDS_BUDGET_BYTES = 1024 * 1024 * 1024;

/** How long after a command's record the disk figures are read again: one read for a burst of commands. */
const SETTLE_MS = 2_000;

/** How one workspace's records are kept. */
export interface ChangeRecordsOptions extends ChangeRecorderOptions {
  /** The most the records take on disk; the oldest are dropped past it. `DEFAULT_RECORDS_BUDGET_BYTES` by default. */
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
 */
export class ChangeRecords {
  private figures: ChangesState;
  private settleTimer: NodeJS.Timeout | undefined;
  private closed = false;
  /** Settles once the first snapshot was taken (or failed and turned recording off). */
  private prepared: Promise<void> = Promise.resolve();

  private constructor(
    readonly recorder: ChangeRecorder,
    private readonly options: ChangeRecordsOptions,
  ) {
    this.figures = {
      state: recorder.state.type === "on" ? { type: "preparing" } : recorder.state,
      excludes: [...(options.excludes ?? DEFAULT_EXCLUDES)],
      maxFileBytes: options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES,
      usageBytes: 0,
      budgetBytes: options.budgetBytes ?? DEFAULT_RECORDS_BUDGET_BYTES,
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
      void this.measure();
    }, SETTLE_MS);
    this.settleTimer.unref();
  }

  /** Whether a command's record is still kept (its changes can still be undone or restored to). */
  has(commandId: string): boolean {
    return this.recorder.has(commandId);
  }

  /** Waits for the recorder's calls in flight; the records stay on disk for the next open. */
  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.settleTimer);
    await this.recorder.close();
  }

  /** The first snapshot came further: tell (the recorder tells at most every 250 ms). */
  private progressed(progress: { scanned: number; total: number }): void {
    if (this.closed || this.figures.state.type !== "preparing") return;
    this.figures = { ...this.figures, progress: { ...progress } };
    this.options.onState?.(this.figures);
  }

  /** Reads the space the records take, drops the oldest past the budget, and tells when anything moved. */
  private async measure(): Promise<void> {
    if (this.closed) return;
    let usageBytes = await this.recorder.usage().catch(() => this.figures.usageBytes);
    if (usageBytes > this.figures.budgetBytes) {
      const pruned = await this.recorder.prune(this.figures.budgetBytes).catch(() => undefined);
      if (pruned) {
        usageBytes = pruned.bytesAfter;
        if (pruned.dropped.length > 0) this.options.onDropped?.(pruned.dropped);
      }
    }
    const state = this.recorder.state;
    const watchLimit = this.recorder.watchLimit?.message;
    if (
      usageBytes === this.figures.usageBytes &&
      state.type === this.figures.state.type &&
      watchLimit === this.figures.watchLimit
    ) {
      return;
    }
    const { progress: _done, ...rest } = this.figures;
    this.figures = { ...rest, state, usageBytes, ...(watchLimit ? { watchLimit } : {}) };
    this.options.onState?.(this.figures);
  }
}
