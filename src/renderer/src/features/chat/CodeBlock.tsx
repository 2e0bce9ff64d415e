import { type CSSProperties, type ReactNode, useContext, useState } from "react";
import { useT } from "../../i18n/i18n";
import { OpenBlock } from "./open-block";
import { type Highlighted, useHighlighted } from "./use-highlighted";

/** A fenced code block: monospace, scrollable, highlighted by its language, with a copy button. */
export function CodeBlock({ language, code }: { language: string; code: string }) {
  const t = useT();
  const [copied, setCopied] = useState(false);
  const open = useContext(OpenBlock);
  const highlighted = useHighlighted(code, language, !open);
  const copy = () => {
    navigator.clipboard?.writeText(code).then(
      () => {
        setCopied(true);
        setTimeout(() => setCopied(false), 1500);
      },
      () => {}, // clipboard refused (no permission): the text is still selectable
    );
  };
  return (
    <div className="code-block">
      <div className="code-head">
        <span className="muted code-language">{language || "\u00a0"}</span>
        <button
          type="button"
          className="small"
          onClick={copy}
          aria-label={t.chat.copyCodeLabel(language || "text")}
        >
          {copied ? t.chat.copied : t.chat.copyCode}
        </button>
      </div>
      <pre>
        <code
          className={language ? `language-${language}` : undefined}
          data-highlighted={highlighted?.code === code ? "true" : undefined}
        >
          {highlighted ? drawHighlighted(highlighted, code) : code}
        </code>
      </pre>
    </div>
  );
}

/**
 * The code with the lines highlighted so far. While a block streams, the highlight was made from an
 * earlier prefix: its finished lines are drawn highlighted and the rest plain until the next highlight.
 */
function drawHighlighted({ code: from, lines }: Highlighted, code: string): ReactNode {
  if (from !== code && !code.startsWith(from)) return code;
  // A line is final once a newline follows it; the prefix's last line may still grow.
  const finished = from === code ? lines.length : from.split("\n").length - 1;
  const rest = from === code ? "" : code.slice(offsetOfLine(code, finished));
  return (
    <>
      {lines.slice(0, finished).map((line, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: lines are positions in the code; it only grows.
        <span key={index} className="code-line">
          {line.map((token, at) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: as above.
            <span key={at} className="code-token" style={token.style as CSSProperties}>
              {token.content}
            </span>
          ))}
          {index < lines.length - 1 || rest ? "\n" : ""}
        </span>
      ))}
      {rest}
    </>
  );
}

/** Where line `index` (0-based) of the text starts. */
function offsetOfLine(text: string, index: number): number {
  let offset = 0;
  for (let line = 0; line < index; line++) offset = text.indexOf("\n", offset) + 1;
  return offset;
}
