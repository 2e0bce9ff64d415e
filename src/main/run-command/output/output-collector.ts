import { randomBytes } from "node:crypto";
import { once } from "node:events";
import { createWriteStream, type WriteStream } from "node:fs";
import { mkdir, mkdtemp, stat, unlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Readable } from "node:stream";
import { finished } from "node:stream/promises";
import { DEFAULT_MAX_BYTES, DEFAULT_MAX_LINES, formatSize } from "@earendil-works/pi-coding-agent";
import { errorMessage } from "../../base/errors";
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
  /** File holding the complete output; only when truncated and the file could be written. */
  fullOutputPath?: string;
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
}

/** Bytes kept beyond the limit, so a line that starts just before the cut can still be dropped whole. */
const TAIL_SLACK_BYTES = 4096;

/**
 * Output goes to the full-output file in writes of about this size. A pipe delivers a few KB per read;
 * one file write per read (about 10,000 for 256 MiB) cost a thread-pool round trip and a file-system
 * write each: batched, the host needs about 40% less CPU for 256 MiB (bench/run-command.bench.ts).
 */
const FILE_BATCH_BYTES = 1024 * 1024;

/** Full-output writes are buffered up to this much (one batch written while the next fills) before the child's pipes are paused. */
const FILE_HIGH_WATER_MARK = 2 * FILE_BATCH_BYTES;

let defaultOutputDir: string | undefined;

/** The caller's directory (made 0700 if missing), or one private directory per host process. */
async function resolveOutputDir(outputDir: string | undefined): Promise<string> {
  if (outputDir !== undefined) {
    await mkdir(outputDir, { recursive: true, mode: 0o700 });
    return outputDir;
  }
  // Made again (fresh, never re-created by name) when a temp cleaner removed it during a long session.
  const current = defaultOutputDir;
  const stillThere = current !== undefined && (await stat(current).catch(() => undefined)) !== undefined;
  if (stillThere) return current;
  const made = await mkdtemp(join(tmpdir(), "pi-desk-output-"));
  defaultOutputDir = made;
  return made;
}

/** A readable name, so the path told to the model also says when and what it is. */
function outputFileName(): string {
  const stamp = new Date().toISOString().replace(/[:.]/g, "-").replace("Z", "");
  return `run-${stamp}-${randomBytes(4).toString("hex")}.log`;
}

/**
 * Collects a command's merged output in bounded memory: a rolling tail for the model, counts, and once
 * the output passes the limits a full-output file (what was held so far first, then streamed).
 */
export class OutputCollector {
  private readonly limits: TailLimits;
  private readonly tail: RollingTail;
  private readonly streams: Readable[] = [];
  private totalBytes = 0;
  private newlines = 0;
  private endsWithNewline = true;
  /** Output held until we know whether a file is needed: at most about the limit plus one chunk. */
  private pending: Buffer[] = [];
  /** Bytes written to the corked file since it was last uncorked. */
  private batchBytes = 0;
  private file: WriteStream | undefined;
  private filePath: string | undefined;
  private fileState: "none" | "opening" | "open" | "failed" = "none";
  private opening: Promise<void> | undefined;
  private fileError: string | undefined;
  /** Set once our `wx` open succeeded: only then is the file at `filePath` ours to delete. */
  private createdFile = false;
  private resuming: Promise<void> | undefined;
  /** The removal of a part-written file after a failure; `finish` waits for it, so none outlives the result. */
  private removing: Promise<void> | undefined;
  private finished = false;

  constructor(private readonly options: OutputCollectorOptions = {}) {
    this.limits = {
      maxBytes: options.maxBytes ?? DEFAULT_MAX_BYTES,
      maxLines: options.maxLines ?? DEFAULT_MAX_LINES,
    };
    this.tail = new RollingTail(this.limits.maxBytes + TAIL_SLACK_BYTES);
  }

  /** Whether the followed streams are paused, waiting for the full-output file to catch up. */
  get paused(): boolean {
    return this.resuming !== undefined;
  }

  /** Reads a stream into the collector; streams followed together are paused together on backpressure. */
  follow(stream: Readable): void {
    this.streams.push(stream);
    stream.on("data", (chunk: Buffer) => {
      if (this.append(chunk) || this.resuming) return;
      for (const s of this.streams) s.pause();
      this.resuming = this.writable().then(() => {
        this.resuming = undefined;
        for (const s of this.streams) s.resume();
      });
    });
  }

