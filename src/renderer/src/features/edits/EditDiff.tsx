import { diffWordsWithSpace } from "diff";
import { memo, type ReactNode, useState } from "react";
import type { DiffLine, ProposedDiff } from "../../../../shared/edits";
import { useT } from "../../i18n/i18n";
import { drawDiffText, useDiffTokens, type WordPart } from "./diff-highlight";

/** Lines shown before the diff folds: a long rewrite stays readable, and "Show all" opens the rest. */
const FOLD_AFTER_LINES = 400;

/** Lines longer than this are not word-diffed: the cost grows with their product, and a glance tells anyway. */
const MAX_WORD_DIFF_CHARS = 2_000;

/**
 * A proposed diff as the person reads it before approving: line numbers, added and removed lines coloured,
 * and within a changed line the words that changed marked (jsdiff's word diff, the library the host diffs
 * with), the text highlighted by the language of the file at `path` (Shiki, loaded when first needed).
 * Folds after 400 lines.
 */
export const EditDiff = memo(function EditDiff({
  diff,
  testId,
  path,
}: {
  diff: ProposedDiff;
  testId: string;
  /** The file's path, whose extension names the language to highlight. */
  path?: string;
}) {
  const t = useT();
  const tokens = useDiffTokens(diff, path);
  const [all, setAll] = useState(false);
  const total = diff.hunks.reduce((sum, hunk) => sum + hunk.lines.length, 0);
  let budget = all ? Number.POSITIVE_INFINITY : FOLD_AFTER_LINES;
  const hunks: ReactNode[] = [];
  diff.hunks.forEach((hunk, h) => {
    if (budget <= 0) return;
    const lines = hunk.lines.slice(0, budget);
    budget -= lines.length;
    const words = wordMarks(hunk.lines);
    hunks.push(
      <tbody key={`${hunk.lines[0]?.oldLine ?? 0}:${hunk.lines[0]?.newLine ?? 0}`} className="edit-diff-hunk">
        {h > 0 && (
          <tr className="edit-diff-gap">
            <td colSpan={3}>⋯</td>
          </tr>
        )}
        {lines.map((line, i) => (
          <tr
            key={`${line.oldLine ?? ""}:${line.newLine ?? ""}`}
            className={`edit-diff-line edit-diff-${line.kind}`}
            data-testid="diff-line"
            data-kind={line.kind}
          >
            <td className="edit-diff-number">{line.oldLine ?? ""}</td>
            <td className="edit-diff-number">{line.newLine ?? ""}</td>
            <td className="edit-diff-text">
              <span className="edit-diff-mark" aria-hidden="true">
                {line.kind === "add" ? "+" : line.kind === "del" ? "-" : " "}
              </span>
              {drawDiffText(line.text, words.get(i), tokens.get(`${h}:${i}`))}
            </td>
          </tr>
        ))}
      </tbody>,
    );
  });
  if (total === 0)
    return (
      <p className="muted" data-testid={testId}>
        {t.edits.noChange}
      </p>
    );
  return (
    <div className="edit-diff" data-testid={testId}>
      <table className="edit-diff-table">{hunks}</table>
      {total > FOLD_AFTER_LINES && (
        <button type="button" onClick={() => setAll(!all)}>
          {all ? t.edits.showLess : t.edits.showAll(total)}
        </button>
      )}
      {diff.truncated && <p className="muted">{t.edits.diffCut}</p>}
    </div>
  );
});

/**
 * The changed words of each removed line paired with the added line in its place (the n-th removed line of
 * a run with the n-th added line after it), by line index within the hunk.
 */
function wordMarks(lines: readonly DiffLine[]): Map<number, WordPart[]> {
  const marks = new Map<number, WordPart[]>();
  let i = 0;
  while (i < lines.length) {
    if (lines[i]?.kind !== "del") {
      i += 1;
      continue;
    }
    const dels: number[] = [];
    while (lines[i]?.kind === "del") dels.push(i++);
    const adds: number[] = [];
    while (lines[i]?.kind === "add") adds.push(i++);
    for (let k = 0; k < Math.min(dels.length, adds.length); k++) {
      const del = lines[dels[k] as number] as DiffLine;
      const add = lines[adds[k] as number] as DiffLine;
      if (del.text.length > MAX_WORD_DIFF_CHARS || add.text.length > MAX_WORD_DIFF_CHARS) continue;
      const parts = diffWordsWithSpace(del.text, add.text);
      marks.set(
        dels[k] as number,
        parts.filter((part) => !part.added).map((part) => ({ value: part.value, changed: !!part.removed })),
      );
      marks.set(
        adds[k] as number,
        parts.filter((part) => !part.removed).map((part) => ({ value: part.value, changed: !!part.added })),
      );
    }
  }
  return marks;
}
