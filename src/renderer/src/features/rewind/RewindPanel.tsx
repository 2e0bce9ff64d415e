import { useEffect, useState } from "react";
import type { RewindFile, RewindStop } from "../../../../shared/rewind";
import type { ChatApi } from "../../client/chat-api";
import { useT } from "../../i18n/i18n";
import { reasonOf } from "../../lib/format";
import { useAction } from "../../lib/use-action";
import { DiffText } from "../changes/DiffText";

/**
 * The rewind the person asked for: to before which message, and whether to edit its text first; or the
 * switch to another branch (`entryId`: the branch's first message of the person).
 */
export interface RewindAsk {
  entryId: string;
  text: string;
  mode: "rewind" | "edit" | "switch";
}

/** What the panel lists: the files and the commands stopped first (a rewind's and a switch's previews alike). */
interface Listed {
  files: RewindFile[];
  stops: RewindStop[];
}

/**
 * The preview of a rewind: each file a later command or edit changed and what happens to it (restored, kept
 * with what changed since, not recorded), the commands stopped first; Rewind or Cancel. In edit mode the
 * message's text can be changed, and the rewind sends it.
 */
export function RewindPanel({
  ask,
  api,
  onDone,
  onCancel,
}: {
  ask: RewindAsk;
  api: ChatApi;
  /** The rewind was done: the text for the composer (none when it was sent). */
  onDone: (composerText: string | undefined) => void;
  onCancel: () => void;
}) {
  const t = useT();
  const [preview, setPreview] = useState<Listed | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [text, setText] = useState(ask.text);
  const rewind = useAction();
  useEffect(() => {
    let live = true;
    const asked =
      ask.mode === "switch"
        ? api.branchPreview({ entryId: ask.entryId })
        : api.rewindPreview({ entryId: ask.entryId });
    asked.then(
      (found) => live && setPreview(found),
      (e: unknown) =>
        live && setLoadError((ask.mode === "switch" ? t.rewind.switchFailed : t.rewind.failed)(reasonOf(e))),
    );
    return () => {
      live = false;
    };
  }, [api, ask.entryId, ask.mode, t]);
  const editing = ask.mode === "edit";
  const switching = ask.mode === "switch";
  const heading = editing ? t.rewind.editHeading : switching ? t.rewind.switchHeading : t.rewind.heading;
  const confirm = () =>
    void rewind.run(
      async () => {
        if (switching) {
          onDone((await api.switchBranch({ entryId: ask.entryId })).editorText);
          return;
        }
        const sent = editing && text.trim() !== "" ? text : undefined;
        const result = await api.rewind(
          sent ? { entryId: ask.entryId, text: sent } : { entryId: ask.entryId },
        );
        onDone(sent ? undefined : result.editorText);
      },
      switching ? t.rewind.switchFailed : t.rewind.failed,
    );
  return (
    <section
      className="rewind-preview"
      data-testid="rewind-preview"
      data-mode={ask.mode}
      aria-label={heading}
    >
      <h3>{heading}</h3>
      {editing && (
        <textarea
          className="prompt-input"
          value={text}
          rows={Math.min(8, Math.max(2, text.split("\n").length))}
          onChange={(e) => setText(e.target.value)}
          data-testid="edit-message-input"
        />
      )}
      {!preview && !loadError && <p className="muted">{t.rewind.loading}</p>}
      {loadError && (
        <p className="error" role="alert">
          {loadError}
        </p>
      )}
      {preview && preview.stops.length > 0 && (
        <div className="rewind-stops">
          <p>{t.rewind.stops}</p>
          <ul>
            {preview.stops.map((stop) => (
              <li key={stop.commandId} className="mono" data-testid="rewind-stop">
                {stop.command}
                {stop.background && <span className="tag"> {t.rewind.backgroundTag}</span>}
              </li>
            ))}
          </ul>
        </div>
      )}
      {preview && preview.files.length === 0 && (
        <p className="muted">{switching ? t.rewind.switchNoFiles : t.rewind.noFiles}</p>
      )}
      {preview && preview.files.length > 0 && (
        <ul className="rewind-files">
          {preview.files.map((file) => (
            <RewindFileRow key={file.path} file={file} />
          ))}
        </ul>
      )}
      {rewind.error && (
        <p className="error" role="alert">
          {rewind.error}
        </p>
      )}
      <div className="rewind-actions">
        <button
          type="button"
          className="primary"
          disabled={!preview || rewind.busy}
          onClick={confirm}
          data-testid="rewind-confirm"
        >
          {editing ? t.rewind.confirmEdit : switching ? t.rewind.confirmSwitch : t.rewind.confirm}
        </button>
        <button type="button" disabled={rewind.busy} onClick={onCancel} data-testid="rewind-cancel">
          {t.rewind.cancel}
        </button>
      </div>
    </section>
  );
}

/** One file: its path, what happens to it, and for a kept one who changed it and how. */
function RewindFileRow({ file }: { file: RewindFile }) {
  const t = useT();
  return (
    <li
      className={`rewind-file rewind-${file.outcome}`}
      data-testid="rewind-file"
      data-path={file.path}
      data-outcome={file.outcome}
    >
      <span className="rewind-outcome">{t.rewind.outcome[file.outcome]}</span>{" "}
      <span className="mono">{file.path}</span>
      {file.changedBy && <span className="muted"> · {t.rewind.keptBy[file.changedBy]}</span>}
      {file.reason && <span className="muted"> · {file.reason}</span>}
      {file.diff && (
        <details>
          <summary>{t.rewind.showDiff}</summary>
          <DiffText text={file.diff} testId="rewind-diff" path={file.path} />
        </details>
      )}
    </li>
  );
}
