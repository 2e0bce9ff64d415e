import { memo, useState } from "react";
import type { ChangesState } from "../../../../shared/changes";
import type { WorkspaceInfo } from "../../../../shared/host-state";
import type { ChatApi } from "../../client/chat-api";
import { useT } from "../../i18n/i18n";
import { SnapshotProgress } from "../changes/SnapshotProgress";

/** The open workspace, or the way to open one. */
export const WorkspacePanel = memo(function WorkspacePanel({
  workspace,
  changes,
  canChooseWorkspace,
  api,
}: {
  workspace: WorkspaceInfo | null;
  /** How recording the workspace's changes stands (its first snapshot's progress). */
  changes: ChangesState | undefined;
  canChooseWorkspace: boolean;
  api: ChatApi;
}) {
  const t = useT();
  const [error, setError] = useState<string | null>(null);
  const choose = () => {
    setError(null);
    api.chooseWorkspace().catch((e: Error) => setError(e.message));
  };
  return (
    <section className="workspace-panel" aria-labelledby="workspace-heading">
      <h2 id="workspace-heading">{t.workspace.heading}</h2>
      {workspace ? (
        <div data-testid="workspace">
          <p className="workspace-name" data-testid="workspace-name">
            {workspace.name}
          </p>
          <p className="workspace-path" data-testid="workspace-path">
            {workspace.path}
          </p>
          {changes && <SnapshotProgress changes={changes} />}
        </div>
      ) : (
        <p data-testid="no-workspace">
          {canChooseWorkspace ? t.workspace.noneChoosable : t.workspace.noneFixed}
        </p>
      )}
      {canChooseWorkspace && (
        <button type="button" onClick={choose} data-testid="choose-workspace">
          {workspace ? t.workspace.openAnother : t.workspace.open}
        </button>
      )}
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
    </section>
  );
});
