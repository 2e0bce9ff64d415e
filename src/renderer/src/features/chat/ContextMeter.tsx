import { memo } from "react";
import type { ContextState } from "../../../../shared/host-state";
import type { ChatApi } from "../../client/chat-api";
import { useI18n } from "../../i18n/i18n";
import { useAction } from "../../lib/use-action";

/** From this share of the window on, the meter says the context is nearly full. */
const NEARLY_FULL = 0.8;

/**
 * How full the model's context window is (Pi's figures, from the last answer) and what the chat has cost
 * where the provider reports it; Compact runs Pi's compaction, and near the limit the meter says so.
 */
export const ContextMeter = memo(function ContextMeter({
  context,
  running,
  api,
}: {
  context: ContextState;
  running: boolean;
  api: ChatApi;
}) {
  const { t, language } = useI18n();
  const compact = useAction();
  const { usedTokens, window } = context;
  const share = usedTokens === null || window <= 0 ? null : usedTokens / window;
  const nearlyFull = share !== null && share >= NEARLY_FULL;
  const tokens = new Intl.NumberFormat(language, { notation: "compact", maximumFractionDigits: 1 });
  return (
    <div className={nearlyFull ? "context-meter nearly-full" : "context-meter"}>
      <span
        className="context-figures"
        data-testid="context-meter"
        data-used={usedTokens ?? ""}
        data-window={window}
        title={t.chat.contextTitle}
      >
        {share === null
          ? t.chat.contextUnknown(tokens.format(window))
          : t.chat.contextUsed(
              Math.round(share * 100),
              tokens.format(usedTokens ?? 0),
              tokens.format(window),
            )}
        {context.costUsd > 0 && ` · $${context.costUsd.toFixed(context.costUsd < 1 ? 3 : 2)}`}
      </span>
      {nearlyFull && <span className="context-warning">{t.chat.contextNearlyFull}</span>}
      <button
        type="button"
        className="small"
        disabled={running || compact.busy}
        title={t.chat.compactHint}
        onClick={() => compact.run(() => api.compact({}), t.chat.compactFailed)}
        data-testid="compact-button"
      >
        {compact.busy ? t.chat.compacting : t.chat.compact}
      </button>
      {compact.error && (
        <span className="error" role="alert">
          {compact.error}
        </span>
      )}
    </div>
  );
});
