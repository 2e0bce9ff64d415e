import { type ReactNode, useState } from "react";
import type { UserItem } from "../../../../shared/transcript";
import { useT } from "../../i18n/i18n";
import { useMessageActions } from "./rewind-context";

/** "Rewind to here", "Edit" and "Fork from here" on one of the person's messages, once Pi has written it (it has an entry id). */
export function MessageButtons({ item }: { item: UserItem }) {
  const t = useT();
  const actions = useMessageActions();
  // "Fork from here" asks where first when a new worktree can be made.
  const [choosing, setChoosing] = useState(false);
  const entryId = item.entryId;
  if (!actions || !entryId) return null;
  const forkAsks = actions.forkIntoWorktree;
  const forkTo = (where: "same-folder" | "worktree") => {
    setChoosing(false);
    actions.fork(entryId, where);
  };
  return (
    <div className="message-actions">
      <Small
        testId="rewind-button"
        title={t.rewind.rewindHint}
        onClick={() => actions.open(entryId, item.text, "rewind")}
      >
        {t.rewind.rewind}
      </Small>
      <Small
        testId="edit-message-button"
        title={t.rewind.editHint}
        onClick={() => actions.open(entryId, item.text, "edit")}
      >
        {t.rewind.edit}
      </Small>
      <Small
        testId="fork-button"
        title={t.rewind.forkHint}
        expanded={forkAsks ? choosing : undefined}
        onClick={() => (forkAsks ? setChoosing(!choosing) : actions.fork(entryId))}
      >
        {t.rewind.fork}
      </Small>
      {choosing && forkAsks && (
        <span className="fork-choice" data-testid="fork-choice">
          <span className="muted">{t.rewind.forkWhere}</span>
          <Small testId="fork-here" onClick={() => forkTo("same-folder")}>
            {t.rewind.forkSameFolder}
          </Small>
          <Small testId="fork-worktree" title={t.rewind.forkWorktreeHint} onClick={() => forkTo("worktree")}>
            {t.rewind.forkWorktree}
          </Small>
        </span>
      )}
    </div>
  );
}

/** One of the message's small buttons. */
function Small(props: {
  testId: string;
  title?: string;
  expanded?: boolean | undefined;
  onClick: () => void;
  children: ReactNode;
}) {
  return (
    <button
      type="button"
      className="small"
      title={props.title}
      aria-expanded={props.expanded}
      onClick={props.onClick}
      data-testid={props.testId}
    >
      {props.children}
    </button>
  );
}
