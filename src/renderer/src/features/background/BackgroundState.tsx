import type { CommandView } from "../../../../shared/commands";
import { useT } from "../../i18n/i18n";
import { formatClock } from "../../lib/format";
import { useNow } from "../../lib/use-now";
import { useTestId } from "../commands/card-scope";
import { LimitStopNote } from "../commands/LimitStopNote";

/**
 * How a background command is doing, in one line: running for how long, or how it ended; its ports as
 * links (a new tab in the browser host, the system browser in the desktop app); and, in a sandbox without
 * network, that a server it starts cannot be reached from this machine.
 */
export function BackgroundState({ command }: { command: CommandView }) {
  const t = useT();
  const tid = useTestId();
  const now = useNow();
  const state = command.background;
  if (!state) return null;
  const end = state.endedAt ?? now;
  const time = formatClock(Math.max(0, end - state.startedAt));
  const ended = state.limit
    ? t.resources.stoppedAtLimit
    : state.status === "stopped"
      ? t.background.stoppedBy[state.stoppedBy ?? "person"]
      : t.background.exitedWith(String(state.exitCode ?? "?"));
  return (
    <div className="background-state">
      <p className="muted">
        {state.status === "running" ? t.background.runningFor(time) : `${ended} · ${t.background.ran(time)}`}
      </p>
      {state.limit && <LimitStopNote limit={state.limit} />}
      {state.ports.length > 0 && (
        <p className="background-ports">
          {t.background.ports}{" "}
          {state.ports.map((port) => (
            <a
              key={port}
              href={`http://127.0.0.1:${port}`}
              target="_blank"
              rel="noopener noreferrer"
              title={t.background.portLink(port)}
              data-testid={tid("background-port")}
            >
              {port}
            </a>
          ))}
        </p>
      )}
      {state.status === "running" && command.sandbox?.enabled && !command.sandbox.network && (
        <p className="muted" data-testid={tid("background-no-network")}>
          {t.background.sandboxNoNetwork}
        </p>
      )}
    </div>
  );
}
