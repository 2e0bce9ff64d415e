import { useState } from "react";
import type { McpServersState, McpServerView } from "../../../../shared/mcp";
import type { ChatApi } from "../../client/chat-api";
import { useT } from "../../i18n/i18n";
import { reasonOf } from "../../lib/format";
import { McpSignIn } from "./McpSignIn";

/**
 * Settings' list of the chat's MCP servers: each with its state (connected with N tools, needs sign-in,
 * failed with the reason and what to do, disabled), Reconnect, and Sign in / Sign out for OAuth servers; what was wrong in mcp.json; a project file that was
 * skipped because the project is not trusted. Codemode and tool_search have their own section (ScriptsSetting).
 */
export function McpServersSettings({ mcp, api }: { mcp: McpServersState | undefined; api: ChatApi }) {
  const t = useT();
  return (
    <div data-testid="mcp-servers">
      <p className="muted">{t.mcp.servers.intro}</p>
      {!mcp || mcp.servers.length === 0 ? (
        <p className="muted">{t.mcp.servers.none}</p>
      ) : (
        <ul className="mcp-servers">
          {mcp.servers.map((server) => (
            <ServerRow key={server.name} server={server} api={api} />
          ))}
        </ul>
      )}
      {mcp?.skippedProjectConfig && (
        <p className="muted" data-testid="mcp-project-skipped">
          {t.mcp.servers.skippedProject(mcp.skippedProjectConfig)}
        </p>
      )}
      {mcp && mcp.errors.length > 0 && (
        <div className="error" data-testid="mcp-config-errors">
          {t.mcp.servers.configError}
          <ul>
            {mcp.errors.map((error) => (
              <li key={error}>{error}</li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}

function ServerRow({ server, api }: { server: McpServerView; api: ChatApi }) {
  const t = useT();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [changed, setChanged] = useState(false);
  const toggle = (enabled: boolean) => {
    setError(null);
    api
      .setMcpServerEnabled({ name: server.name, enabled })
      .then(() => setChanged(true))
      .catch((e: unknown) => setError(t.mcp.servers.toggleFailed(reasonOf(e))));
  };
  const reconnect = () => {
    setBusy(true);
    setError(null);
    api
      .reconnectMcpServer({ name: server.name })
      .catch((e: unknown) => setError(t.mcp.servers.reconnectFailed(reasonOf(e))))
      .finally(() => setBusy(false));
  };
  const state =
    server.status === "connected"
      ? t.mcp.servers.state.connected(server.tools)
      : server.offInWorkspace
        ? t.mcp.servers.disabledHere
        : t.mcp.servers.state[server.status];
  return (
    <li
      className={`mcp-server mcp-server-${server.status}`}
      data-testid="mcp-server"
      data-name={server.name}
      data-state={server.status}
    >
      <div className="mcp-server-head">
        <strong>{server.name}</strong>
        <span className="mcp-server-state" data-testid="mcp-server-state">
          {state}
        </span>
        <span className="muted">{t.mcp.servers.transport[server.transport]}</span>
        <code className="muted">{server.source}</code>
        <label className="muted">
          <input
            type="checkbox"
            // The host's word: the toggle reaches every open chat, whichever chat it was changed in.
            checked={!server.offInWorkspace}
            onChange={(e) => toggle(e.target.checked)}
            data-testid="mcp-server-enabled"
          />{" "}
          {t.mcp.servers.onHere}
        </label>
        {server.status !== "disabled" && server.status !== "connecting" && (
          <button type="button" onClick={reconnect} disabled={busy} data-testid="mcp-reconnect-button">
            {busy ? t.mcp.servers.reconnecting : t.mcp.servers.reconnect}
          </button>
        )}
      </div>
      <McpSignIn server={server} api={api} />
      {server.error && (server.status === "failed" || server.status === "disconnected") && (
        <>
          <p className="mcp-server-error" data-testid="mcp-server-error">
            {server.error}
          </p>
          <p className="muted">{t.mcp.servers.failedAdvice}</p>
        </>
      )}
      {changed && (
        <p className="muted" data-testid="mcp-server-next-chat">
          {t.mcp.servers.fromNextChat}
        </p>
      )}
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
    </li>
  );
}
