import { type CSSProperties, type ReactNode, useState } from "react";
import type { ToolItem } from "../../../../shared/transcript";
import { languageOfPath } from "../../lib/highlight/language-of-path";
import { useHighlighted } from "./use-highlighted";

/**
 * A read-only tool call's result, folded under its head. A `read` of a file is highlighted by the file's
 * language once the person unfolds it (not before: most results are never opened).
 */
export function ToolResult({ item, head }: { item: ToolItem; head: ReactNode }) {
  const [open, setOpen] = useState(false);
  const result = item.result ?? "";
  // The summary is the call's arguments in one line; a read's first is the path.
  const language = item.name === "read" ? languageOfPath(item.summary.split(" ")[0]) : "";
  const highlighted = useHighlighted(result, language, open);
  const lines = highlighted?.code === result ? highlighted.lines : null;
  return (
    <details onToggle={(event) => setOpen(event.currentTarget.open)}>
      <summary>{head}</summary>
      <pre className="tool-result" data-highlighted={lines ? "true" : undefined}>
        {lines
          ? lines.map((line, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: lines are positions in a fixed text.
              <span key={index}>
                {line.map((token, at) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: as above.
                  <span key={at} className="code-token" style={token.style as CSSProperties}>
                    {token.content}
                  </span>
                ))}
                {index < lines.length - 1 ? "\n" : ""}
              </span>
            ))
          : result}
      </pre>
    </details>
  );
}
