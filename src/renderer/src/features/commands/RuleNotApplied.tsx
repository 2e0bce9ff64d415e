import type { CommandView } from "../../../../shared/commands";
import { useT } from "../../i18n/i18n";
import { useTestId } from "./card-scope";

/**
 * Why an "always allow" rule that starts like this command did not spare the question: an argument after
 * the rule's prefix runs another program or writes a file, so the person decides this one.
 */
export function RuleNotApplied({ command }: { command: CommandView }) {
  const t = useT();
  const tid = useTestId();
  const missed = command.ruleNotApplied;
  if (!missed) return null;
  return (
    <p
      className="muted rule-not-applied"
      data-testid={tid("rule-not-applied")}
      data-argument={missed.argument}
      data-effect={missed.effect}
    >
      {t.command.ruleNotApplied(missed.pattern, missed.argument, missed.effect)}
    </p>
  );
}
