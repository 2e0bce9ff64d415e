import { useState } from "react";
import { useT } from "../../i18n/i18n";

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

/** A unified diff, coloured by line kind; its first lines, and the rest on request. */
export function DiffText({ text, testId }: { text: string; testId: string }) {
  const t = useT();
  const [whole, setWhole] = useState(false);
  const lines = bodyLines(text);
  const shown = whole ? lines : lines.slice(0, FIRST_LINES);
  return (
    <>
      <pre className="diff-text" data-testid={testId}>
        {shown.map((line, index) => (
          // Lines have no identity of their own; the diff text never reorders.
          // biome-ignore lint/suspicious/noArrayIndexKey: see above
          <span key={index} className={lineClass(line)}>
            {line}
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
