import { diffArrays } from "diff";

/** Git takes a content with a NUL byte in its first 8,000 bytes for binary (`buffer_is_binary`). */
export function isBinary(content: Buffer): boolean {
  return content.subarray(0, 8000).includes(0);
}

/**
 * Past this edit cost (lines added + removed among those xdiff keeps) xdiff's Myers takes shortcuts
 * (XDL_HEUR_MIN_COST, XDL_MAX_COST_MIN: 256) and its counts are no longer the minimal ones: leave them
 * to git.
 */
const MAX_EXACT_COST = 255;
/** xdiff's limits for lines with many matches (XDL_MAX_EQLIMIT, XDL_SIMSCAN_WINDOW, XDL_KPDIS_RUN). */
const MAX_EQ_LIMIT = 1024;
const SIMSCAN_WINDOW = 100;
const KPDIS_RUN = 4;

/**
 * Lines added and removed from `old` to `now` (either may be absent: added or deleted), exactly as
 * git's `--numstat` counts them, so the card says what `git diff` shows. git's diff (xdiff, Myers) is
 * not always a minimal one: before diffing it trims the common ends and drops lines that cannot or
 * should not match (no match on the other side; many matches amid unmatched lines), and counts those
 * as changed. This does the same (a port of `xdl_trim_ends` and `xdl_cleanup_records`), then a minimal
 * Myers diff (jsdiff) of what is left, which is what xdiff computes while the cost stays under its
 * heuristics' threshold. Lines are compared byte for byte, their ends included (`\r\n` against `\n`,
 * or a last line gaining its newline, is a change). Undefined past that threshold: ask git.
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
  if (endA === start || endB === start) return { added: endB - start, removed: endA - start };
  const keptA = cleanup(a, start, endA, occurrences(b));
  const keptB = cleanup(b, start, endB, occurrences(a));
  let removed = endA - start - keptA.length;
  let added = endB - start - keptB.length;
  if (keptA.length === 0 || keptB.length === 0)
    return { added: added + keptB.length, removed: removed + keptA.length };
  const parts = diffArrays(keptA, keptB, { maxEditLength: MAX_EXACT_COST });
  if (!parts) return undefined;
  for (const part of parts) {
    if (part.added) added += part.count ?? part.value.length;
    else if (part.removed) removed += part.count ?? part.value.length;
  }
  return { added, removed };
}

/**
 * The lines of `lines[start..end)` xdiff keeps for its diff (`xdl_cleanup_records`): a line with no
 * match in the other file is dropped; one with many matches (at least about the square root of this
 * file's length) is dropped when it sits in a run of mostly unmatched lines.
 */
function cleanup(lines: string[], start: number, end: number, other: Map<string, number>): string[] {
  const limit = Math.min(bogosqrt(lines.length), MAX_EQ_LIMIT);
  // 0: no match, 1: keep, 2: many matches (dropped if `xdl_clean_mmatch` says so)
  const marks = new Uint8Array(lines.length);
  for (let i = start; i < end; i++) {
    const matches = other.get(lines[i] as string) ?? 0;
    marks[i] = matches === 0 ? 0 : matches >= limit ? 2 : 1;
  }
  const kept: string[] = [];
  for (let i = start; i < end; i++) {
    if (marks[i] === 1 || (marks[i] === 2 && !dropMultimatch(marks, i, start, end - 1))) {
      kept.push(lines[i] as string);
    }
  }
  return kept;
}

/** `xdl_clean_mmatch`: whether line `i` (many matches) lies in a run mostly of lines without a match. */
function dropMultimatch(marks: Uint8Array, i: number, first: number, last: number): boolean {
  const s = i - first > SIMSCAN_WINDOW ? i - SIMSCAN_WINDOW : first;
  const e = last - i > SIMSCAN_WINDOW ? i + SIMSCAN_WINDOW : last;
  let none = 0;
  let many = 1;
  for (let r = 1; i - r >= s; r++) {
    if (marks[i - r] === 0) none++;
    else if (marks[i - r] === 2) many++;
    else break;
  }
  if (none === 0) return false;
  let noneAfter = 0;
  let manyAfter = 1;
  for (let r = 1; i + r <= e; r++) {
    if (marks[i + r] === 0) noneAfter++;
    else if (marks[i + r] === 2) manyAfter++;
    else break;
  }
  if (noneAfter === 0) return false;
  const runNone = none + noneAfter;
  const runMany = many + manyAfter;
  return runMany * KPDIS_RUN < runMany + runNone;
}

/** xdiff's cheap square root (`xdl_bogosqrt`): the power of two near sqrt(n). */
function bogosqrt(n: number): number {
  let i = 1;
  for (let left = n; left > 0; left = Math.floor(left / 4)) i *= 2;
  return i;
}

function occurrences(lines: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const line of lines) counts.set(line, (counts.get(line) ?? 0) + 1);
  return counts;
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
