import { errorMessage } from "../../base/errors";

/**
 * Output goes to disk in writes of about this size. A pipe delivers up to 64 KiB per read; one file
 * write per read (about 4,000 for 256 MiB, each a thread-pool round trip) cost the host about 40% more
 * CPU than batches of 1 MiB (bench/run-command.bench.ts).
 */
export const BATCH_BYTES = 1024 * 1024;

/** How many bytes of `bytes` are newlines (0x0a never occurs inside a multibyte UTF-8 sequence). */
export function countNewlines(bytes: Buffer): number {
  let count = 0;
  for (let at = bytes.indexOf(10); at !== -1; at = bytes.indexOf(10, at + 1)) count++;
  return count;
}

/** Bytes held back while both batches are busy: a copy, with its newline count. */
interface HeldBack {
  bytes: Buffer;
  newlines: number;
}

/**
 * Copies output into two batch buffers, reused for the whole run, and hands a full one to `store` while
 * the other fills; one store runs at a time. Copying (instead of keeping the chunks the pipe gave us) is
 * what keeps memory flat: a kept chunk outlives V8's cheap young-generation collections and then waits,
 * with its 64 KiB, for a full collection. With both buffers busy, `write` keeps a copy of the rest of
 * the chunk and returns false: the caller stops reading until `writable()` resolves, so at most one
 * chunk is ever held back.
 */
export class OutputBatches {
  private filling: Buffer | undefined;
  private spare: Buffer | undefined;
  private used = 0;
  /** Newlines in the filling batch, counted by the caller per chunk (one scan of the output, not two). */
  private newlines = 0;
  private heldBack: HeldBack[] = [];
  /** The store in flight; at first, whatever must happen before the first store (opening the file). */
  private busy: Promise<void> | undefined;
  private error: string | undefined;

  constructor(
    ready: Promise<unknown>,
    private readonly store: (batch: Buffer, newlines: number) => Promise<void>,
  ) {
    this.busy = this.settle(ready);
  }

  /** Why storing failed, once it did; everything written after that is dropped. */
  get failure(): string | undefined {
    return this.error;
  }

  /** Takes a copy of `bytes`, `newlines` of which are 0x0a; false means wait for `writable()` before more. */
  write(bytes: Buffer, newlines: number): boolean {
    if (this.error !== undefined) return true;
    if (this.heldBack.length > 0) {
      this.heldBack.push({ bytes: Buffer.from(bytes), newlines });
      return false;
    }
    let at = 0;
    let left = newlines;
    while (at < bytes.length) {
      if (this.used === BATCH_BYTES) {
        this.pump();
        if (this.used === BATCH_BYTES) {
          this.heldBack.push({ bytes: Buffer.from(bytes.subarray(at)), newlines: left });
          return false;
        }
      }
      this.filling ??= Buffer.allocUnsafeSlow(BATCH_BYTES);
      const copied = bytes.copy(this.filling, this.used, at);
      const counted = at + copied === bytes.length ? left : countNewlines(bytes.subarray(at, at + copied));
      this.newlines += counted;
      left -= counted;
      this.used += copied;
      at += copied;
    }
    this.pump();
    return !this.full();
  }

  /** Resolves when `write` takes more without holding anything back (or storing failed). */
  async writable(): Promise<void> {
    while (this.error === undefined && this.full() && this.busy) await this.busy;
  }

  /** Stores everything written so far, the last partial batch included. */
  async end(): Promise<void> {
    while (this.error === undefined && (this.busy || this.heldBack.length > 0 || this.used > 0)) {
      if (this.busy) await this.busy;
      else this.pump(true);
    }
  }

  private full(): boolean {
    return this.heldBack.length > 0 || this.used === BATCH_BYTES;
  }

  /** Starts storing the filling batch when it is full (or `partial`) and no store runs; then takes held-back bytes. */
  private pump(partial = false): void {
    for (;;) {
      if (this.busy) return;
      if (this.used === BATCH_BYTES || (partial && this.used > 0 && this.heldBack.length === 0)) {
        const batch = (this.filling as Buffer).subarray(0, this.used);
        const newlines = this.newlines;
        // The spare holds the batch being stored; by the next swap that store has finished.
        [this.filling, this.spare] = [this.spare, this.filling];
        this.used = 0;
        this.newlines = 0;
        this.busy = this.settle(this.store(batch, newlines));
      }
      const next = this.heldBack[0];
      if (!next) return;
      this.filling ??= Buffer.allocUnsafeSlow(BATCH_BYTES);
      const copied = next.bytes.copy(this.filling, this.used);
      const counted =
        copied === next.bytes.length ? next.newlines : countNewlines(next.bytes.subarray(0, copied));
      this.newlines += counted;
      this.used += copied;
      if (copied === next.bytes.length) this.heldBack.shift();
      else this.heldBack[0] = { bytes: next.bytes.subarray(copied), newlines: next.newlines - counted };
      if (this.used < BATCH_BYTES) return;
    }
  }

  /** Clears `busy` when `work` ends and moves on; a failure stops everything. */
  private settle(work: Promise<unknown>): Promise<void> {
    return work.then(
      () => {
        this.busy = undefined;
        this.pump();
      },
      (error: unknown) => {
        this.busy = undefined;
        this.error = errorMessage(error);
        this.filling = undefined;
        this.spare = undefined;
        this.heldBack = [];
        this.used = 0;
      },
    );
  }
}
