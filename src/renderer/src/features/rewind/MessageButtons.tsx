import { useState } from "react";
import type { UserItem } from "../../../../shared/transcript";
import { useT } from "../../i18n/i18n";
import { useMessageActions } from "./rewind-context";

/** "Rewind to here" and "Edit" on one of the person's messages, once Pi has written it (it has an entry id). */
export function MessageButtons({ item }: { item: UserItem }) {
  const t = useT();
  const actions = useMessageActions();
  // "Fork from here" asks where first when a new worktree can be made.
  const [choosing, setChoosing] = useState(false);
  const entryId = item.entryId;
  if (!actions || !entryId) return null;
  return (
    <div className="message-actions">
      <button
        type="button"
        className="small"
        title={t.rewind.rewindHint}
        onClick={() => actions.open(entryId, item.text, "rewind")}
        data-testid="rewind-button"
      >
        {t.rewind.rewind}
      </button>
      <button
        type="button"
        className="small"
        title={t.rewind.editHint}
        onClick={() => actions.open(entryId, item.text, "edit")}
        data-testid="edit-message-button"
      >
        {t.rewind.edit}
      </button>
      <button
        type="button"
        className="small"
        title={t.rewind.forkHint}
        aria-expanded={actions.forkIntoWorktree ? choosing : undefined}
        onClick={() => (actions.forkIntoWorktree ? setChoosing(!choosing) : actions.fork(entryId))}
        data-testid="fork-button"
      >
        {t.rewind.fork}
      </button>
      {choosing && actions.forkIntoWorktree && (
        <span className="fork-choice" data-testid="fork-choice">
          <span className="muted">{t.rewind.forkWhere}</span>
          <button
            type="button"
            className="small"
            onClick={() => {
              setChoosing(false);
              actions.fork(entryId, "same-folder");
            }}
            data-testid="fork-here"
          >
            {t.rewind.forkSameFolder}
          </button>
          <button
            type="button"
            className="small"
            title={t.rewind.forkWorktreeHint}
            onClick={() => {
              setChoosing(false);
              actions.fork(entryId, "worktree");
            }}
            data-testid="fork-worktree"
          >
            {t.rewind.forkWorktree}
          </button>
        </span>
      )}
    </div>
  );
}
