import { type FormEvent, useId } from "react";
import type { RuleDraft, RuleScope } from "../../../../shared/rules";
import { useT } from "../../i18n/i18n";
import { useTestId } from "../commands/card-scope";
import { RuleScopeAndConfirm, useFocusOnMount } from "../commands/PendingForms";

/** What the person picks for an "always allow" of edits: this file or every edit, for the chat or the workspace. */
export interface EditRuleChoice {
  what: "file" | "all";
  scope: RuleScope;
}

/** The rule a choice makes. */
export function editRule(path: string, choice: EditRuleChoice): RuleDraft {
  return choice.what === "file"
    ? { effect: "allow", match: "file", pattern: path, scope: choice.scope }
    : { effect: "allow", match: "any-file", pattern: "*", scope: choice.scope };
}

/**
 * "Always allow" for an edit: edits to this file, or every edit in the workspace, for this chat or for the
 * workspace. An edit a rule accepts still shows its card with the diff and Undo; protected files always ask.
 */
export function AlwaysAllowEditForm({
  path,
  choice,
  onChoice,
  onConfirm,
  onBack,
  busy,
}: {
  path: string;
  choice: EditRuleChoice;
  onChoice: (choice: EditRuleChoice) => void;
  onConfirm: () => void;
  onBack: () => void;
  busy: boolean;
}) {
  const t = useT();
  const tid = useTestId();
  const name = useId();
  const first = useFocusOnMount<HTMLInputElement>();
  const options = [
    { value: "file" as const, label: t.edits.allowThisFile(path) },
    { value: "all" as const, label: t.edits.allowAllEdits },
  ];
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
        {options.map((option) => (
          <label key={option.value} className="choice">
            <input
              ref={option.value === "file" ? first : undefined}
              type="radio"
              name={`${name}-what`}
              checked={choice.what === option.value}
              onChange={() => onChoice({ ...choice, what: option.value })}
              data-testid={tid(`rule-edits-${option.value}`)}
            />
            {option.label}
          </label>
        ))}
      </fieldset>
      <RuleScopeAndConfirm
        name={name}
        scope={choice.scope}
        onScope={(scope) => onChoice({ ...choice, scope })}
        summary={t.edits.ruleSummary(what, scope)}
        onBack={onBack}
        busy={busy}
      />
    </form>
  );
}
