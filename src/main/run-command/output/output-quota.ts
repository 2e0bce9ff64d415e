import { readdir, stat, unlink } from "node:fs/promises";
import { join } from "node:path";
import type { SavedOutputsState } from "../../../shared/host-state";
import { checkOutputBudget, DEFAULT_OUTPUT_BUDGET_BYTES, type OutputSpace } from "./output-file";

/** The most one workspace's saved outputs take on disk by default: 2 GiB. */
export const DEFAULT_OUTPUT_QUOTA_BYTES = 2 * 1024 * 1024 * 1024;

/** How a workspace's saved outputs are kept in bounds. */
export interface OutputQuotaOptions {
  /** The workspace's output folder; a missing one is empty. */
  dir: string;
  /** The most its saved outputs take together (default `DEFAULT_OUTPUT_QUOTA_BYTES`). */
  quotaBytes?: number;
  /** The per-command budget, shown with the quota and checked against it (default `DEFAULT_OUTPUT_BUDGET_BYTES`). */
  budgetBytes?: number;
  /** Told the new figures when a saved output was completed or removed. */
  onChange?: (state: SavedOutputsState) => void;
}

/** A finished saved output (or any other file found in the folder). */
interface SavedFile {
  path: string;
  bytes: number;
}

/**
 * Throws, saying what to do, unless the budget is valid (`checkOutputBudget`) and the quota a whole number
 * of bytes no smaller than the budget (a smaller quota could not hold one command's output).
 */
export function checkOutputQuota(quotaBytes: number, budgetBytes: number): void {
  checkOutputBudget(budgetBytes);
  if (!Number.isSafeInteger(quotaBytes) || quotaBytes < budgetBytes) {
    throw new Error(
      `The quota for a workspace's saved outputs must be a whole number of bytes, at least the per-command budget ` +
        `(${budgetBytes}); got ${quotaBytes}. Raise the quota or lower the budget.`,
    );
  }
}

/**
 * One workspace's saved outputs within a quota. It knows what the folder held when the session opened and
 * what its commands wrote since; when a command's output needs room, the oldest finished files go first.
 * A file still being written is never removed, so commands running side by side can pass the quota by
 * what they are writing (each at most its budget) until they end.
 */
export class OutputQuota implements OutputSpace {
  /** Finished files, oldest first. */
  private finished: SavedFile[] = [];
  private finishedBytes = 0;
  /** Files being written, with what each takes now. */
  private readonly writing = new Map<string, number>();
  private readonly quotaBytes: number;
  private readonly budgetBytes: number;

  private constructor(private readonly options: OutputQuotaOptions) {
    this.budgetBytes = options.budgetBytes ?? DEFAULT_OUTPUT_BUDGET_BYTES;
    this.quotaBytes = options.quotaBytes ?? DEFAULT_OUTPUT_QUOTA_BYTES;
    checkOutputQuota(this.quotaBytes, this.budgetBytes);
  }

  /** Reads what the folder holds (every file counts, oldest first by modification time) and makes room if over. */
  static async open(options: OutputQuotaOptions): Promise<OutputQuota> {
    const quota = new OutputQuota(options);
    const names = await readdir(options.dir).catch(() => [] as string[]);
    const found = await Promise.all(
      names.map(async (name) => {
        const path = join(options.dir, name);
        const info = await stat(path).catch(() => null);
        return info?.isFile() ? { path, bytes: info.size, modified: info.mtimeMs } : null;
      }),
    );
    for (const file of found.flatMap((f) => (f ? [f] : [])).sort((a, b) => a.modified - b.modified)) {
      quota.finished.push({ path: file.path, bytes: file.bytes });
      quota.finishedBytes += file.bytes;
    }
    await quota.makeRoom();
    return quota;
  }

  /** The figures Settings shows. */
  state(): SavedOutputsState {
    let writingBytes = 0;
    for (const bytes of this.writing.values()) writingBytes += bytes;
    return {
      usedBytes: this.finishedBytes + writingBytes,
      files: this.finished.length + this.writing.size,
      quotaBytes: this.quotaBytes,
      budgetBytes: this.budgetBytes,
    };
  }

  /** A file being written takes `bytes` now; older finished files go if the total passed the quota. */
  async using(path: string, bytes: number): Promise<void> {
    this.writing.set(path, bytes);
    await this.makeRoom();
  }

  /** A file is complete at `bytes` (0: it was removed); from now on it may be removed to make room. */
  done(path: string, bytes: number): void {
    this.writing.delete(path);
    if (bytes > 0) {
      this.finished.push({ path, bytes });
      this.finishedBytes += bytes;
    }
    this.options.onChange?.(this.state());
  }

  /** Removes the oldest finished files until everything fits (or only files being written are left). */
  private async makeRoom(): Promise<void> {
    const removed: string[] = [];
    while (this.state().usedBytes > this.quotaBytes && this.finished.length > 0) {
      const oldest = this.finished.shift() as SavedFile;
      this.finishedBytes -= oldest.bytes;
      removed.push(oldest.path);
    }
    if (removed.length === 0) return;
    // Already gone (the person deleted it, or the age limit did) is as good as removed.
    await Promise.all(removed.map((path) => unlink(path).catch(() => {})));
    this.options.onChange?.(this.state());
  }
}
