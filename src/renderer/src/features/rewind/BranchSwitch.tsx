import type { BranchPoint } from "../../../../shared/branches";
import { useT } from "../../i18n/i18n";
import { useMessageActions } from "./rewind-context";

/**
 * Where the conversation branched (Pi's tree): the other ways from here, each switching the chat to it
 * (its conversation and its files) through the same preview a rewind has.
 */
export function BranchSwitch({ point }: { point: BranchPoint }) {
  const t = useT();
  const actions = useMessageActions();
  if (!actions) return null;
  return (
    <fieldset className="branch-point" data-testid="branch-point">
      <legend className="muted">{t.rewind.branched}</legend>
      {point.branches.map((branch) => (
        <button
          key={branch.entryId}
          type="button"
          className="small branch-switch"
          title={t.rewind.branchHint}
          onClick={() => actions.open(branch.entryId, branch.text, "switch")}
          data-testid="branch-switch"
          data-entry-id={branch.entryId}
        >
          “{branch.text}” <span className="muted">· {t.rewind.branchMessages(branch.messages)}</span>
        </button>
      ))}
    </fieldset>
  );
}
