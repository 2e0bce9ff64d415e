import { useId, useState } from "react";
import type { ShellKind } from "../../../../shared/host-state";
import type { ChatApi } from "../../client/chat-api";
import { useT } from "../../i18n/i18n";
import { useAction } from "../../lib/use-action";

type Permission = NotificationPermission | "unsupported";

const permissionNow = (): Permission =>
  typeof Notification === "undefined" ? "unsupported" : Notification.permission;

/**
 * Notifications of commands waiting for approval: on or off (kept by the host). In the browser host the
 * browser's permission is asked for here, from the person's click, never when the page loads.
 */
export function NotificationSettings({
  enabled,
  shell,
  api,
}: {
  enabled: boolean;
  shell: ShellKind;
  api: ChatApi;
}) {
  const t = useT();
  const toggleId = useId();
  const change = useAction();
  const [permission, setPermission] = useState<Permission>(permissionNow);
  const inBrowser = shell === "browser";

  const ask = async () => {
    if (typeof Notification === "undefined") return;
    setPermission(await Notification.requestPermission());
  };
  const set = (next: boolean) =>
    change.run(async () => {
      // Asked from this click: browsers allow the request only from a person's gesture.
      if (next && inBrowser && permission === "default") await ask();
      await api.setNotifications({ enabled: next });
    }, t.attention.changeFailed);

  return (
    <div className="notification-settings" data-testid="notification-settings">
      <div className="choice">
        <input
          id={toggleId}
          type="checkbox"
          checked={enabled}
          disabled={change.busy}
          onChange={(e) => set(e.target.checked)}
          data-testid="notifications-toggle"
        />
        <label htmlFor={toggleId}>{t.attention.toggle}</label>
      </div>
      {inBrowser && enabled && (
        <p className="muted" data-testid="notifications-permission" data-permission={permission}>
          {t.attention.permission[permission]}{" "}
          {permission === "default" && (
            <button
              type="button"
              className="small"
              onClick={() => void ask()}
              data-testid="notifications-allow"
            >
              {t.attention.allow}
            </button>
          )}
        </p>
      )}
      {change.error && (
        <p className="error" role="alert">
          {change.error}
        </p>
      )}
    </div>
  );
}
