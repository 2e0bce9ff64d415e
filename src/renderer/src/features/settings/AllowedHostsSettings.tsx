import { type FormEvent, useId, useState } from "react";
import type { SandboxState } from "../../../../shared/host-state";
import { HOST_PRESETS } from "../../../../shared/network";
import type { ChatApi } from "../../client/chat-api";
import { useT } from "../../i18n/i18n";
import { requireSaved } from "../../lib/hosts-saved";
import { useAction } from "../../lib/use-action";

/**
 * The workspace's allowed hosts: the list, add and remove (the host checks each entry and says why one
 * cannot be), and the presets (npm, PyPI, GitHub, crates.io, Go) added in one click. Host rules hold only
 * in the sandbox (bubblewrap or Seatbelt), and the section says so.
 */
export function AllowedHostsSettings({ sandbox, api }: { sandbox: SandboxState; api: ChatApi }) {
  const t = useT();
  const inputId = useId();
  const change = useAction();
  const [draft, setDraft] = useState("");
  const hosts = sandbox.allowedHosts;
  // The host checks the entries; a refused list comes back with each bad entry's problem, worded here.
  const save = (next: string[]) =>
    change.run(() => requireSaved(api.setAllowedHosts({ hosts: next }), t), t.network.notSaved);
  const add = async (e: FormEvent) => {
    e.preventDefault();
    const entries = draft.split(/[\s,]+/).filter(Boolean);
    if (entries.length === 0) return;
    if (await save([...hosts, ...entries])) setDraft("");
  };
  const rulesHold = sandbox.kind !== "none" && sandbox.available && sandbox.enabled;
  return (
    <div className="allowed-hosts" data-testid="allowed-hosts">
      <h4>{t.network.settingsTitle}</h4>
      <p className="muted">{t.network.settingsHint}</p>
      {!rulesHold && (
        <p className="muted" data-testid="allowed-hosts-needs-sandbox">
          {t.network.settingsNeedsSandbox}
        </p>
      )}
      {hosts.length === 0 ? (
        <p className="muted" data-testid="allowed-hosts-none">
          {t.network.settingsNone}
        </p>
      ) : (
        <ul>
          {hosts.map((host) => (
            <li key={host} data-testid="allowed-host" data-host={host}>
              <code>{host}</code>{" "}
              <button
                type="button"
                disabled={change.busy}
                aria-label={t.network.remove(host)}
                onClick={() => void save(hosts.filter((h) => h !== host))}
                data-testid="allowed-host-remove"
              >
                ×
              </button>
            </li>
          ))}
        </ul>
      )}
      <form onSubmit={(e) => void add(e)}>
        <label htmlFor={inputId} className="visually-hidden">
          {t.network.addLabel}
        </label>
        <input
          id={inputId}
          value={draft}
          placeholder={t.network.addPlaceholder}
          onChange={(e) => setDraft(e.target.value)}
          data-testid="allowed-host-input"
        />
        <button type="submit" disabled={change.busy || draft.trim() === ""} data-testid="allowed-host-add">
          {t.network.add}
        </button>
      </form>
      <div className="host-presets">
        <span className="muted">{t.network.presets}</span>
        {HOST_PRESETS.map((preset) => {
          const missing = preset.hosts.filter((host) => !hosts.includes(host));
          return (
            <button
              key={preset.id}
              type="button"
              disabled={change.busy || missing.length === 0}
              title={preset.hosts.join(", ")}
              onClick={() => void save([...hosts, ...missing])}
              data-testid={`host-preset-${preset.id}`}
            >
              {preset.label}
            </button>
          );
        })}
      </div>
      {change.error && (
        <p className="error" role="alert" data-testid="allowed-hosts-error">
          {change.error}
        </p>
      )}
    </div>
  );
}
