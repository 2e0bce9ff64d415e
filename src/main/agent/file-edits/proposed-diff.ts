import { structuredPatch } from "diff";
import type { DiffHunk, DiffLine, ProposedDiff } from "../../../shared/edits";

/** Lines of context around each change, as git shows them. */
const CONTEXT_LINES = 3;

/** The most diff lines sent to a card; past it the diff says it was cut (the whole content stays readable). */
export const MAX_DIFF_LINES = 20_000;

/**
 * The diff from a file's content to a proposal, in hunks with line numbers, as the edit card and a shell
 * write's preview show it. jsdiff computes it (the library Pi's own edit tool diffs with); the lines'
 * numbers come from each hunk's start. `before` undefined: a new file, every line added.
 */
export function proposedDiff(before: string | undefined, after: string): ProposedDiff {
  const patch = structuredPatch("a", "b", before ?? "", after, "", "", { context: CONTEXT_LINES });
  const hunks: DiffHunk[] = [];
  let added = 0;
  let removed = 0;
  let sent = 0;
  let truncated = false;
  for (const hunk of patch.hunks) {
    let oldLine = hunk.oldStart;
    let newLine = hunk.newStart;
    const lines: DiffLine[] = [];
    for (const raw of hunk.lines) {
      const mark = raw[0];
      // "\ No newline at end of file" belongs to the line before it, not a line of the file.
      if (mark === "\\") continue;
      const text = raw.slice(1);
      let line: DiffLine;
      if (mark === "+") {
        added += 1;
        line = { kind: "add", text, newLine: newLine++ };
      } else if (mark === "-") {
        removed += 1;
        line = { kind: "del", text, oldLine: oldLine++ };
      } else {
        line = { kind: "context", text, oldLine: oldLine++, newLine: newLine++ };
      }
      if (sent < MAX_DIFF_LINES) {
        lines.push(line);
        sent += 1;
      } else truncated = true;
    }
    if (lines.length > 0) hunks.push({ lines });
  }
  return { hunks, added, removed, truncated };
}

/** The diff as unified text for the model (`-`/`+`/` ` lines, `@@` between hunks), at most `maxLines` lines. */
export function diffText(diff: ProposedDiff, maxLines = 200): string {
  const out: string[] = [];
  for (const hunk of diff.hunks) {
    const first = hunk.lines[0];
    out.push(`@@ line ${first?.newLine ?? first?.oldLine ?? 1} @@`);
    for (const line of hunk.lines) {
      out.push(`${line.kind === "add" ? "+" : line.kind === "del" ? "-" : " "}${line.text}`);
    }
  }
  if (out.length <= maxLines) return out.join("\n");
  return `${out.slice(0, maxLines).join("\n")}\n… ${out.length - maxLines} more diff lines`;
}
