import { useEffect } from "react";
import type { DeskClient } from "./client/desk-client";
import { ConnectionBadge } from "./features/workspace/ConnectionBadge";
import { WorkspacePanel } from "./features/workspace/WorkspacePanel";
import { useDesk } from "./use-desk";

/** The whole window: header with workspace and connection, then the workspace panel. */
export function App({ client }: { client: DeskClient }) {
  const view = useDesk(client);
  const workspace = view.host?.workspace;

  useEffect(() => {
    document.title = workspace ? `${workspace.name} — Pi Desk` : "Pi Desk";
  }, [workspace]);

  return (
    <div className="app">
      <header className="app-header">
        <div className="app-title">
          <h1>Pi Desk</h1>
          {workspace && <span className="header-workspace">{workspace.name}</span>}
        </div>
        <ConnectionBadge status={view.connection} />
      </header>
      {view.connection.kind === "disconnected" && (
        <p role="alert" className="banner" data-testid="connection-problem">
          {view.connection.reason}
        </p>
      )}
      <main className="app-main">
        {view.host ? <WorkspacePanel host={view.host} api={client.api} /> : <p className="muted">Loading…</p>}
      </main>
      {view.host && <footer className="app-footer">Pi Desk {view.host.version}</footer>}
    </div>
  );
}
