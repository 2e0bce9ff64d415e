import { type FileHandle, open, unlink } from "node:fs/promises";
import { join } from "node:path";
import { formatSize } from "@earendil-works/pi-coding-agent";
import type { SavedOutputCut } from "../../../shared/commands";
import { errorMessage } from "../../base/errors";
import { BATCH_BYTES, countNewlines, OutputBatches } from "./output-batches";
import { outputFileName, resolveOutputDir } from "./output-dir";

/** The most one command's saved output takes on disk by default: 256 MiB. */
export const DEFAULT_OUTPUT_BUDGET_BYTES = 256 * 1024 * 1024;

/** The smallest budget taken: below it the two parts would be no longer than the tail the model sees. */
export const MIN_OUTPUT_BUDGET_BYTES = 64 * 1024;

/** Throws, saying what to do, unless `budgetBytes` is a whole number of bytes of at least `MIN_OUTPUT_BUDGET_BYTES`. */
export function checkOutputBudget(budgetBytes: number): void {
  if (!Number.isSafeInteger(budgetBytes) || budgetBytes < MIN_OUTPUT_BUDGET_BYTES) {
    throw new Error(
      `The budget for a command's saved output must be a whole number of bytes, at least ${MIN_OUTPUT_BUDGET_BYTES} ` +
        `(${formatSize(MIN_OUTPUT_BUDGET_BYTES)}); got ${budgetBytes}. The default is ${DEFAULT_OUTPUT_BUDGET_BYTES} (256 MiB).`,
    );
  }
}

/** Where saved outputs' disk use is accounted: the workspace's quota (see output-quota.ts). */
export interface OutputSpace {
  /** The file at `path`, still being written, takes `bytes` on disk now; resolves once older outputs made room. */
  using(path: string, bytes: number): Promise<void>;
  /** The file at `path` is complete and takes `bytes` on disk (0: it was removed). */
  done(path: string, bytes: number): void;
}

/** A complete saved output. */
export interface SavedOutput {
  /** The file. */
  path: string;
  /** How its middle was left out, when the output passed the budget. */
  cut?: SavedOutputCut;
}

/** Room kept for the marker line between the two parts. */
const MARKER_RESERVE_BYTES = 512;

/** How far a cut moves to land on a line boundary; a longer line is cut where it is. */
const LINE_ALIGN_BYTES = 64 * 1024;

/** The last part is this share of the budget (see the class comment for why it is the small one). */
const TAIL_SHARE = 1 / 8;

/** The last part is kept on disk as this many segment files, so an old one can be dropped whole. */
const TAIL_SEGMENTS = 8;

/** A segment of the last part: output bytes [start, end) in their own file, with the newlines in them. */
interface Segment {
  path: string;
  start: number;
  end: number;
  newlines: number;
}

/**
 * A command's full output on disk, within a budget. The first part of the output goes straight into the
 * file; past it, the output goes into a ring of segment files holding the last part; at the end the kept
 * segments are appended after a marker line that says how much was left out. So a command printing without
 * end costs at most the budget on disk (plus one segment while the file is put together), memory stays at
 * the two write batches, and every byte is written once on its way in.
 *
 * The last part is the small one (1/8 of the budget) because it is the part copied at the end, while the
 * person waits for the result: 32 MiB copies in about 30 ms here, 128 MiB in over 100 ms, which would
 * double the time Cancel takes to show during a flood. 32 MiB is still some 300,000 lines of the end.
 */
export class SavedOutputFile {
  private readonly batches: OutputBatches;
  private readonly headLimit: number;
  private readonly tailLimit: number;
  private readonly segmentBytes: number;
  private head: FileHandle | undefined;
  private headPath: string | undefined;
  /** Output offset of the last newline in the first part, -1 when none. */
  private lastHeadNewline = -1;
  private headNewlines = 0;
  private segments: Segment[] = [];
  private current: FileHandle | undefined;
  /** Output bytes handed to the disk so far, and the newlines among them. */
  private written = 0;
  private writtenNewlines = 0;
  private error: string | undefined;

