import { memo } from "react";
import type { TurnErrorItem } from "../../../../shared/transcript";
import type { Messages } from "../../i18n/en";
import { useT } from "../../i18n/i18n";
import { hostNow } from "../../lib/host-clock";
import { useNow } from "../../lib/use-now";

/**
 * A turn the provider failed, once however often Pi retried: what failed in the provider's own words,
 * advice that fits the kind of failure, where the retries stand, and the raw error folded away.
 */
export const TurnError = memo(function TurnError({ item }: { item: TurnErrorItem }) {
  const t = useT();
  const recovered = item.state === "recovered";
  return (
    <div
      className={`turn-error turn-error-${item.state}`}
      role={recovered ? "status" : "alert"}
      data-testid="turn-error"
      data-kind={item.errorKind}
      data-attempts={item.attempts}
      data-state={item.state}
    >
      <p className="turn-error-title">
        <strong>{t.turnError.title[item.errorKind]}</strong>
        {item.status !== undefined && <span className="muted"> ({t.turnError.status(item.status)})</span>}
      </p>
      <p className="turn-error-message plain" data-testid="turn-error-message">
        {item.message}
      </p>
      {!recovered && <p className="turn-error-advice">{t.turnError.advice[item.errorKind]}</p>}
      {item.retryAfter !== undefined && !recovered && <RetryAfter at={item.retryAfter} />}
      <Progress item={item} t={t} />
      {item.raw !== item.message && (
        <details className="turn-error-raw">
          <summary>{t.turnError.details}</summary>
          <pre>{item.raw}</pre>
        </details>
      )}
    </div>
  );
});

function Progress({ item, t }: { item: TurnErrorItem; t: Messages }) {
  if (item.state === "retrying") {
    // The request in flight or waited for is the retry numbered by the failures so far.
    return (
      <p className="turn-error-progress" data-testid="turn-error-progress">
        {t.turnError.retrying(item.attempts, item.maxRetries)}
        {item.retryAt !== undefined && <RetryCountdown at={item.retryAt} t={t} />}
      </p>
    );
  }
  return (
    <p className="turn-error-progress muted" data-testid="turn-error-progress">
      {item.state === "recovered"
        ? t.turnError.recovered(item.attempts)
        : t.turnError.failedAfter(item.attempts)}
    </p>
  );
}

/** Seconds until `at`, re-rendered every second; read from the clock, since `useNow` may be a second old. */
function useSecondsUntil(at: number): number {
  useNow();
  return Math.ceil((at - hostNow()) / 1000);
}

function RetryCountdown({ at, t }: { at: number; t: Messages }) {
  const seconds = useSecondsUntil(at);
  return seconds > 0 ? <span className="muted"> {t.turnError.retryingIn(seconds)}</span> : null;
}

/** How long the provider asked to wait, counted down from now: seconds under two minutes, else minutes. */
function RetryAfter({ at }: { at: number }) {
  const t = useT();
  const seconds = useSecondsUntil(at);
  const text =
    seconds <= 0
      ? t.turnError.waitOver
      : seconds < 120
        ? t.turnError.waitSeconds(seconds)
        : t.turnError.waitMinutes(Math.round(seconds / 60));
  return (
    <p className="turn-error-wait" data-testid="turn-error-wait">
      {text}
    </p>
  );
}
