import { type ReactNode, useState } from "react";
import type { RestorePreview, RevertEntry } from "../../../../shared/changes";
import type { ChatApi } from "../../client/chat-api";
import { useT } from "../../i18n/i18n";
import { useAction } from "../../lib/use-action";
import { useTestId } from "../commands/card-scope";
import type { ChangeRecordView } from "./change-record";

/** What the controls show: the two buttons, undo's question, or a restore's preview. */
type Step = { kind: "idle" } | { kind: "confirm-undo" } | { kind: "preview"; preview: RestorePreview };

/**
 * Undo of a finished command's changes (after a confirmation) and restore of the whole workspace to before
 * it (after a preview of every file it changes), with the last result: what was put back, what changed since
 * and was left alone (each with "undo anyway"), and what could not be put back.
 */
export function RevertControls({
  command,
  api,
  files,
}: {
  command: ChangeRecordView;
  api: ChatApi;
  files: number;
}) {
  const t = useT();
  const tid = useTestId();
  const action = useAction();
  const [step, setStep] = useState<Step>({ kind: "idle" });
  /** The restore preview the last result came from: "undo anyway" of its conflicts applies it again. */
  const [previewId, setPreviewId] = useState<string | undefined>(undefined);
  const latest = command.reverts?.at(-1);
  // Once an undo put back all it could, undoing again has nothing left to do: restore stays offered.
  const undone = command.reverts?.some(
    (entry) => entry.kind === "undo" && entry.result.conflicts.length === 0,
  );

  const undo = (undoAnyway?: string[]) =>
    void action
      .run(
        () => api.undoCommand({ commandId: command.id, ...(undoAnyway ? { undoAnyway } : {}) }),
        t.changes.undoFailed,
      )
      .then(() => setStep({ kind: "idle" }));
  const preview = () =>
    void action.run(async () => {
      setStep({ kind: "preview", preview: await api.previewRestore({ commandId: command.id }) });
    }, t.changes.restoreFailed);
  const restore = (id: string, undoAnyway?: string[]) =>
    void action
      .run(
        () => api.restoreWorkspace({ previewId: id, ...(undoAnyway ? { undoAnyway } : {}) }),
        t.changes.restoreFailed,
      )
      .then(() => {
        setPreviewId(id);
        setStep({ kind: "idle" });
      });
  const anyway = (entry: RevertEntry, path: string) =>
    entry.kind === "undo" ? undo([path]) : previewId ? restore(previewId, [path]) : preview();

  return (
    <div className="revert-controls">
      {step.kind === "idle" && (
        <div className="card-actions">
          {files > 0 && !undone && (
            <button
              type="button"
              onClick={() => setStep({ kind: "confirm-undo" })}
              disabled={action.busy}
              title={t.changes.undoHint}
              data-testid={tid("undo-button")}
            >
              {action.busy ? t.changes.undoing : t.changes.undo}
            </button>
          )}
          <button
            type="button"
            onClick={preview}
            disabled={action.busy}
            title={t.changes.restoreHint}
            data-testid={tid("restore-button")}
          >
            {action.busy ? t.changes.previewing : t.changes.restore}
          </button>
        </div>
      )}
      {step.kind === "confirm-undo" && (
        <ConfirmStep
          confirm={t.changes.undoConfirmButton}
          confirmTestId={tid("undo-confirm-button")}
          onConfirm={() => undo()}
          onBack={() => setStep({ kind: "idle" })}
          busy={action.busy}
        >
          <p>{t.changes.undoConfirm(files)}</p>
        </ConfirmStep>
      )}
      {step.kind === "preview" && (
        <ConfirmStep
          testId={tid("restore-preview")}
          confirm={step.preview.changes.files.length > 0 ? t.changes.restoreConfirmButton : undefined}
          confirmTestId={tid("restore-confirm-button")}
          onConfirm={() => restore(step.preview.previewId)}
          onBack={() => setStep({ kind: "idle" })}
          busy={action.busy}
        >
          <p>{t.changes.restorePreview(step.preview.changes.files.length)}</p>
          <ul className="restore-preview-files">
            {step.preview.changes.files.map((file) => (
              <li key={file.path} className="mono" data-path={file.path} data-change={file.kind}>
                {t.changes.kind[file.kind]} {file.path}
              </li>
            ))}
          </ul>
        </ConfirmStep>
      )}
      {action.error ? (
        <p className="error" role="alert" data-testid={tid("undo-result")} data-state="failed">
          {action.error}
        </p>
      ) : (
        latest && (
          <RevertResultView entry={latest} onAnyway={(path) => anyway(latest, path)} busy={action.busy} />
        )
      )}
    </div>
  );
}

/** A question before a change to the workspace: what it will do, the button that does it, and Back. */
function ConfirmStep({
  children,
  testId,
  confirm,
  confirmTestId,
  onConfirm,
  onBack,
  busy,
}: {
  children: ReactNode;
  testId?: string;
  /** The confirming button's label; absent when there is nothing to confirm. */
  confirm: string | undefined;
  confirmTestId: string;
  onConfirm: () => void;
  onBack: () => void;
  busy: boolean;
}) {
  const t = useT();
  return (
    <div className="revert-step" data-testid={testId}>
      {children}
      <div className="card-actions">
        {confirm && (
          <button
            type="button"
            className="danger"
            onClick={onConfirm}
            disabled={busy}
            data-testid={confirmTestId}
          >
            {confirm}
          </button>
        )}
        <button type="button" onClick={onBack} disabled={busy}>
          {t.changes.back}
        </button>
      </div>
    </div>
  );
}

/** What the last undo or restore did, file by file, with "undo anyway" on each file changed since. */
function RevertResultView({
  entry,
  onAnyway,
  busy,
}: {
  entry: RevertEntry;
  onAnyway: (path: string) => void;
  busy: boolean;
}) {
  const t = useT();
  const tid = useTestId();
  const { restored, conflicts, refused } = entry.result;
  const state = conflicts.length > 0 ? "conflicts" : refused.length > 0 ? "refused" : "done";
  return (
    <div
      className={`undo-result undo-${state}`}
      data-testid={tid("undo-result")}
      data-kind={entry.kind}
      data-state={state}
      data-restored={restored.length}
    >
      <strong>{t.changes.resultHeading[entry.kind]}: </strong>
      {restored.length > 0 ? t.changes.restored(restored.join(", ")) : t.changes.nothingRestored}
      {conflicts.length > 0 && (
        <>
          <p>{t.changes.conflicts}</p>
          <ul>
            {conflicts.map((conflict) => (
              <li key={conflict.path} data-path={conflict.path}>
                <span className="mono">{conflict.path}</span> <span className="muted">{conflict.reason}</span>{" "}
                <button
                  type="button"
                  className="danger"
                  onClick={() => onAnyway(conflict.path)}
                  disabled={busy}
                  data-testid={tid("undo-anyway-button")}
                >
                  {t.changes.undoAnyway}
                </button>
              </li>
            ))}
          </ul>
        </>
      )}
      {refused.length > 0 && (
        <>
          <p>{t.changes.refused}</p>
          <ul>
            {refused.map((refusal) => (
              <li key={`${refusal.path}:${refusal.reason}`} data-path={refusal.path}>
                {refusal.path && <span className="mono">{refusal.path}: </span>}
                {refusal.reason}
              </li>
            ))}
          </ul>
        </>
      )}
    </div>
  );
}
