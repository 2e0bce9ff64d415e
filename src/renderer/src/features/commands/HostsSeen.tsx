import { useState } from "react";
import type { CommandView } from "../../../../shared/commands";
import type { HostTally } from "../../../../shared/network";
import type { ChatApi } from "../../client/chat-api";
import { useT } from "../../i18n/i18n";
import { formatBytes } from "../../lib/format";
import { requireSaved } from "../../lib/hosts-saved";
import { useAction } from "../../lib/use-action";
import { useTestId } from "./card-scope";

/**
 * The hosts a running or finished command reached and was refused through the sandbox's proxy (name,
 * connections, bytes), as they happen. A host refused for not being listed offers "Allow for this
 * workspace": from the next command on, never for the one that runs.
 */
export function HostsSeen({ command, api }: { command: CommandView; api: ChatApi }) {
  const t = useT();
  const tid = useTestId();
  const allow = useAction();
  const [allowed, setAllowed] = useState<string[]>([]);
  // Live while it runs; the final record once it ended (the same counts, kept with the session).
  const hosts = command.details?.hosts ?? command.hosts;
  if (!hosts || hosts.length === 0) return null;
  const allowForWorkspace = async (host: string) => {
    if (await allow.run(() => requireSaved(api.addAllowedHosts({ hosts: [host] }), t), t.network.addFailed))
      setAllowed((now) => [...now, host]);
  };
  return (
    <div className="hosts-seen" data-testid={tid("hosts-seen")}>
      <span className="muted">{t.network.seenLabel}</span>
      <ul>
        {hosts.map((entry) => (
          <li
            key={`${entry.allowed ? "+" : "-"}${entry.host}:${entry.port}`}
            data-testid={tid("host-seen")}
            data-host={entry.host}
            data-allowed={String(entry.allowed)}
          >
            <code>{entry.port ? `${entry.host}:${entry.port}` : entry.host}</code>{" "}
            <span className={`tag ${entry.allowed ? "host-reached" : "host-refused"}`}>
              {entry.allowed ? t.network.reached : t.network.refused}
            </span>{" "}
            <span className="muted">
              {t.network.connections(entry.count)}
              {entry.allowed
                ? `, ${t.network.bytes(formatBytes(entry.bytesUp), formatBytes(entry.bytesDown))}`
                : entry.refusal
                  ? `: ${t.network.refusal[entry.refusal]}`
                  : ""}
            </span>
            {allowable(entry) &&
              (allowed.includes(entry.host) ? (
                <span className="muted" data-testid={tid("host-allowed-for-workspace")}>
                  {" "}
                  {t.network.allowedForWorkspace}
                </span>
              ) : (
                <>
                  {" "}
                  <button
                    type="button"
                    disabled={allow.busy}
                    onClick={() => void allowForWorkspace(entry.host)}
                    data-testid={tid("host-allow-workspace")}
                  >
                    {t.network.allowForWorkspace}
                  </button>
                </>
              ))}
          </li>
        ))}
      </ul>
      {allow.error && (
        <p className="error" role="alert">
          {allow.error}
        </p>
      )}
    </div>
  );
}

/** Only a name refused for not being listed can be allowed: an address, or a private one, cannot be. */
function allowable(entry: HostTally): boolean {
  return !entry.allowed && entry.refusal === "not-allowed" && /^[a-z0-9.-]+$/i.test(entry.host);
}
