import { useCallback, useEffect, useId, useState } from "react";
import type { BringResult, WorktreeReview } from "../../../../shared/worktrees";
import type { ChatApi } from "../../client/chat-api";
import { useT } from "../../i18n/i18n";
import { useAction } from "../../lib/use-action";
import { DiffText } from "../changes/DiffText";

/**
 * A worktree chat's review: every file it changed against its base (commits on its branch and files not
 * committed), each with its diff; then Bring into the workspace (all or nothing, the conflicts listed), Keep
 * the branch (with an editable commit message) and Discard (after a confirmation naming what would be lost).
 */
export function ReviewView({ branch, api }: { branch: string; api: ChatApi }) {
  const t = useT();
  const headingId = useId();
  const messageId = useId();
  const [review, setReview] = useState<WorktreeReview | null>(null);
  const [brought, setBrought] = useState<BringResult | null>(null);
  const [message, setMessage] = useState(t.worktrees.keepDefault);
  const load = useAction();
  const act = useAction();
  const { run } = load;
  const refresh = useCallback(() => run(async () => setReview(await api.reviewWorktree())), [api, run]);
  useEffect(() => {
    void refresh();
  }, [refresh]);

  const bring = () =>
    act.run(async () => {
      setBrought(await api.bringIntoWorkspace());
    });
  const keep = () => act.run(() => api.keepBranch({ message }));
  const discard = () =>
    act.run(async () => {
      // The confirmation names what would be lost as it is now, not as the review last showed it.
      const now = await api.reviewWorktree();
      setReview(now);
      const lost = t.worktrees.discardConfirm(branch, now.files.length, now.commits.length, now.uncommitted);
      if (window.confirm(lost)) await api.discardWorktree();
    });

  return (
    <section className="review-view" aria-labelledby={headingId} data-testid="review-view">
      <div className="section-head">
        <h2 id={headingId}>{t.worktrees.reviewHeading}</h2>
        <button type="button" className="small" disabled={load.busy} onClick={() => void refresh()}>
          {t.worktrees.refresh}
        </button>
      </div>
      {load.error && (
        <p className="error" role="alert">
          {t.worktrees.loadFailed(load.error)}
        </p>
      )}
      {!review && !load.error && <p className="muted">{t.worktrees.loading}</p>}
      {review && (
        <>
          <p className="muted review-meta">
            {t.worktrees.against(review.base)} · {t.worktrees.commits(review.commits.length)} ·{" "}
            {t.worktrees.uncommitted(review.uncommitted)}
          </p>
          {review.files.length === 0 ? (
            <p className="muted">{t.worktrees.nothing}</p>
          ) : (
            <ul className="review-files">
              {review.files.map((file) => (
                <li key={file.path} data-testid="review-file" data-path={file.path} data-status={file.status}>
                  <details>
                    <summary>
                      <span className="review-path">{file.path}</span>{" "}
                      <span className="muted">
                        {t.worktrees.status[file.status]}
                        {file.oldPath ? ` ${t.worktrees.renamedFrom(file.oldPath)}` : ""}
                        {file.binary ? "" : ` +${file.added} -${file.removed}`}
                      </span>
                    </summary>
                    {file.binary ? (
                      <p className="muted">{t.worktrees.binary}</p>
                    ) : (
                      file.diff && <DiffText text={file.diff} testId="review-diff" path={file.path} />
                    )}
                    {file.truncated && <p className="muted">{t.worktrees.truncated}</p>}
                  </details>
                </li>
              ))}
            </ul>
          )}
        </>
      )}
      {brought && <BringOutcome result={brought} />}
      <div className="review-actions">
        <button
          type="button"
          className="primary small"
          title={t.worktrees.bringHint}
          disabled={act.busy}
          onClick={() => void bring()}
          data-testid="bring-into-workspace-button"
        >
          {t.worktrees.bring}
        </button>
        <label htmlFor={messageId} className="visually-hidden">
          {t.worktrees.keepMessage}
        </label>
        <input
          id={messageId}
          className="review-message"
          value={message}
          placeholder={t.worktrees.keepMessage}
          onChange={(event) => setMessage(event.target.value)}
          data-testid="keep-branch-message"
        />
        <button
          type="button"
          className="small"
          title={t.worktrees.keepHint}
          disabled={act.busy}
          onClick={() => void keep()}
          data-testid="keep-branch-button"
        >
          {t.worktrees.keep}
        </button>
        <button
          type="button"
          className="danger small"
          disabled={act.busy}
          onClick={() => void discard()}
          data-testid="discard-worktree-button"
        >
          {t.worktrees.discard}
        </button>
      </div>
      {act.error && (
        <p className="error" role="alert">
          {act.error}
        </p>
      )}
    </section>
  );
}

/** What Bring into the workspace did: the files brought, or nothing and each conflicting file. */
function BringOutcome({ result }: { result: BringResult }) {
  const t = useT();
  if (result.applied) {
    return (
      <p className="review-brought" role="status" data-testid="bring-result" data-applied="true">
        {t.worktrees.brought(result.files.length)}
      </p>
    );
  }
  return (
    <div className="review-conflicts" role="alert" data-testid="bring-result" data-applied="false">
      {result.conflicts.length > 0 ? (
        <>
          <p>{t.worktrees.conflictsHeading}</p>
          <ul>
            {result.conflicts.map((conflict) => (
              <li key={conflict.path} data-testid="bring-conflict" data-path={conflict.path}>
                <span className="review-path">{conflict.path}</span>{" "}
                <span className="muted">{t.worktrees.conflict[conflict.reason]}</span>
              </li>
            ))}
          </ul>
        </>
      ) : (
        <p>{t.worktrees.bringFailed(result.detail ?? "")}</p>
      )}
    </div>
  );
}
