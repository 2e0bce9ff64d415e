/*
 * Shared by both sides: a card renders this much of a command's output, and the host sends the page no
 * more than this of an ended command whose full output is saved (the rest is in the saved file, which
 * the full-output view reads), so reopening a long chat does not carry every output whole.
 */

/** The end of a command's output, cut so the DOM stays small however much the command prints. */
export interface OutputTail {
  /** The last lines, as they were. */
  text: string;
  /** Whether anything before them was left out. */
  cut: boolean;
}

/** How many lines of output a card renders. */
export const TAIL_LINES = 500;
/** How many characters a card renders at most, for output with very long lines (or none). */
export const TAIL_CHARS = 200_000;

/**
 * Keeps the last `maxLines` lines (and at most `maxChars` characters) of `text`. It scans back from the
 * end, so the cost depends on what is kept, not on how much was printed.
 */
export function tailLines(text: string, maxLines = TAIL_LINES, maxChars = TAIL_CHARS): OutputTail {
  // A final newline ends the last line; it does not start another.
  let position = text.endsWith("\n") ? text.length - 1 : text.length;
  let start = 0;
  let linesAfter = 0;
  while (position > 0) {
    const newline = text.lastIndexOf("\n", position - 1);
    if (newline < 0) break;
    linesAfter += 1;
    if (linesAfter === maxLines) {
      start = newline + 1;
      break;
    }
    position = newline;
  }
  start = Math.max(start, text.length - maxChars);
  return start > 0 ? { text: text.slice(start), cut: true } : { text, cut: false };
}

/** How many lines `text` holds (a final newline ends the last line; it does not start another). */
export function countLines(text: string): number {
  if (!text) return 0;
  let count = text.endsWith("\n") ? 0 : 1;
  for (let at = text.indexOf("\n"); at >= 0; at = text.indexOf("\n", at + 1)) count += 1;
  return count;
}
