import { useEffect, useId, useState } from "react";
import type { AuditEntry } from "../../../../shared/rules";
import type { ChatApi } from "../../client/chat-api";
import { useI18n, useT } from "../../i18n/i18n";
import { formatBytes, reasonOf } from "../../lib/format";

/** How many entries a search shows; the audit log may hold far more. */
const HISTORY_LIMIT = 200;
/** Wait for a pause in typing before asking the host, so each keystroke is not a read of the log. */
const SEARCH_DELAY_MS = 250;

/** The workspace's command decisions, newest first, searchable by text. */
export function HistoryView({ api, refreshKey }: { api: ChatApi; refreshKey?: unknown }) {
  const { t, language } = useI18n();
  const searchId = useId();
  const [query, setQuery] = useState("");
  const [entries, setEntries] = useState<AuditEntry[] | null>(null);
  const [error, setError] = useState<string | null>(null);

  // biome-ignore lint/correctness/useExhaustiveDependencies: refreshKey only says when to read again.
  useEffect(() => {
    let current = true;
    const timer = setTimeout(
      () => {
        const trimmed = query.trim();
        api.getHistory(trimmed ? { query: trimmed, limit: HISTORY_LIMIT } : { limit: HISTORY_LIMIT }).then(
          (found) => {
            if (!current) return;
            setEntries(found);
            setError(null);
          },
          (e: unknown) => current && setError(t.history.failed(reasonOf(e))),
        );
      },
      entries === null ? 0 : SEARCH_DELAY_MS,
    );
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [api, query, refreshKey, t]);

  const time = new Intl.DateTimeFormat(language, { dateStyle: "short", timeStyle: "medium" });
  return (
    <div className="history" data-testid="history-view">
      <h2>{t.history.heading}</h2>
      <label htmlFor={searchId} className="visually-hidden">
        {t.history.search}
      </label>
      <input
        id={searchId}
        type="search"
        className="history-search"
        placeholder={t.history.search}
        value={query}
        onChange={(e) => setQuery(e.target.value)}
        data-testid="history-search"
      />
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      {entries?.length === 0 && <p className="muted">{query.trim() ? t.history.noMatch : t.history.none}</p>}
      {entries && entries.length > 0 && (
        <ol className="history-list">
          {entries.map((entry) => (
            <li
              // Host lines of one command can share their millisecond: the host and port tell them apart.
              key={`${entry.commandId}-${entry.event}-${entry.at}-${entry.host ?? ""}-${entry.port ?? ""}`}
              className="history-entry"
              data-testid="history-entry"
            >
              <div className="history-head">
                <span className={`tag history-${entry.event}`}>{t.history.events[entry.event]}</span>
                <span className="muted">{t.history.by[entry.by]}</span>
                {entry.exitCode !== undefined && entry.exitCode !== null && (
                  <span className="muted">{t.history.exit(entry.exitCode)}</span>
                )}
                {entry.status && entry.event === "finished" && <span className="muted">{entry.status}</span>}
                {entry.edited && <span className="tag">{t.command.edited}</span>}
                <time className="muted history-time" dateTime={new Date(entry.at).toISOString()}>
                  {time.format(entry.at)}
                </time>
              </div>
              {entry.kind === "mcp-call" ? (
                <code className="history-command" data-testid="history-tool">
                  {entry.server}/{entry.tool} {entry.arguments ?? ""}
                </code>
              ) : (
                <code className="history-command">{entry.command}</code>
              )}
              {entry.parentToolCallId && (
                <p className="muted" data-testid="history-from-script">
                  {t.mcp.script.fromScript(entry.parentToolCallId)}
                </p>
              )}
              {entry.script !== undefined && (
                <details className="history-script">
                  <summary className="muted">{t.history.script}</summary>
                  <pre className="mono" data-testid="history-script">
                    {entry.script}
                  </pre>
                </details>
              )}
              {entry.host !== undefined && <HostLine entry={entry} />}
              {entry.files && (
                <p className="muted" data-testid="history-rewind-files">
                  {t.history.rewindFiles(entry.files.restored, entry.files.kept, entry.files.notRecorded)}
                </p>
              )}
              {entry.rule && <p className="muted">{t.history.rule(entry.rule)}</p>}
              {entry.reason && <p className="history-reason">{entry.reason}</p>}
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}

/** A host line of the audit log: which host, and the bytes (reached) or why (refused). */
function HostLine({ entry }: { entry: AuditEntry }) {
  const t = useT();
  const where = entry.port ? `${entry.host}:${entry.port}` : entry.host;
  return (
    <p className="muted" data-testid="history-host">
      <code>{where}</code>{" "}
      {entry.allowed
        ? t.network.bytes(formatBytes(entry.bytesUp ?? 0), formatBytes(entry.bytesDown ?? 0))
        : entry.refusal
          ? t.network.refusal[entry.refusal]
          : ""}
    </p>
  );
}
