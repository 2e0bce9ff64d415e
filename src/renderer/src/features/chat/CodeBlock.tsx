import { useState } from "react";
import { useT } from "../../i18n/i18n";

/** A fenced code block: monospace, scrollable, with its language and a copy button. */
export function CodeBlock({ language, code }: { language: string; code: string }) {
  const t = useT();
  const [copied, setCopied] = useState(false);
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
        <span className="muted">{language || "\u00a0"}</span>
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
        <code className={language ? `language-${language}` : undefined}>{code}</code>
      </pre>
    </div>
  );
}
