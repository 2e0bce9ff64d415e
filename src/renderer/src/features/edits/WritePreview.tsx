import type { WritePreview as Preview } from "../../../../shared/commands";
import { useT } from "../../i18n/i18n";
import { useTestId } from "../commands/card-scope";
import { EditDiff } from "./EditDiff";

/**
 * On a pending command's card: the diff each file will get from the command's own writes (a heredoc or a
 * literal redirected into a file), shown only where the host knows the bytes exactly, and marked as a
 * preview. Commands after the writes may change the files too: it says so.
 */
export function WritePreview({ preview }: { preview: Preview }) {
  const t = useT();
  const tid = useTestId();
  return (
    <>
      {preview.files.map((file) => (
        <section
          key={file.path}
          className="write-preview"
          data-testid={tid("write-preview")}
          data-path={file.path}
        >
          <p className="write-preview-head">
            {t.edits.preview} <code className="edit-path">{file.path}</code>{" "}
            {file.isNew ? t.edits.shape["new-file"] : t.edits.counts(file.diff.added, file.diff.removed)}
          </p>
          <EditDiff diff={file.diff} testId={tid("write-preview-diff")} path={file.path} />
        </section>
      ))}
      {preview.then && (
        <p className="muted write-preview-head">{t.edits.previewThen(preview.then.split("\n")[0] ?? "")}</p>
      )}
    </>
  );
}
