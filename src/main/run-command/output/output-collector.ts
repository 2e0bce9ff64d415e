import { tmpdir } from "node:os";
import type { Readable } from "node:stream";
import { DEFAULT_MAX_BYTES, DEFAULT_MAX_LINES } from "@earendil-works/pi-coding-agent";
import type { SavedOutputCut } from "../../../shared/commands";
import { countNewlines } from "./output-batches";
import { DEFAULT_OUTPUT_BUDGET_BYTES, type OutputSpace, SavedOutputFile } from "./output-file";
import { RollingTail, renderTail, type TailLimits } from "./output-tail";

/** What a command printed, as the runner reports it. */
export interface CollectedOutput {
  /** The tail of the output, cut by `truncateTail` to the line and byte limits, without the final newline. */
  text: string;
  /** Whether `text` is less than everything the command printed. */
  truncated: boolean;
  /** Whether `text` starts in the middle of a line because that one line alone was over the byte limit. */
  lastLinePartial: boolean;
  /** Bytes the command printed, raw (before UTF-8 decoding). */
  totalBytes: number;
  /** Lines the command printed; a final line without a newline counts. */
  totalLines: number;
  /** Lines kept in `text`. */
  outputLines: number;
  /** File holding the complete output (or its first and last parts, see `fullOutputCut`); only when truncated and the file could be written. */
  fullOutputPath?: string;
  /** How the file was cut to the per-command budget, when the output passed it. */
  fullOutputCut?: SavedOutputCut;
  /** Why the complete output could not be saved (disk full, unwritable directory); the tail is still good. */
  fullOutputError?: string;
}

/** A live view of the output while the command runs. */
export interface OutputSnapshot {
  /** Current tail text, cut like the final one. */
  text: string;
  /** Bytes so far. */
  totalBytes: number;
  /** Lines so far. */
  totalLines: number;
}

/** Options of `OutputCollector`. */
export interface OutputCollectorOptions {
  /** Directory for full-output files; a private 0700 directory under os.tmpdir() when absent. */
  outputDir?: string;
  /** Byte limit of the tail (default Pi's `DEFAULT_MAX_BYTES`). */
  maxBytes?: number;
  /** Line limit of the tail (default Pi's `DEFAULT_MAX_LINES`). */
  maxLines?: number;
  /** Called after every chunk, for live updates. */
  onChange?: () => void;
  /** The most the saved full output takes on disk (default `DEFAULT_OUTPUT_BUDGET_BYTES`); past it the middle is left out. */
  budgetBytes?: number;
  /** Where saved outputs' disk use is accounted (the workspace's quota); absent: not accounted. */
  space?: OutputSpace;
}

/** Bytes kept beyond the limit, so a line that starts just before the cut can still be dropped whole. */
const TAIL_SLACK_BYTES = 4096;

/**
 * Collects a command's merged output in bounded memory: a rolling tail for the model, counts, and once
 * the output passes the limits a full-output file (what was held so far first, then streamed), within a
 * budget. Every chunk is copied, never kept: the caller may hand in the same buffer again for the next read.
 */
export class OutputCollector {
  private readonly limits: TailLimits;
  private readonly tail: RollingTail;
  private readonly streams: Readable[] = [];
  private totalBytes = 0;
  private newlines = 0;
  private endsWithNewline = true;
  /** Copies of the output held until we know whether a file is needed: at most about the limit plus one chunk. */
  private pending: Buffer[] = [];
  private file: SavedOutputFile | undefined;
  private resuming: Promise<void> | undefined;
  private finished = false;

  constructor(private readonly options: OutputCollectorOptions = {}) {
    this.limits = {
      maxBytes: options.maxBytes ?? DEFAULT_MAX_BYTES,
      maxLines: options.maxLines ?? DEFAULT_MAX_LINES,
    };
    this.tail = new RollingTail(this.limits.maxBytes + TAIL_SLACK_BYTES);
  }

