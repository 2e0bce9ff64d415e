import { type FormEvent, useState } from "react";
import { useT } from "../../i18n/i18n";
import { useTestId } from "../commands/card-scope";

/** A string value longer than this is folded on the card (the edit form shows it whole). */
const FOLD_CHARS = 400;

/** The arguments as pretty JSON, long string values folded. */
export function ArgumentsView({ args }: { args: Record<string, unknown> }) {
  const t = useT();
  const tid = useTestId();
  const folded = JSON.stringify(
    args,
    (_key, value: unknown) =>
      typeof value === "string" && value.length > FOLD_CHARS
        ? `${value.slice(0, FOLD_CHARS)}${t.mcp.folded(value.length - FOLD_CHARS)}`
        : value,
    2,
  );
  return (
    <div className="mcp-arguments">
      <div className="muted">{t.mcp.arguments}</div>
      <pre className="mono" data-testid={tid("tool-arguments")}>
        {folded}
      </pre>
    </div>
  );
}

/** The arguments in a text box as JSON; what is approved must parse to an object (the host checks the schema). */
export function ArgumentsEditor({
  initial,
  busy,
  onApply,
  onBack,
}: {
  initial: Record<string, unknown>;
  busy: boolean;
  onApply: (args: Record<string, unknown>) => void;
  onBack: () => void;
}) {
  const t = useT();
  const tid = useTestId();
  const [text, setText] = useState(() => JSON.stringify(initial, null, 2));
  const [problem, setProblem] = useState<string | null>(null);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (error) {
      setProblem(t.mcp.notJson(error instanceof Error ? error.message : String(error)));
      return;
    }
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
      setProblem(t.mcp.notObject);
      return;
    }
    setProblem(null);
    onApply(parsed as Record<string, unknown>);
  };
  return (
    <form className="card-form" onSubmit={submit}>
      <label>
        {t.mcp.argumentsLabel}
        <textarea
          className="mono"
          value={text}
          onChange={(e) => setText(e.target.value)}
          spellCheck={false}
          rows={Math.min(20, Math.max(4, text.split("\n").length + 1))}
          data-testid={tid("tool-arguments-input")}
          // biome-ignore lint/a11y/noAutofocus: opened on purpose by the person's Edit arguments; they type at once.
          autoFocus
        />
      </label>
      {problem && (
        <p className="error" role="alert" data-testid={tid("tool-arguments-problem")}>
          {problem}
        </p>
      )}
      <div className="card-actions">
        <button type="submit" className="primary" disabled={busy} data-testid={tid("tool-arguments-apply")}>
          {t.mcp.argumentsApply}
        </button>
        <button type="button" onClick={onBack}>
          {t.mcp.argumentsBack}
        </button>
      </div>
    </form>
  );
}
