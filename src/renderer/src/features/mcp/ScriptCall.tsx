import { type FormEvent, useState } from "react";
import type { McpCallView } from "../../../../shared/mcp";
import { useT } from "../../i18n/i18n";
import { CodeBlock } from "../chat/CodeBlock";
import { useTestId } from "../commands/card-scope";

/**
 * What a codemode or tool_search card shows in place of a server tool's arguments: the script in full
 * (monospace, scrolling, highlighted as JavaScript, never cut), or the search's query.
 */
export function ScriptCallBody({ call }: { call: McpCallView }) {
  const t = useT();
  const tid = useTestId();
  if (call.piTool === "codemode") {
    const code =
      typeof call.arguments.code === "string" ? call.arguments.code : JSON.stringify(call.arguments);
    return (
      <div className="codemode-script">
        <div className="muted">{t.mcp.script.label}</div>
        <div data-testid={tid("codemode-script")}>
          <CodeBlock language="javascript" code={code} />
        </div>
        <p className="muted">{t.mcp.script.note}</p>
        {call.scriptCalls && call.scriptCalls.length > 0 && (
          <div className="script-calls">
            <div className="muted">{t.mcp.script.calls}</div>
            <ul data-testid={tid("script-calls")}>
              {call.scriptCalls.map((nested) => (
                <li key={nested.id} data-testid={tid("script-call")} data-status={nested.status}>
                  <code>{nested.name}</code>{" "}
                  <span className="muted">{t.mcp.script.callStatus[nested.status]}</span>
                </li>
              ))}
            </ul>
          </div>
        )}
      </div>
    );
  }
  const query = typeof call.arguments.query === "string" ? call.arguments.query : "";
  return (
    <div className="tool-search">
      <div className="muted">{t.mcp.search.label}</div>
      <pre className="mono" data-testid={tid("tool-search-query")}>
        {query}
      </pre>
      <p className="muted">{t.mcp.search.note}</p>
    </div>
  );
}

/** The script in a text box: approved as edited (the host runs exactly this). */
export function ScriptEditor({
  initial,
  busy,
  onApply,
  onBack,
}: {
  initial: string;
  busy: boolean;
  onApply: (code: string) => void;
  onBack: () => void;
}) {
  const t = useT();
  const tid = useTestId();
  const [code, setCode] = useState(initial);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    onApply(code);
  };
  return (
    <form className="card-form" onSubmit={submit}>
      <label>
        {t.mcp.script.inputLabel}
        <textarea
          className="mono"
          value={code}
          onChange={(e) => setCode(e.target.value)}
          spellCheck={false}
          rows={Math.min(30, Math.max(6, code.split("\n").length + 1))}
          data-testid={tid("codemode-script-input")}
          // biome-ignore lint/a11y/noAutofocus: opened on purpose by the person's Edit script; they type at once.
          autoFocus
        />
      </label>
      <div className="card-actions">
        <button
          type="submit"
          className="primary"
          disabled={busy || code.trim() === ""}
          data-testid={tid("codemode-script-apply")}
        >
          {t.mcp.script.apply}
        </button>
        <button type="button" onClick={onBack}>
          {t.mcp.argumentsBack}
        </button>
      </div>
    </form>
  );
}

/** A call a codemode script made: its card names the script's call. */
export function FromScriptNote({ parent }: { parent: string | undefined }) {
  const t = useT();
  const tid = useTestId();
  if (!parent) return null;
  return (
    <p className="muted from-script" data-testid={tid("from-script")} data-parent-tool-call-id={parent}>
      {t.mcp.script.fromScript(parent)}
    </p>
  );
}