  constructor(
    outputDir: string | undefined,
    private readonly budgetBytes: number,
    private readonly space?: OutputSpace,
  ) {
    this.tailLimit = Math.floor(budgetBytes * TAIL_SHARE);
    this.headLimit = budgetBytes - this.tailLimit - MARKER_RESERVE_BYTES;
    this.segmentBytes = Math.ceil(this.tailLimit / TAIL_SEGMENTS);
    this.batches = new OutputBatches(this.openHead(outputDir), (batch, newlines) =>
      this.store(batch, newlines),
    );
  }

  /** The file, once it was made; its last part's segments are this path plus `.tail-N` until the end. */
  get location(): string | undefined {
    return this.headPath;
  }

  /** Why the output could not be saved, once it could not (nothing of it is left on disk then). */
  get failure(): string | undefined {
    return this.error ?? this.batches.failure;
  }

  /** Takes a copy of `bytes` (`newlines` of them are 0x0a); false means wait for `writable()` before more. */
  write(bytes: Buffer, newlines: number): boolean {
    return this.batches.write(bytes, newlines);
  }

  /** Resolves when the file takes more output (or has failed). */
  writable(): Promise<void> {
    return this.batches.writable();
  }

  /** Writes what is left and puts the file together; undefined when it failed (see `failure`). */
  async finish(): Promise<SavedOutput | undefined> {
    await this.batches.end();
    let saved: SavedOutput | undefined;
    if (this.failure === undefined) {
      try {
        saved = await this.assemble();
      } catch (error) {
        this.error = errorMessage(error);
      }
    }
    if (saved === undefined) await this.discard();
    return saved;
  }

  private async openHead(outputDir: string | undefined): Promise<void> {
    const path = join(await resolveOutputDir(outputDir), outputFileName());
    // `wx` never follows a link someone placed at the path; 0600 because output can hold secrets.
    this.head = await open(path, "wx", 0o600);
    this.headPath = path;
  }

  /** Writes one batch where it belongs: the first part, then the newest segment of the last part. */
  private async store(batch: Buffer, newlines: number): Promise<void> {
    let at = 0;
    while (at < batch.length) {
      const inHead = this.written < this.headLimit;
      const newest = this.segments.at(-1);
      const segmentFull = !newest || newest.end - newest.start >= this.segmentBytes;
      const room = inHead
        ? this.headLimit - this.written
        : this.segmentBytes - (segmentFull ? 0 : (newest as Segment).end - (newest as Segment).start);
      const part = batch.subarray(at, at + room);
      // The caller counted the batch's newlines; only a batch split at a boundary is scanned again.
      const partNewlines = part.length === batch.length ? newlines : countNewlines(part);
      if (inHead) {
        await writeAll(this.head as FileHandle, part, this.written);
        const last = part.lastIndexOf(10);
        if (last !== -1) this.lastHeadNewline = this.written + last;
        this.headNewlines += partNewlines;
      } else {
        const segment = segmentFull ? await this.newSegment() : (newest as Segment);
        await writeAll(this.current as FileHandle, part, this.written - segment.start);
        segment.end += part.length;
        segment.newlines += partNewlines;
      }
      this.written += part.length;
      this.writtenNewlines += partNewlines;
      at += part.length;
    }
    // The oldest segment goes once it lies wholly before the last part (the kept segments then hold at most tailLimit).
    while (this.segments.length > 0 && this.written - (this.segments[0] as Segment).start > this.tailLimit) {
      await unlink((this.segments.shift() as Segment).path);
    }
    await this.space?.using(this.headPath as string, this.diskBytes());
  }

  private async newSegment(): Promise<Segment> {
    await this.current?.close();
    this.current = undefined;
    const path = `${this.headPath}.tail-${Math.floor((this.written - this.headLimit) / this.segmentBytes)}`;
    this.current = await open(path, "wx", 0o600);
    const segment = { path, start: this.written, end: this.written, newlines: 0 };
    this.segments.push(segment);
    return segment;
  }

  private diskBytes(): number {
    return this.segments.reduce((sum, s) => sum + (s.end - s.start), Math.min(this.written, this.headLimit));
  }

