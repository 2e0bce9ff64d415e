import { useCallback, useEffect, useId, useState } from "react";
import type { HostState, SessionSummary } from "../../../../shared/host-state";
import type { ChatApi } from "../../client/chat-api";
import { useI18n } from "../../i18n/i18n";
import { reasonOf } from "../../lib/format";
import { useAction } from "../../lib/use-action";

/** Start a new chat, or reopen one of the workspace's past chats. */
export function SessionList({
  host,
  api,
  onShow,
}: {
  host: HostState;
  api: ChatApi;
  onShow: (chatId: string) => void;
}) {
  const { t, language } = useI18n();
  const headingId = useId();
  const [sessions, setSessions] = useState<SessionSummary[] | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const action = useAction();
  const workspacePath = host.workspace?.path;
  const current = host.session;

  const load = useCallback(() => {
    setLoadError(null);
    api.listSessions().then(setSessions, (e: unknown) => setLoadError(t.sessions.loadFailed(reasonOf(e))));
  }, [api, t]);
  // A new or reopened chat, or another workspace, changes the list: read it again then. So does the end of
  // a turn: Pi writes a new chat's file only once it has a message, after the file's name is known.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the ids are the triggers, not inputs.
  useEffect(() => {
    if (workspacePath) load();
  }, [workspacePath, current?.id, current?.file, current?.running, load]);

  if (!workspacePath) return null;
  const date = new Intl.DateTimeFormat(language, { dateStyle: "medium", timeStyle: "short" });
  return (
    <section className="session-list" aria-labelledby={headingId}>
      <div className="section-head">
        <h2 id={headingId}>{t.sessions.heading}</h2>
        <button
          type="button"
          className="primary small"
          disabled={action.busy}
          onClick={() => action.run(async () => onShow((await api.newSession()).id))}
          data-testid="new-session"
        >
          {t.sessions.newChat}
        </button>
      </div>
      {action.error && (
        <p className="error" role="alert">
          {action.error}
        </p>
      )}
      {loadError && (
        <p className="error" role="alert">
          {loadError}{" "}
          <button type="button" className="link" onClick={load}>
            {t.sessions.reload}
          </button>
        </p>
      )}
      {sessions && sessions.length === 0 && <p className="muted">{t.sessions.none}</p>}
      {sessions && sessions.length > 0 && (
        <ul className="sessions" aria-label={t.sessions.past}>
          {sessions.map((summary) => {
            const isCurrent = summary.id === current?.id || summary.path === current?.file;
            return (
              <li key={summary.path}>
                <button
                  type="button"
                  className="session-item"
                  aria-current={isCurrent ? "true" : undefined}
                  disabled={action.busy}
                  onClick={() =>
                    !isCurrent &&
                    action.run(async () => onShow((await api.openSession({ path: summary.path })).id))
                  }
                  title={summary.path}
                  data-testid="session-item"
                >
                  <span className="session-title">{summary.title || summary.id}</span>
                  <span className="muted session-meta">
                    {date.format(summary.modified)} · {t.sessions.messages(summary.messageCount)}
                    {isCurrent ? ` · ${t.sessions.current}` : ""}
                  </span>
                </button>
              </li>
            );
          })}
        </ul>
      )}
      {current?.file && (
        <p className="muted session-file" title={t.sessions.file}>
          {t.sessions.file}: <span className="mono">{current.file}</span>
        </p>
      )}
    </section>
  );
}
