import { type FormEvent, useId } from "react";
import type { RuleScope } from "../../../../shared/rules";
import { useT } from "../../i18n/i18n";
import { useTestId } from "./card-scope";
import { RuleScopeAndConfirm, useFocusOnMount } from "./PendingForms";

/** What the person picks in an "always allow" of a choice: what the rule covers, and for how long. */
export interface RuleChoice<What extends string> {
  what: What;
  scope: RuleScope;
}

/**
 * "Always allow" as a choice of what the rule covers (one option per radio button, the first focused), then
 * the scope and a confirmation that says the rule in words: the form of an edit's and an MCP call's card.
 */
export function AlwaysAllowChoiceForm<What extends string>({
  options,
  choice,
  onChoice,
  summary,
  testIdPrefix,
  onConfirm,
  onBack,
  busy,
}: {
  options: { value: What; label: string }[];
  choice: RuleChoice<What>;
  onChoice: (choice: RuleChoice<What>) => void;
  /** The rule in words, from what it covers and its scope. */
  summary: (what: string, scope: string) => string;
  /** Each radio button's test id is this, a dash, and its value. */
  testIdPrefix: string;
  onConfirm: () => void;
  onBack: () => void;
  busy: boolean;
}) {
  const t = useT();
  const tid = useTestId();
  const name = useId();
  const first = useFocusOnMount<HTMLInputElement>();
  const what = options.find((option) => option.value === choice.what)?.label ?? "";
  const scope = choice.scope === "session" ? t.command.scopeSession : t.command.scopeWorkspace;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    onConfirm();
  };
  return (
    <form className="card-form" onSubmit={submit} data-testid={tid("always-allow-form")}>
      <fieldset>
        <legend>{t.command.ruleWhat}</legend>
        {options.map((option, index) => (
          <label key={option.value} className="choice">
            <input
              ref={index === 0 ? first : undefined}
              type="radio"
              name={`${name}-what`}
              checked={choice.what === option.value}
              onChange={() => onChoice({ ...choice, what: option.value })}
              data-testid={tid(`${testIdPrefix}-${option.value}`)}
            />
            {option.label}
          </label>
        ))}
      </fieldset>
      <RuleScopeAndConfirm
        name={name}
        scope={choice.scope}
        onScope={(scope) => onChoice({ ...choice, scope })}
        summary={summary(what, scope)}
        onBack={onBack}
        busy={busy}
      />
    </form>
  );
}
