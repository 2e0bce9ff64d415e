import { diffArrays } from "diff";

/** Git takes a content with a NUL byte in its first 8,000 bytes for binary (`buffer_is_binary`). */
export function isBinary(content: Buffer): boolean {
  return content.subarray(0, 8000).includes(0);
}

/** Past this many changed lines (or this long), the line counts are left to git. */
const MAX_EDIT_LINES = 20_000;
const MAX_DIFF_MS = 200;

/**
 * Lines added and removed from `old` to `now` (either may be absent: added or deleted), as git's
 * `--numstat` counts them: a minimal line diff (Myers, as jsdiff and git's xdiff both compute it), with a
 * line's end part of the line (so `\r\n` against `\n`, or a last line gaining its newline, is a change).
 * A minimal diff's counts are the same whichever one is found. Undefined when the diff would be too
 * large to compute here quickly: the caller asks git.
 */
export function countLines(
  old: Buffer | undefined,
  now: Buffer | undefined,
): { added: number; removed: number } | undefined {
  const a = old ? splitLines(old) : [];
  const b = now ? splitLines(now) : [];
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const middleA = a.slice(start, endA);
  const middleB = b.slice(start, endB);
  if (middleA.length === 0 || middleB.length === 0) return { added: middleB.length, removed: middleA.length };
  const parts = diffArrays(middleA, middleB, { maxEditLength: MAX_EDIT_LINES, timeout: MAX_DIFF_MS });
  if (!parts) return undefined;
  let added = 0;
  let removed = 0;
  for (const part of parts) {
    if (part.added) added += part.count ?? part.value.length;
    else if (part.removed) removed += part.count ?? part.value.length;
  }
  return { added, removed };
}

/** The lines of `content`, each with its `\n` (the last one without, if the content does not end in one). */
function splitLines(content: Buffer): string[] {
  // latin1: one char per byte, so lines compare byte for byte whatever the encoding.
  const text = content.toString("latin1");
  const lines: string[] = [];
  let at = 0;
  while (at < text.length) {
    const end = text.indexOf("\n", at);
    const next = end < 0 ? text.length : end + 1;
    lines.push(text.slice(at, next));
    at = next;
  }
  return lines;
}
