import { useEffect, useState } from "react";
import type { FileChange, FileDiff } from "../../../../shared/changes";
import type { ChatApi } from "../../client/chat-api";
import { useT } from "../../i18n/i18n";
import { formatBytes, reasonOf } from "../../lib/format";
import { useTestId } from "../commands/card-scope";
import { DiffText } from "./DiffText";

/** A file's sizes before and after, as "12 KB → 14 KB". */
function sizes(file: FileChange): string {
  const before = file.oldSize === undefined ? undefined : formatBytes(file.oldSize);
  const after = file.newSize === undefined ? undefined : formatBytes(file.newSize);
  return [before, after].filter(Boolean).join(" → ");
}

/** Whether the file has a text diff to show: not binary, not over the size limit. */
export function hasTextDiff(file: FileChange): boolean {
  return !file.binary && !file.oversized;
}

/** One file a command changed: its kind of change, line counts or sizes, and its diff on request. */
export function FileChangeRow({
  file,
  commandId,
  api,
  initiallyOpen,
}: {
  file: FileChange;
  commandId: string;
  api: ChatApi;
  initiallyOpen: boolean;
}) {
  const t = useT();
  const tid = useTestId();
  // A mode or type change opens on request only: its "diff" is two modes the row already shows.
  const [open, setOpen] = useState(
    initiallyOpen && hasTextDiff(file) && file.kind !== "mode" && file.kind !== "type",
  );
  const [diff, setDiff] = useState<FileDiff | { error: string } | undefined>(undefined);
  useEffect(() => {
    if (!open || diff) return;
    let live = true;
    api.commandDiff({ commandId, path: file.path }).then(
      (next) => live && setDiff(next),
      (error: unknown) => live && setDiff({ error: reasonOf(error) }),
    );
    return () => {
      live = false;
    };
  }, [open, diff, api, commandId, file.path]);
  const facts = file.oversized
    ? t.changes.oversized(sizes(file))
    : file.binary
      ? t.changes.binary(sizes(file))
      : file.kind === "mode" || file.kind === "type"
        ? `${file.oldMode ?? ""} → ${file.newMode ?? ""}`
        : undefined;
  return (
    <li
      className={`changes-file change-${file.kind}`}
      data-testid={tid("changes-file")}
      data-path={file.path}
      data-change={file.kind}
    >
      <div className="changes-file-line">
        <span className="change-kind">{t.changes.kind[file.kind]}</span>
        <span className="mono changes-path">
          {file.oldPath ? `${file.oldPath} → ${file.path}` : file.path}
        </span>
        {facts ? (
          <span className="muted">{facts}</span>
        ) : (
          <span className="change-lines">
            <span className="diff-add">+{file.added}</span> <span className="diff-del">-{file.removed}</span>
          </span>
        )}
        {hasTextDiff(file) && (
          <button type="button" className="link" onClick={() => setOpen(!open)} aria-expanded={open}>
            {open ? t.changes.hideDiff : t.changes.showDiff}
          </button>
        )}
      </div>
      {open &&
        (diff === undefined ? (
          <p className="muted">{t.changes.loadingDiff}</p>
        ) : "error" in diff ? (
          <p className="error">{t.changes.diffFailed(diff.error)}</p>
        ) : diff.text ? (
          <>
            <DiffText text={diff.text} testId={tid("changes-diff")} path={file.path} />
            {diff.truncated && <p className="muted">{t.changes.diffCut}</p>}
          </>
        ) : (
          <p className="muted">{diff.note ?? t.changes.noDiff}</p>
        ))}
    </li>
  );
}
