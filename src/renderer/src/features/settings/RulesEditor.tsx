import { type FormEvent, useId, useState } from "react";
import type { CommandRule, RuleDraft, RuleMatch } from "../../../../shared/rules";
import type { ChatApi } from "../../client/chat-api";
import type { Messages } from "../../i18n/en";
import { useT } from "../../i18n/i18n";
import { useAction } from "../../lib/use-action";

const emptyDraft: RuleDraft = { effect: "allow", match: "prefix", pattern: "", scope: "workspace" };

/** The rules in force: each can be changed or removed, and new ones added; and why the rules file is not read, if it is not. */
export function RulesEditor({
  rules,
  problem,
  api,
}: {
  rules: CommandRule[];
  problem?: string;
  api: ChatApi;
}) {
  const t = useT();
  const [editing, setEditing] = useState<string | null>(null);
  const remove = useAction();
  return (
    <div className="rules" data-testid="rules">
      <p className="muted">{t.settings.rulesIntro}</p>
      {problem && (
        <p className="error" role="alert" data-testid="rules-problem">
          {problem}
        </p>
      )}
      {rules.length === 0 ? (
        <p className="muted">{t.settings.noRules}</p>
      ) : (
        <ul className="rule-list">
          {rules.map((rule) =>
            editing === rule.id ? (
              <li key={rule.id}>
                <RuleForm
                  initial={rule}
                  submitLabel={t.settings.saveRule}
                  onSubmit={(draft) =>
                    api.updateRule({ id: rule.id, rule: draft }).then(() => setEditing(null))
                  }
                  onCancel={() => setEditing(null)}
                />
              </li>
            ) : (
              <li key={rule.id} className="rule-row" data-testid="rule-row">
                <span className={`tag rule-${rule.effect}`}>{t.settings.effects[rule.effect]}</span>
                <span className="muted">{matchName(t, rule.match)}</span>
                <code className="rule-pattern">{rule.pattern}</code>
                <span className="muted">{t.settings.scopes[rule.scope]}</span>
                {rule.narrowed && (
                  <span className="rule-narrowed" data-testid="rule-narrowed">
                    {t.settings.ruleNarrowed(rule.narrowed)}
                  </span>
                )}
                <span className="rule-buttons">
                  <button
                    type="button"
                    className="small"
                    onClick={() => setEditing(rule.id)}
                    aria-label={`${t.settings.editRule}: ${rule.pattern}`}
                  >
                    {t.settings.editRule}
                  </button>
                  <button
                    type="button"
                    className="small danger"
                    disabled={remove.busy}
                    onClick={() => remove.run(() => api.removeRule({ id: rule.id }), t.settings.ruleFailed)}
                    aria-label={`${t.settings.removeRule}: ${rule.pattern}`}
                  >
                    {t.settings.removeRule}
                  </button>
                </span>
              </li>
            ),
          )}
        </ul>
      )}
      {remove.error && (
        <p className="error" role="alert">
          {remove.error}
        </p>
      )}
      <h3>{t.settings.addRule}</h3>
      <RuleForm
        initial={emptyDraft}
        submitLabel={t.settings.addRule}
        onSubmit={(draft) => api.addRule(draft)}
        resetOnSave
      />
    </div>
  );
}

/** How a rule's match reads: the MCP ones are worded in their own block. */
function matchName(t: Messages, match: RuleMatch): string {
  return match === "mcp-tool" || match === "mcp-server" ? t.mcp.matches[match] : t.settings.matches[match];
}

/** A rule's fields, checked before they are sent. */
function RuleForm({
  initial,
  submitLabel,
  onSubmit,
  onCancel,
  resetOnSave,
}: {
  initial: RuleDraft;
  submitLabel: string;
  onSubmit: (draft: RuleDraft) => Promise<unknown>;
  onCancel?: () => void;
  resetOnSave?: boolean;
}) {
  const t = useT();
  const id = useId();
  const [draft, setDraft] = useState<RuleDraft>({
    effect: initial.effect,
    match: initial.match,
    pattern: initial.pattern,
    scope: initial.scope,
  });
  const [problem, setProblem] = useState<string | null>(null);
  const save = useAction();
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const pattern = draft.pattern.trim();
    if (!pattern) return setProblem(t.settings.patternEmpty);
    setProblem(null);
    const ok = await save.run(() => onSubmit({ ...draft, pattern }), t.settings.ruleFailed);
    if (ok && resetOnSave) setDraft({ ...draft, pattern: "" });
  };
  return (
    <form className="rule-form" onSubmit={submit}>
      <label>
        {t.settings.effect}
        <select
          value={draft.effect}
          onChange={(e) => setDraft({ ...draft, effect: e.target.value as RuleDraft["effect"] })}
        >
          <option value="allow">{t.settings.effects.allow}</option>
          <option value="deny">{t.settings.effects.deny}</option>
        </select>
      </label>
      <label>
        {t.settings.match}
        <select
          value={draft.match}
          onChange={(e) => setDraft({ ...draft, match: e.target.value as RuleDraft["match"] })}
        >
          <option value="prefix">{t.settings.matches.prefix}</option>
          <option value="exact">{t.settings.matches.exact}</option>
          <option value="file">{t.settings.matches.file}</option>
          <option value="any-file">{t.settings.matches["any-file"]}</option>
          <option value="mcp-tool">{t.mcp.matches["mcp-tool"]}</option>
          <option value="mcp-server">{t.mcp.matches["mcp-server"]}</option>
        </select>
      </label>
      <label className="rule-pattern-field" htmlFor={`${id}-pattern`}>
        {t.settings.pattern}
        <input
          id={`${id}-pattern`}
          className="mono"
          value={draft.pattern}
          onChange={(e) => setDraft({ ...draft, pattern: e.target.value })}
          spellCheck={false}
          data-testid="rule-pattern"
        />
      </label>
      <label>
        {t.settings.scope}
        <select
          value={draft.scope}
          onChange={(e) => setDraft({ ...draft, scope: e.target.value as RuleDraft["scope"] })}
        >
          <option value="session">{t.settings.scopes.session}</option>
          <option value="workspace">{t.settings.scopes.workspace}</option>
        </select>
      </label>
      <div className="rule-form-actions">
        <button type="submit" className="primary" disabled={save.busy}>
          {submitLabel}
        </button>
        {onCancel && (
          <button type="button" onClick={onCancel}>
            {t.settings.cancelEdit}
          </button>
        )}
      </div>
      {(problem ?? save.error) && (
        <p className="error" role="alert">
          {problem ?? save.error}
        </p>
      )}
    </form>
  );
}