  /** Appends the kept segments to the first part: all of them when nothing was left out, else after the marker. */
  private async assemble(): Promise<SavedOutput> {
    const head = this.head as FileHandle;
    const path = this.headPath as string;
    await this.current?.close();
    this.current = undefined;
    const total = this.written;
    let at = Math.min(total, this.headLimit);
    let skip = 0;
    let cut: SavedOutputCut | undefined;
    if (total > this.headLimit + this.tailLimit) {
      // Both ends of the gap move to a line boundary when one is near, so the marker is a line of its own.
      const nearLine = this.lastHeadNewline !== -1 && this.lastHeadNewline >= at - LINE_ALIGN_BYTES;
      const headEnd = nearLine ? this.lastHeadNewline + 1 : at;
      const first = this.segments[0] as Segment;
      const start = await readStart(first.path, Math.min(LINE_ALIGN_BYTES, first.end - first.start));
      const newline = start.indexOf(10);
      skip = newline + 1;
      const tailNewlines = this.segments.reduce((sum, s) => sum + s.newlines, 0) - (newline === -1 ? 0 : 1);
      cut = {
        droppedBytes: first.start + skip - headEnd,
        droppedLines: this.writtenNewlines - this.headNewlines - tailNewlines,
        budgetBytes: this.budgetBytes,
      };
      const marker = Buffer.from(
        `${headEnd > 0 && this.lastHeadNewline !== headEnd - 1 ? "\n" : ""}${describeCut(cut)}\n`,
      );
      await writeAll(head, marker, headEnd);
      at = headEnd + marker.length;
    }
    const buffer = Buffer.allocUnsafeSlow(Math.min(BATCH_BYTES, this.segmentBytes));
    for (const [index, segment] of this.segments.entries()) {
      at = await appendFile(head, at, segment.path, index === 0 ? skip : 0, buffer);
      await unlink(segment.path);
    }
    this.segments = [];
    await head.truncate(at);
    await head.close();
    this.head = undefined;
    this.space?.done(path, at);
    return cut ? { path, cut } : { path };
  }

  /** Removes whatever was written: a partial copy helps nobody and, on a full disk, takes the space others need. */
  private async discard(): Promise<void> {
    await this.current?.close().catch(() => {});
    await this.head?.close().catch(() => {});
    this.current = undefined;
    this.head = undefined;
    const paths = [...this.segments.map((s) => s.path), ...(this.headPath ? [this.headPath] : [])];
    this.segments = [];
    await Promise.all(paths.map((p) => unlink(p).catch(() => {})));
    if (this.headPath !== undefined) this.space?.done(this.headPath, 0);
  }
}

/** The marker line's words: what was left out, and why. */
export function describeCut(cut: SavedOutputCut): string {
  return (
    `[Pi Desk left out ${formatSize(cut.droppedBytes)} (${cut.droppedLines.toLocaleString("en-US")} lines) of ` +
    `the output here, to keep this file within the ${formatSize(cut.budgetBytes)} budget per command: the ` +
    "first part of the output is above this line, the last part below it.]"
  );
}

/** Writes all of `bytes` at `position` (a positional write may write less than asked). */
async function writeAll(file: FileHandle, bytes: Buffer, position: number): Promise<void> {
  let done = 0;
  while (done < bytes.length) {
    const { bytesWritten } = await file.write(bytes, done, bytes.length - done, position + done);
    done += bytesWritten;
  }
}

/** The first `bytes` of a file. */
async function readStart(path: string, bytes: number): Promise<Buffer> {
  const file = await open(path, "r");
  try {
    const buffer = Buffer.alloc(bytes);
    const { bytesRead } = await file.read(buffer, 0, bytes, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await file.close();
  }
}

/** Copies the file at `path`, from `skip` on, into `target` at `at`; returns where it ended. */
async function appendFile(target: FileHandle, at: number, path: string, skip: number, buffer: Buffer) {
  const source = await open(path, "r");
  try {
    let from = skip;
    for (;;) {
      const { bytesRead } = await source.read(buffer, 0, buffer.length, from);
      if (bytesRead === 0) return at;
      await writeAll(target, buffer.subarray(0, bytesRead), at);
      at += bytesRead;
      from += bytesRead;
    }
  } finally {
    await source.close();
  }
}
