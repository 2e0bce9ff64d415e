import { useState } from "react";
import type { McpServerView } from "../../../../shared/mcp";
import type { ChatApi } from "../../client/chat-api";
import { useT } from "../../i18n/i18n";
import { reasonOf } from "../../lib/format";

/**
 * A server's sign-in in Settings (Pi's OAuth flow, run by the host): Sign in where it needs it; while one is
 * under way, the authorization page as a link (the desktop app has opened it in the system browser already)
 * and a field for the address the browser ended on, for when it could not reach Pi's callback on this
 * machine; Sign out where it is signed in.
 */
export function McpSignIn({ server, api }: { server: McpServerView; api: ChatApi }) {
  const t = useT();
  const [busy, setBusy] = useState(false);
  const [pasted, setPasted] = useState("");
  const [error, setError] = useState<string | null>(null);
  if (!server.oauth) return null;
  const act = (call: () => Promise<void>, failed: (reason: string) => string, after?: () => void) => {
    setBusy(true);
    setError(null);
    call()
      .then(() => after?.())
      .catch((e: unknown) => setError(failed(reasonOf(e))))
      .finally(() => setBusy(false));
  };
  const name = server.name;
  const signingIn = server.signingIn;
  return (
    <div className="mcp-sign-in">
      {!signingIn && server.status === "needs-sign-in" && (
        <button
          type="button"
          disabled={busy}
          data-testid="mcp-sign-in-button"
          onClick={() => act(() => api.signInMcpServer({ name }), t.mcp.signIn.failed)}
        >
          {t.mcp.signIn.signIn}
        </button>
      )}
      {!signingIn && server.status === "connected" && (
        <button
          type="button"
          disabled={busy}
          data-testid="mcp-sign-out-button"
          onClick={() => act(() => api.signOutMcpServer({ name }), t.mcp.signIn.signOutFailed)}
        >
          {t.mcp.signIn.signOut}
        </button>
      )}
      {signingIn && (
        <div data-testid="mcp-sign-in-waiting">
          {signingIn.authorizationUrl ? (
            <p>
              {t.mcp.signIn.openPage}{" "}
              <a
                href={signingIn.authorizationUrl}
                target="_blank"
                rel="noreferrer noopener"
                data-testid="mcp-sign-in-link"
              >
                {t.mcp.signIn.pageLink(name)}
              </a>
            </p>
          ) : (
            <p className="muted">{t.mcp.signIn.contacting}</p>
          )}
          <form
            onSubmit={(e) => {
              e.preventDefault();
              act(
                () => api.pasteMcpRedirectUrl({ name, url: pasted }),
                t.mcp.signIn.pasteFailed,
                () => setPasted(""),
              );
            }}
          >
            <label className="muted">
              {t.mcp.signIn.pasteLabel}
              <input
                type="url"
                value={pasted}
                placeholder="http://127.0.0.1:…/callback?code=…"
                onChange={(e) => setPasted(e.target.value)}
                data-testid="mcp-redirect-url"
              />
            </label>
            <button type="submit" disabled={busy || !pasted.trim()} data-testid="mcp-redirect-submit">
              {t.mcp.signIn.pasteSubmit}
            </button>
            <button
              type="button"
              data-testid="mcp-sign-in-cancel"
              onClick={() => act(() => api.cancelMcpSignIn({ name }), t.mcp.signIn.failed)}
            >
              {t.mcp.signIn.cancel}
            </button>
          </form>
        </div>
      )}
      {server.signInError && !signingIn && (
        <p className="error" data-testid="mcp-sign-in-error">
          {server.signInError}
        </p>
      )}
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
