import { useId } from "react";
import type { ChatApi } from "../../client/chat-api";
import { useT } from "../../i18n/i18n";
import { useAction } from "../../lib/use-action";

/** The caps a person picks from, in hours: long enough for a working day, short enough to be noticed. */
const CAP_HOURS = [1, 2, 4, 8, 12, 24];

/**
 * How long a background command (a dev server, a watcher) may run in this workspace before the host ends it:
 * a row of the limits list (its term and its value).
 */
export function BackgroundCapSetting({ capSeconds, api }: { capSeconds: number; api: ChatApi }) {
  const t = useT();
  const id = useId();
  const change = useAction();
  const hours = capSeconds / 3600;
  const choices = CAP_HOURS.includes(hours) ? CAP_HOURS : [...CAP_HOURS, hours].sort((a, b) => a - b);
  return (
    <>
      <dt>
        <label htmlFor={id}>{t.background.cap}</label>
      </dt>
      <dd>
        <select
          id={id}
          value={hours}
          disabled={change.busy}
          onChange={(e) =>
            void change.run(
              () => api.setBackgroundCap({ seconds: Math.round(Number(e.target.value) * 3600) }),
              t.background.capFailed,
            )
          }
          data-testid="background-cap"
        >
          {choices.map((choice) => (
            <option key={choice} value={choice}>
              {t.background.capHours(choice)}
            </option>
          ))}
        </select>
        {change.error && (
          <p className="error" role="alert">
            {change.error}
          </p>
        )}
      </dd>
    </>
  );
}
