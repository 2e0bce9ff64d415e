import { useState } from "react";
import type { ChatApi } from "../../client/chat-api";
import { useT } from "../../i18n/i18n";
import { useTestId } from "../commands/card-scope";
import type { ChangeRecordView } from "./change-record";
import { FileChangeRow, hasTextDiff } from "./FileChangeRow";
import { RevertControls } from "./RevertControls";

/** Diffs opened at once when the list is expanded: a small change reads at a glance. */
const DIFFS_OPENED_AT_ONCE = 5;

/**
 * What an ended command changed in the workspace: "Changed 3 files (+12 -4)", which expands to each file
 * with its diff, then undo and restore. Says so when nothing was recorded, and when other commands ran at
 * the same time (their changes may be mixed in).
 */
export function ChangesSection({ command, api }: { command: ChangeRecordView; api: ChatApi }) {
  const t = useT();
  const tid = useTestId();
  const [open, setOpen] = useState(false);
  const changes = command.changes;
  if (!changes) return null;
  if (!changes.recorded) {
    return (
      <p className="muted changes-off" data-testid={tid("changes-off")}>
        {t.changes.notRecorded(changes.reason)}
      </p>
    );
  }
  const textFiles = changes.files.filter(hasTextDiff).slice(0, DIFFS_OPENED_AT_ONCE);
  const names = changes.overlapping
    .map(({ commandId, command: text }) => (text ? `\`${text.split("\n")[0]}\`` : commandId))
    .join(", ");
  return (
    <section className="changes">
      <button
        type="button"
        className="changes-summary"
        onClick={() => setOpen(!open)}
        aria-expanded={open}
        disabled={changes.totalFiles === 0}
        data-testid={tid("changes-summary")}
        data-files={changes.totalFiles}
      >
        {changes.totalFiles > 0 && <span aria-hidden="true">{open ? "▾ " : "▸ "}</span>}
        {t.changes.summary(changes.totalFiles, changes.added, changes.removed)}
      </button>
      {changes.overlapping.length > 0 && (
        <p className="muted" data-testid={tid("changes-overlap")}>
          {t.changes.overlap(names)}
        </p>
      )}
      {changes.nestedRepositories.length > 0 && (
        <p className="muted">{t.changes.nested(changes.nestedRepositories.join(", "))}</p>
      )}
      {open && (
        <ul className="changes-files">
          {changes.files.map((file) => (
            <FileChangeRow
              key={file.path}
              file={file}
              commandId={command.id}
              api={api}
              initiallyOpen={textFiles.includes(file)}
            />
          ))}
          {changes.totalFiles > changes.files.length && (
            <li className="muted">{t.changes.more(changes.totalFiles - changes.files.length)}</li>
          )}
        </ul>
      )}
      {command.changesDropped ? (
        <p className="muted" data-testid={tid("changes-dropped")}>
          {t.changes.dropped}
        </p>
      ) : (
        <RevertControls command={command} api={api} files={changes.totalFiles} />
      )}
    </section>
  );
}
