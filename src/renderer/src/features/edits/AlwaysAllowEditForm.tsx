import type { RuleDraft } from "../../../../shared/rules";
import { useT } from "../../i18n/i18n";
import { AlwaysAllowChoiceForm, type RuleChoice } from "../commands/AlwaysAllowChoiceForm";

/** What the person picks for an "always allow" of edits: this file or every edit, for the chat or the workspace. */
export type EditRuleChoice = RuleChoice<"file" | "all">;

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
  ...form
}: {
  path: string;
  choice: EditRuleChoice;
  onChoice: (choice: EditRuleChoice) => void;
  onConfirm: () => void;
  onBack: () => void;
  busy: boolean;
}) {
  const t = useT();
  return (
    <AlwaysAllowChoiceForm
      {...form}
      options={[
        { value: "file", label: t.edits.allowThisFile(path) },
        { value: "all", label: t.edits.allowAllEdits },
      ]}
      summary={t.edits.ruleSummary}
      testIdPrefix="rule-edits"
    />
  );
}
