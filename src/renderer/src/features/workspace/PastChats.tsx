import { memo, useCallback, useEffect, useState } from "react";
import type { DeskApi } from "../../../../shared/desk-api";
import type { SessionSummary, WorkspaceInfo } from "../../../../shared/host-state";
import { useI18n } from "../../i18n/i18n";
import { reasonOf } from "../../lib/format";
import { useAction } from "../../lib/use-action";

/** How many past chats a workspace lists before "Show all": the sidebar is shared by every workspace. */
const SHOWN_AT_FIRST = 5;

/**
 * A workspace's past chats (Pi's session files in its folder), under its open ones: those open are listed
 * above, not here. A click opens one beside the others.
 */
export const PastChats = memo(function PastChats({
  workspace,
  openFiles,
  refreshKey,
  api,
  onShow,
}: {
  workspace: WorkspaceInfo;
  /** The session files of the chats open now. */
  openFiles: ReadonlySet<string>;
  /** Changes when the list may have changed: a chat opened, closed, or ended a turn (Pi then writes its file). */
  refreshKey: string;
  api: DeskApi;
  onShow: (chatId: string) => void;
}) {
  const { t, language } = useI18n();
  const [sessions, setSessions] = useState<SessionSummary[] | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [all, setAll] = useState(false);
  const action = useAction();
  const workspaceId = workspace.id;

  const load = useCallback(() => {
    setLoadError(null);
    api
      .listSessions({ workspaceId })
      .then(setSessions, (e: unknown) => setLoadError(t.sessions.loadFailed(reasonOf(e))));
  }, [api, workspaceId, t]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the key is the trigger, not an input.
  useEffect(load, [load, refreshKey]);

  const past = (sessions ?? []).filter((summary) => !openFiles.has(summary.path));
  const shown = all ? past : past.slice(0, SHOWN_AT_FIRST);
  const date = new Intl.DateTimeFormat(language, { dateStyle: "medium", timeStyle: "short" });
  return (
    <div className="past-chats">
      {(action.error || loadError) && (
        <p className="error" role="alert">
          {action.error ?? loadError}{" "}
          {loadError && (
            <button type="button" className="link" onClick={load}>
              {t.sessions.reload}
            </button>
          )}
        </p>
      )}
      {sessions && past.length === 0 && <p className="muted past-chats-none">{t.sessions.none}</p>}
      {past.length > 0 && <h4 className="past-chats-heading">{t.sessions.heading}</h4>}
      {past.length > 0 && (
        <ul className="sessions" aria-label={t.sessions.pastIn(workspace.name)}>
          {shown.map((summary) => (
            <li key={summary.path}>
              <button
                type="button"
                className="session-item"
                disabled={action.busy}
                onClick={() =>
                  action.run(async () =>
                    onShow((await api.openSession({ workspaceId, path: summary.path })).id),
                  )
                }
                title={summary.worktree ? t.sessions.inWorktree(summary.worktree) : summary.path}
                data-testid="session-item"
                data-worktree={summary.worktree}
              >
                <span className="session-title">{summary.title || summary.id}</span>
                {summary.worktree && (
                  <span className="chat-item-branch">{summary.branch ?? t.sessions.detached}</span>
                )}
                <span className="muted session-meta">
                  {date.format(summary.modified)} · {t.sessions.messages(summary.messageCount)}
                </span>
              </button>
            </li>
          ))}
        </ul>
      )}
      {past.length > shown.length && (
        <button type="button" className="link small" onClick={() => setAll(true)}>
          {t.sessions.showAll(past.length)}
        </button>
      )}
    </div>
  );
});