  /** Adds a chunk; false means "stop feeding me until `writable()` resolves". */
  append(chunk: Buffer): boolean {
    if (this.finished || chunk.length === 0) return true;
    this.totalBytes += chunk.length;
    // 0x0a never occurs inside a multibyte UTF-8 sequence, so raw bytes count lines exactly.
    for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, at + 1)) this.newlines++;
    this.endsWithNewline = chunk[chunk.length - 1] === 10;
    this.tail.push(chunk);
    this.options.onChange?.();
    switch (this.fileState) {
      case "none":
        this.pending.push(chunk);
        if (!this.overLimits()) return true;
        this.openFile();
        return false;
      case "opening":
        this.pending.push(chunk);
        return false;
      case "open":
        return this.writeToFile(chunk);
      case "failed":
        return true;
    }
  }

  /** Resolves when the collector can take more output (the file is open and drained, or has failed). */
  async writable(): Promise<void> {
    if (this.opening) await this.opening;
    const file = this.file;
    if (this.fileState !== "open" || !file || !file.writableNeedDrain) return;
    // Rejects on 'error', which the file's own error handler has already recorded.
    await once(file, "drain").catch(() => {});
  }

  /** The live tail and counts. */
  snapshot(): OutputSnapshot {
    return { text: renderTail(this.tail, this.limits, false).text, ...this.counts() };
  }

  /** Ends collection: closes the full-output file and returns the final tail. Call once. */
  async finish(): Promise<CollectedOutput> {
    this.finished = true;
    if (this.opening) await this.opening;
    const rendered = renderTail(this.tail, this.limits, true);
    const truncated = this.overLimits() || rendered.truncated;
    // Decoding can push output over the byte limit (each invalid byte becomes a 3-byte U+FFFD) even
    // when the raw bytes were under it: the file is still owed then.
    if (truncated && this.fileState === "none") {
      this.openFile();
      await this.opening;
    }
    if (this.file && this.fileState === "open") {
      const file = this.file;
      // end() uncorks: what is still batched is written before the file closes.
      file.end();
      await finished(file).catch((error: unknown) => this.fail(error));
    }
    await this.removing;
    const saved = truncated && this.fileState === "open" ? this.filePath : undefined;
    return {
      text: rendered.text,
      truncated,
      lastLinePartial: rendered.lastLinePartial,
      ...this.counts(),
      outputLines: rendered.outputLines,
      ...(saved !== undefined ? { fullOutputPath: saved } : {}),
      ...(this.fileError !== undefined ? { fullOutputError: this.fileError } : {}),
    };
  }

  private counts() {
    const totalLines = this.newlines + (this.totalBytes > 0 && !this.endsWithNewline ? 1 : 0);
    return { totalBytes: this.totalBytes, totalLines };
  }

  /**
   * Queues a chunk for the file, corked so that chunks go out together in one `writev` once they reach
   * `FILE_BATCH_BYTES` (no copy: the file holds the chunks the pipe gave us until they are written).
   * False when the file asks us to wait for 'drain'; it is uncorked then, so the drain comes.
   */
  private writeToFile(chunk: Buffer): boolean {
    const file = this.file;
    if (!file) return true;
    if (file.writableCorked === 0) file.cork();
    const ok = file.write(chunk);
    this.batchBytes += chunk.length;
    if (!ok || this.batchBytes >= FILE_BATCH_BYTES) {
      this.batchBytes = 0;
      file.uncork();
    }
    return ok;
  }

  private overLimits(): boolean {
    return this.totalBytes > this.limits.maxBytes || this.counts().totalLines > this.limits.maxLines;
  }

  private openFile(): void {
    this.fileState = "opening";
    this.opening = (async () => {
      try {
        const path = join(await resolveOutputDir(this.options.outputDir), outputFileName());
        this.filePath = path;
        // `wx` never follows a link someone placed at the path; 0600 because output can hold secrets.
        const file = createWriteStream(path, {
          flags: "wx",
          mode: 0o600,
          highWaterMark: FILE_HIGH_WATER_MARK,
        });
        file.on("error", (error) => this.fail(error));
        await new Promise<void>((resolve, reject) => {
          file.once("ready", resolve);
          file.once("error", reject);
        });
        this.createdFile = true;
        this.file = file;
        this.fileState = "open";
        for (const chunk of this.pending) file.write(chunk);
        this.pending = [];
      } catch (error) {
        this.fail(error);
      } finally {
        this.opening = undefined;
      }
    })();
  }

  private fail(error: unknown): void {
    if (this.fileState === "failed") return;
    this.fileState = "failed";
    this.pending = [];
    this.batchBytes = 0;
    const where = this.filePath ?? this.options.outputDir ?? tmpdir();
    this.fileError =
      `Could not save the full output to ${where} after ${formatSize(this.totalBytes)} (${errorMessage(error)}); ` +
      "only the tail is kept. Free disk space or choose a writable output directory.";
    const file = this.file;
    this.file = undefined;
    file?.destroy();
    // A partial copy helps nobody and, on a full disk, takes the space others need.
    if (this.createdFile && this.filePath !== undefined)
      this.removing = unlink(this.filePath).catch(() => {});
  }
}
