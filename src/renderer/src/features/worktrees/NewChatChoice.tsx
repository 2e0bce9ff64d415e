import { useEffect, useId, useState } from "react";
import type { DeskApi } from "../../../../shared/desk-api";
import type { WorkspaceInfo } from "../../../../shared/host-state";
import type { WorktreeChoice, WorktreeEntry } from "../../../../shared/worktrees";
import { useT } from "../../i18n/i18n";

/**
 * Where a new chat of one workspace starts: here (the workspace's folder), in a new worktree from a base (HEAD
 * when none is typed), or in a worktree of the repository that no chat has open (one made outside Pi Desk too).
 */
export function NewChatChoice({
  workspace,
  api,
  onChoose,
}: {
  workspace: WorkspaceInfo;
  api: DeskApi;
  onChoose: (worktree?: WorktreeChoice) => void;
}) {
  const t = useT();
  const baseId = useId();
  const [base, setBase] = useState("");
  const [existing, setExisting] = useState<WorktreeEntry[]>([]);
  // Unknown until the host answers; a folder that is not a repository (or not its top) offers "here" only.
  const [repository, setRepository] = useState<boolean | undefined>(undefined);
  const [first, setFirst] = useState<"here" | "worktree">("here");
  useEffect(() => {
    let live = true;
    api
      .listWorktrees({ workspaceId: workspace.id })
      .then((entries) => {
        if (!live) return;
        setRepository(true);
        setExisting(entries.filter((entry) => !entry.main && !entry.chatId));
      })
      .catch(() => live && setRepository(false));
    api.worktreeSettings({ workspaceId: workspace.id }).then(
      (settings) => live && setFirst(settings.first),
      () => {},
    );
    return () => {
      live = false;
    };
  }, [api, workspace.id]);
  const here = (
    <button
      type="button"
      className="small"
      onClick={() => onChoose()}
      data-testid="new-chat-here"
      data-path={workspace.path}
    >
      {t.chats.here(workspace.name)}
    </button>
  );
  // The workspace's setting says which choice comes first; a folder that is no repository offers "here" only.
  const worktreeFirst = first === "worktree" && repository === true;
  return (
    <div className="new-chat-choice">
      {!worktreeFirst && here}
      {repository === false && <span className="muted new-chat-note">{t.worktrees.notRepository}</span>}
      {repository !== false && (
        <>
          <button
            type="button"
            className="small"
            title={t.worktrees.newChatHint}
            onClick={() => onChoose(base.trim() ? { base: base.trim() } : {})}
            data-testid="new-chat-worktree"
            data-path={workspace.path}
          >
            {t.worktrees.newChat(workspace.name)}
          </button>
          <label className="new-chat-base" htmlFor={baseId}>
            <span className="muted">{t.worktrees.baseLabel}</span>
            <input
              id={baseId}
              value={base}
              placeholder="HEAD"
              onChange={(event) => setBase(event.target.value)}
              data-testid="new-chat-worktree-base"
            />
          </label>
        </>
      )}
      {worktreeFirst && here}
      {existing.map((entry) => (
        <button
          key={entry.path}
          type="button"
          className="small link"
          title={entry.path}
          onClick={() => onChoose({ path: entry.path })}
          data-testid="open-worktree"
          data-path={entry.path}
        >
          {t.worktrees.openExisting(entry.branch ?? entry.head.slice(0, 10))}
        </button>
      ))}
    </div>
  );
}
