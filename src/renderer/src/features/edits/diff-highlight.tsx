import { type CSSProperties, type ReactNode, useMemo } from "react";
import type { DiffLine, ProposedDiff } from "../../../../shared/edits";
import { languageOfPath } from "../../lib/highlight/language-of-path";
import type { HighlightedToken } from "../../lib/highlight/shiki-tokens";
import { useHighlighted } from "../chat/use-highlighted";

/** A piece of a diff line and whether it is a changed word. */
export interface WordPart {
  /** The piece's text. */
  value: string;
  /** Whether the word diff marks it. */
  changed: boolean;
}

/**
 * Tokens for each line of a diff, keyed `hunk:line`: the old side (context and removed lines) and the new
 * side (context and added lines) are each highlighted as one text, so a line is read in the context of the
 * lines around it, as in its file. Empty until Shiki has tokenised both (or for a language it lacks).
 */
export function useDiffTokens(diff: ProposedDiff, path: string | undefined): Map<string, HighlightedToken[]> {
  const language = languageOfPath(path);
  const { where, oldText, newText } = useMemo(() => sidesOf(diff), [diff]);
  const old = useHighlighted(oldText, language, true);
  const next = useHighlighted(newText, language, true);
  const tokens = new Map<string, HighlightedToken[]>();
  if (old?.code !== oldText || next?.code !== newText) return tokens;
  for (const { key, side, index } of where) {
    const line = (side === "old" ? old : next).lines[index];
    if (line && !tokens.has(key)) tokens.set(key, line);
  }
  return tokens;
}

/**
 * A diff line's text, its tokens coloured and its changed words in `<mark>` (one mark per run of changed
 * words, as without highlighting). Tokens that do not spell the line (never expected) are left out.
 */
export function drawDiffText(
  text: string,
  parts: WordPart[] | undefined,
  tokens: HighlightedToken[] | undefined,
): ReactNode {
  const words = parts ?? [{ value: text, changed: false }];
  const spelled = tokens?.map((token) => token.content).join("") === text;
  const runs: ReactNode[] = [];
  let at = 0;
  for (const part of words) {
    const pieces = spelled && tokens ? slice(tokens, at, at + part.value.length) : part.value;
    runs.push(
      part.changed ? (
        <mark key={at} className="edit-diff-word">
          {pieces}
        </mark>
      ) : typeof pieces === "string" ? (
        pieces
      ) : (
        <span key={at}>{pieces}</span>
      ),
    );
    at += part.value.length;
  }
  return runs;
}

/** The tokens' text between two offsets of the line, each piece in its token's colours. */
function slice(tokens: HighlightedToken[], from: number, to: number): ReactNode[] {
  const out: ReactNode[] = [];
  let at = 0;
  for (const token of tokens) {
    const end = at + token.content.length;
    const start = Math.max(from, at);
    const stop = Math.min(to, end);
    if (start < stop) {
      out.push(
        <span key={start} className="code-token" style={token.style as CSSProperties}>
          {token.content.slice(start - at, stop - at)}
        </span>,
      );
    }
    at = end;
  }
  return out;
}

/** The diff's old and new sides as texts, and where each line of each hunk sits in them. */
function sidesOf(diff: ProposedDiff) {
  const sides = { old: [] as string[], new: [] as string[] };
  const where: { key: string; side: "old" | "new"; index: number }[] = [];
  diff.hunks.forEach((hunk, h) => {
    hunk.lines.forEach((line: DiffLine, i) => {
      for (const side of line.kind === "add" ? ["new"] : line.kind === "del" ? ["old"] : ["old", "new"]) {
        const list = sides[side as "old" | "new"];
        where.push({ key: `${h}:${i}`, side: side as "old" | "new", index: list.length });
        list.push(line.text);
      }
    });
  });
  const oldText = sides.old.join("\n");
  const newText = sides.new.join("\n");
  return { where, oldText, newText };
}
