import { type FormEvent, useEffect, useId, useRef } from "react";
import type { RuleOffer } from "../../../../shared/commands";
import type { RuleScope } from "../../../../shared/rules";
import { useT } from "../../i18n/i18n";
import { useTestId } from "./card-scope";

/** Focuses the element once it is shown, so a form opened from the keyboard can be typed in at once. */
export function useFocusOnMount<T extends HTMLElement>() {
  const ref = useRef<T>(null);
  useEffect(() => ref.current?.focus(), []);
  return ref;
}

/** The reason for a denial; Enter denies, Esc goes back. */
export function DenyForm({
  reason,
  onReason,
  onDeny,
  onBack,
  busy,
}: {
  reason: string;
  onReason: (reason: string) => void;
  onDeny: () => void;
  onBack: () => void;
  busy: boolean;
}) {
  const t = useT();
  const tid = useTestId();
  const id = useId();
  const input = useFocusOnMount<HTMLInputElement>();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    onDeny();
  };
  return (
    <form className="card-form" onSubmit={submit}>
      <label htmlFor={id}>{t.command.denyReason}</label>
      <input
        id={id}
        ref={input}
        type="text"
        value={reason}
        onChange={(e) => onReason(e.target.value)}
        data-testid={tid("deny-reason")}
      />
      <div className="card-actions">
        <button type="submit" className="danger" disabled={busy} data-testid={tid("deny-confirm")}>
          {t.command.denyConfirm}
        </button>
        <button type="button" onClick={onBack}>
          {t.command.back}
        </button>
      </div>
    </form>
  );
}

/** The command and timeout to run instead; checked as typed, against the host's cap. */
export function EditForm({
  command,
  timeout,
  maxTimeoutSeconds,
  problem,
  onChange,
}: {
  command: string;
  timeout: string;
  maxTimeoutSeconds: number;
  problem: string | null;
  onChange: (draft: { command: string; timeout: string }) => void;
}) {
  const t = useT();
  const tid = useTestId();
  const commandId = useId();
  const timeoutId = useId();
  const problemId = useId();
  const area = useFocusOnMount<HTMLTextAreaElement>();
  return (
    <div className="card-form">
      <label htmlFor={commandId}>{t.command.editCommand}</label>
      <textarea
        id={commandId}
        ref={area}
        className="mono"
        rows={Math.min(8, Math.max(2, command.split("\n").length))}
        value={command}
        spellCheck={false}
        onChange={(e) => onChange({ command: e.target.value, timeout })}
        aria-describedby={problem ? problemId : undefined}
        data-testid={tid("edit-command")}
      />
      <label htmlFor={timeoutId}>{t.command.editTimeout(maxTimeoutSeconds)}</label>
      <input
        id={timeoutId}
        type="number"
        min={1}
        max={maxTimeoutSeconds}
        step={1}
        value={timeout}
        onChange={(e) => onChange({ command, timeout: e.target.value })}
        aria-invalid={problem !== null}
        aria-describedby={problem ? problemId : undefined}
        data-testid={tid("edit-timeout")}
      />
      {problem && (
        <p id={problemId} className="error" role="alert" data-testid={tid("edit-problem")}>
          {problem}
        </p>
      )}
    </div>
  );
}

/** What an "always allow" rule covers: index -1 is the exact command, else one of the offered prefixes. */
export interface RuleChoice {
  /** -1 for the exact command, else the index of a prefix in `ruleOffer.prefixes`. */
  pattern: number;
  /** How long the rule lasts. */
  scope: RuleScope;
}

/** The scope of an "always allow" rule, shown in words and editable, then the confirmation. */
export function AlwaysAllowForm({
  offer,
  choice,
  onChoice,
  onConfirm,
  onBack,
  busy,
}: {
  offer: RuleOffer;
  choice: RuleChoice;
  onChoice: (choice: RuleChoice) => void;
  onConfirm: () => void;
  onBack: () => void;
  busy: boolean;
}) {
  const t = useT();
  const tid = useTestId();
  const name = useId();
  // The exact command is checked first; focusing it lets the arrow keys move through the choices.
  const first = useFocusOnMount<HTMLInputElement>();
  const options = [
    { index: -1, label: t.command.ruleExact(offer.exact) },
    ...offer.prefixes.map((prefix, index) => ({
      index,
      label: t.command.rulePrefix(prefix, offer.except ?? []),
    })),
  ];
  const what = options.find((option) => option.index === choice.pattern)?.label ?? options[0]?.label ?? "";
  const scope = choice.scope === "session" ? t.command.scopeSession : t.command.scopeWorkspace;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    onConfirm();
  };
  return (
    <form className="card-form" onSubmit={submit} data-testid={tid("always-allow-form")}>
      <fieldset>
        <legend>{t.command.ruleWhat}</legend>
        {options.map((option) => (
          <label key={option.index} className="choice">
            <input
              ref={option.index === -1 ? first : undefined}
              type="radio"
              name={`${name}-pattern`}
              checked={choice.pattern === option.index}
              onChange={() => onChoice({ ...choice, pattern: option.index })}
            />
            <span className="mono-inline">{option.label}</span>
          </label>
        ))}
      </fieldset>
      <RuleScopeAndConfirm
        name={name}
        scope={choice.scope}
        onScope={(scope) => onChoice({ ...choice, scope })}
        summary={t.command.ruleSummary(what, scope)}
        onBack={onBack}
        busy={busy}
      />
    </form>
  );
}

/** The end of every "always allow" form: for this chat or the workspace, what the rule will do, confirm or go back. */
export function RuleScopeAndConfirm({
  name,
  scope,
  onScope,
  summary,
  onBack,
  busy,
}: {
  name: string;
  scope: RuleScope;
  onScope: (scope: RuleScope) => void;
  summary: string;
  onBack: () => void;
  busy: boolean;
}) {
  const t = useT();
  const tid = useTestId();
  return (
    <>
      <fieldset>
        <legend>{t.command.ruleScope}</legend>
        {(["session", "workspace"] as const).map((value) => (
          <label key={value} className="choice">
            <input
              type="radio"
              name={`${name}-scope`}
              checked={scope === value}
              onChange={() => onScope(value)}
              data-testid={tid(`rule-scope-${value}`)}
            />
            {value === "session" ? t.command.scopeSession : t.command.scopeWorkspace}
          </label>
        ))}
      </fieldset>
      <p className="muted" data-testid={tid("rule-summary")}>
        {summary}
      </p>
      <div className="card-actions">
        <button type="submit" className="primary" disabled={busy} data-testid={tid("always-allow-confirm")}>
          {t.command.ruleConfirm}
        </button>
        <button type="button" onClick={onBack}>
          {t.command.back}
        </button>
      </div>
    </>
  );
}