  /** Whether reading is paused, waiting for the full-output file to catch up. */
  get paused(): boolean {
    return this.resuming !== undefined;
  }

  /** Bytes taken so far (a reader that stays the same for a while means the command is silent). */
  get receivedBytes(): number {
    return this.totalBytes;
  }

  /** Reads a stream into the collector; streams followed together are paused together on backpressure. */
  follow(stream: Readable): void {
    this.streams.push(stream);
    const resume = () => {
      for (const s of this.streams) s.resume();
    };
    stream.on("data", (chunk: Buffer) => {
      if (this.take(chunk, resume)) return;
      for (const s of this.streams) s.pause();
    });
  }

  /**
   * Takes a chunk from a source that stops reading when this returns false; `resume` starts it again once
   * the full-output file caught up.
   */
  take(chunk: Buffer, resume: () => void): boolean {
    if (this.append(chunk)) return true;
    this.resuming ??= this.writable().then(() => {
      this.resuming = undefined;
      resume();
    });
    return false;
  }

  /** Adds (a copy of) a chunk; false means "stop feeding me until `writable()` resolves". */
  append(chunk: Buffer): boolean {
    if (this.finished || chunk.length === 0) return true;
    this.totalBytes += chunk.length;
    const newlines = countNewlines(chunk);
    this.newlines += newlines;
    this.endsWithNewline = chunk[chunk.length - 1] === 10;
    this.tail.push(chunk);
    this.options.onChange?.();
    if (this.file) return this.file.write(chunk, newlines);
    this.pending.push(Buffer.from(chunk));
    return this.overLimits() ? this.openFile() : true;
  }

  /** Resolves when the collector can take more output (the file caught up, or has failed). */
  async writable(): Promise<void> {
    await this.file?.writable();
  }

  /** The live tail and counts. */
  snapshot(): OutputSnapshot {
    return { text: renderTail(this.tail, this.limits, false).text, ...this.counts() };
  }

  /** Ends collection: completes the full-output file and returns the final tail. Call once. */
  async finish(): Promise<CollectedOutput> {
    this.finished = true;
    const rendered = renderTail(this.tail, this.limits, true);
    const truncated = this.overLimits() || rendered.truncated;
    // Decoding can push output over the byte limit (each invalid byte becomes a 3-byte U+FFFD) even
    // when the raw bytes were under it: the file is still owed then.
    if (truncated && !this.file) this.openFile();
    const saved = await this.file?.finish();
    const failure = this.file?.failure;
    return {
      text: rendered.text,
      truncated,
      lastLinePartial: rendered.lastLinePartial,
      ...this.counts(),
      outputLines: rendered.outputLines,
      ...(saved ? { fullOutputPath: saved.path } : {}),
      ...(saved?.cut ? { fullOutputCut: saved.cut } : {}),
      ...(failure !== undefined
        ? {
            fullOutputError:
              `Could not save the full output to ${this.file?.location ?? this.options.outputDir ?? tmpdir()} ` +
              `(${failure}); only the tail is kept. Free disk space or choose a writable output directory.`,
          }
        : {}),
    };
  }

  private counts() {
    const totalLines = this.newlines + (this.totalBytes > 0 && !this.endsWithNewline ? 1 : 0);
    return { totalBytes: this.totalBytes, totalLines };
  }

  private overLimits(): boolean {
    return this.totalBytes > this.limits.maxBytes || this.counts().totalLines > this.limits.maxLines;
  }

  /** Starts the file with everything held so far; false when it asks to wait. */
  private openFile(): boolean {
    const file = new SavedOutputFile(
      this.options.outputDir,
      this.options.budgetBytes ?? DEFAULT_OUTPUT_BUDGET_BYTES,
      this.options.space,
    );
    this.file = file;
    const held = Buffer.concat(this.pending);
    this.pending = [];
    return file.write(held, this.newlines);
  }
}
