import { type CSSProperties, type ReactNode, useMemo, useState } from "react";
import { useT } from "../../i18n/i18n";
import { languageOfPath } from "../../lib/highlight/language-of-path";
import type { HighlightedToken } from "../../lib/highlight/shiki-tokens";
import { useHighlighted } from "../chat/use-highlighted";

/** Lines of a diff drawn at first; a longer one shows "open full diff" (the DOM stays small, like output). */
const FIRST_LINES = 400;

/** The class of a unified diff's line: added, removed, a hunk header, or the file header. */
function lineClass(line: string): string | undefined {
  if (line.startsWith("+++") || line.startsWith("---") || line.startsWith("diff --git")) return "diff-file";
  if (line.startsWith("@@")) return "diff-hunk";
  if (line.startsWith("+")) return "diff-add";
  if (line.startsWith("-")) return "diff-del";
  return undefined;
}

/**
 * The diff's lines from its first hunk on: the row above already names the file, so git's header
 * (`diff --git`, `index`, `---`/`+++`) only repeats it. A diff without hunks (a mode change) keeps it all.
 */
function bodyLines(text: string): string[] {
  const lines = text.replace(/\n$/, "").split("\n");
  const firstHunk = lines.findIndex((line) => line.startsWith("@@"));
  return firstHunk > 0 ? lines.slice(firstHunk) : lines;
}

/**
 * A unified diff, coloured by line kind and its code highlighted by the language of the file at `path`;
 * its first lines, and the rest on request.
 */
export function DiffText({ text, testId, path }: { text: string; testId: string; path?: string }) {
  const t = useT();
  const [whole, setWhole] = useState(false);
  const lines = useMemo(() => bodyLines(text), [text]);
  const shown = whole ? lines : lines.slice(0, FIRST_LINES);
  const tokens = useSideTokens(lines, languageOfPath(path));
  return (
    <>
      <pre className="diff-text" data-testid={testId}>
        {shown.map((line, index) => (
          // Lines have no identity of their own; the diff text never reorders.
          // biome-ignore lint/suspicious/noArrayIndexKey: see above
          <span key={index} className={lineClass(line)}>
            {drawLine(line, tokens[index])}
            {"\n"}
          </span>
        ))}
      </pre>
      {shown.length < lines.length && (
        <button type="button" className="link" onClick={() => setWhole(true)}>
          {t.changes.showWholeDiff(lines.length)}
        </button>
      )}
    </>
  );
}

/**
 * Tokens for each line's code (after its +, - or space), by line index: the old side (context and removed
 * lines) and the new side (context and added lines) each highlighted as one text. Empty until both are.
 */
function useSideTokens(lines: string[], language: string): (HighlightedToken[] | undefined)[] {
  const { old, next, where } = useMemo(() => {
    const sides = { old: [] as string[], next: [] as string[] };
    const at: { old?: number; next?: number }[] = lines.map((line) => {
      const kind = lineClass(line);
      if (kind === "diff-file" || kind === "diff-hunk" || line.startsWith("\\")) return {};
      const code = line.slice(1);
      const place: { old?: number; next?: number } = {};
      if (kind !== "diff-add") place.old = sides.old.push(code) - 1;
      if (kind !== "diff-del") place.next = sides.next.push(code) - 1;
      return place;
    });
    return { old: sides.old.join("\n"), next: sides.next.join("\n"), where: at };
  }, [lines]);
  const oldTokens = useHighlighted(old, language, true);
  const nextTokens = useHighlighted(next, language, true);
  if (oldTokens?.code !== old || nextTokens?.code !== next) return [];
  return where.map((place) =>
    place.next !== undefined
      ? nextTokens.lines[place.next]
      : place.old !== undefined
        ? oldTokens.lines[place.old]
        : undefined,
  );
}

/** A line: its marker as written, its code in its tokens' colours where they spell it. */
function drawLine(line: string, tokens: HighlightedToken[] | undefined): ReactNode {
  if (!tokens || tokens.map((token) => token.content).join("") !== line.slice(1)) return line;
  return (
    <>
      {line[0]}
      {tokens.map((token, at) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: tokens are positions in a fixed line.
        <span key={at} className="code-token" style={token.style as CSSProperties}>
          {token.content}
        </span>
      ))}
    </>
  );
}
