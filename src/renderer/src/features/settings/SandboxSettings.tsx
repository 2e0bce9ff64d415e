import { useId } from "react";
import type { SandboxState } from "../../../../shared/host-state";
import type { ChatApi } from "../../client/chat-api";
import { useT } from "../../i18n/i18n";
import { useAction } from "../../lib/use-action";

/** The OS sandbox commands run in: whether this machine has one, and the workspace's choice. */
export function SandboxSettings({ sandbox, api }: { sandbox: SandboxState; api: ChatApi }) {
  const t = useT();
  const enabledId = useId();
  const networkId = useId();
  const change = useAction();
  const set = (next: { enabled: boolean; network: boolean }) =>
    change.run(() => api.setSandbox(next), t.settings.sandboxFailed);
  return (
    <div className="sandbox-settings" data-testid="sandbox-settings">
      <p className="muted">
        {sandbox.kind === "none"
          ? t.settings.sandboxNone
          : sandbox.available
            ? t.settings.sandboxKind(sandbox.kind)
            : t.settings.sandboxUnavailable(sandbox.kind, sandbox.problem ?? "")}
      </p>
      <div className="choice">
        <input
          id={enabledId}
          type="checkbox"
          checked={sandbox.enabled}
          disabled={change.busy || (!sandbox.available && !sandbox.enabled)}
          onChange={(e) => set({ enabled: e.target.checked, network: sandbox.network })}
          data-testid="sandbox-enabled"
        />
        <label htmlFor={enabledId}>{t.settings.sandboxEnabled}</label>
      </div>
      <div className="choice">
        <input
          id={networkId}
          type="checkbox"
          checked={sandbox.network}
          disabled={change.busy || !sandbox.enabled}
          onChange={(e) => set({ enabled: sandbox.enabled, network: e.target.checked })}
          data-testid="sandbox-network"
        />
        <label htmlFor={networkId}>{t.settings.sandboxNetwork}</label>
      </div>
      {change.error && (
        <p className="error" role="alert">
          {change.error}
        </p>
      )}
    </div>
  );
}
