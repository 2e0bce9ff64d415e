import { truncateTail } from "@earendil-works/pi-coding-agent";

/*
 * The tail of a command's output, in bounded memory: the last bytes in one reused buffer, and how they are
 * decoded and cut into whole lines for the model and the live view.
 */

/** First size of the tail buffer: most commands print less, and a run should not pay for 110 KB it never uses. */
const TAIL_INITIAL_BYTES = 4096;

/** The last `size` bytes of a stream (plus one byte before them), in one buffer reused for the whole run. */
export class RollingTail {
  private buffer: Buffer;
  private used = 0;
  private total = 0;
  /** Twice the window, so compaction (one copy) happens at most once per `size` bytes appended. */
  private readonly capacity: number;

  constructor(private readonly size: number) {
    this.capacity = 2 * (size + 1);
    // Grown by doubling up to `capacity`, so a short output never allocates the whole window.
    this.buffer = Buffer.alloc(Math.min(TAIL_INITIAL_BYTES, this.capacity));
  }

  push(chunk: Buffer): void {
    const keep = this.size + 1;
    this.total += chunk.length;
    if (chunk.length >= keep) {
      this.grow(keep);
      chunk.copy(this.buffer, 0, chunk.length - keep);
      this.used = keep;
      return;
    }
    const needed = this.used + chunk.length;
    if (needed > this.buffer.length) this.grow(needed);
    if (needed > this.buffer.length) {
      const retain = Math.min(this.used, keep);
      this.buffer.copyWithin(0, this.used - retain, this.used);
      this.used = retain;
    }
    chunk.copy(this.buffer, this.used);
    this.used += chunk.length;
  }

  /** Makes room for `bytes` (never beyond `capacity`), keeping what is held. */
  private grow(bytes: number): void {
    if (bytes <= this.buffer.length || this.buffer.length === this.capacity) return;
    let length = this.buffer.length;
    while (length < bytes) length *= 2;
    const grown = Buffer.alloc(Math.min(length, this.capacity));
    this.buffer.copy(grown, 0, 0, this.used);
    this.buffer = grown;
  }

  /** The kept bytes; `cut` when earlier output was dropped, `startsLine` when the cut fell on a line start. */
  view(): { bytes: Buffer; cut: boolean; startsLine: boolean } {
    const start = Math.max(0, this.used - this.size);
    const cut = this.total > this.used - start;
    return {
      bytes: this.buffer.subarray(start, this.used),
      cut,
      startsLine: !cut || this.buffer[start - 1] === 10,
    };
  }
}

/** Skips UTF-8 continuation bytes at the start, so a cut never shows half a character. */
function skipContinuationBytes(bytes: Buffer): Buffer {
  let start = 0;
  while (start < 3 && start < bytes.length && ((bytes[start] ?? 0) & 0xc0) === 0x80) start++;
  return bytes.subarray(start);
}

/** Drops an incomplete UTF-8 sequence at the end: in a live view the rest of it has not arrived yet. */
function dropIncompleteEnd(bytes: Buffer): Buffer {
  for (let back = 1; back <= Math.min(4, bytes.length); back++) {
    const byte = bytes[bytes.length - back] ?? 0;
    if ((byte & 0xc0) === 0x80) continue;
    const needed = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    return needed > back ? bytes.subarray(0, bytes.length - back) : bytes;
  }
  return bytes;
}

export type TailLimits = { maxBytes: number; maxLines: number };

/**
 * truncateTail keeps the final newline of output it leaves whole and drops it from output it cuts;
 * dropping it always gives callers one shape (`totalBytes`/`totalLines` still count it).
 */
function withoutFinalNewline(text: string): string {
  return text.endsWith("\n") ? text.slice(0, -1) : text;
}

interface RenderedTail {
  text: string;
  truncated: boolean;
  lastLinePartial: boolean;
  outputLines: number;
}

/** Decodes the kept bytes (invalid UTF-8 becomes U+FFFD) and cuts them with Pi's `truncateTail`. */
export function renderTail(tail: RollingTail, limits: TailLimits, final: boolean): RenderedTail {
  const view = tail.view();
  let bytes = view.bytes;
  if (view.cut) {
    bytes = skipContinuationBytes(bytes);
    // The first kept line is partial: drop it, unless only empty lines follow (then its end is the output).
    const rest = bytes.subarray(bytes.indexOf(10) + 1);
    if (!view.startsLine && bytes.indexOf(10) !== -1 && rest.some((byte) => byte !== 10)) bytes = rest;
  }
  if (!final) bytes = dropIncompleteEnd(bytes);
  const text = new TextDecoder().decode(bytes);
  const result = truncateTail(text, limits);
  const truncated = view.cut || result.truncated;
  if (result.content.length > 0 || text.length === 0) {
    const { content, lastLinePartial, outputLines } = result;
    return { text: withoutFinalNewline(content), truncated, lastLinePartial, outputLines };
  }
  // truncateTail keeps the end of an over-long line only when it is the very last line; after
  // "<huge line>\n\n" it returns nothing. Keep the last `maxBytes` bytes instead of nothing.
  const encoded = Buffer.from(text);
  const end = skipContinuationBytes(
    encoded.subarray(Math.max(0, encoded.length - limits.maxBytes)),
  ).toString();
  const outputLines = end.split("\n").length - (end.endsWith("\n") ? 1 : 0);
  return { text: withoutFinalNewline(end), truncated, lastLinePartial: true, outputLines };
}
