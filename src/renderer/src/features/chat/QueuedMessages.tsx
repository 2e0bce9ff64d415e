import { memo } from "react";
import type { QueuedMessage } from "../../../../shared/host-state";
import type { ChatApi } from "../../client/chat-api";
import { useT } from "../../i18n/i18n";
import { useAction } from "../../lib/use-action";

/** The person's messages sent while the agent works, above the box until they reach the model; each can be taken back. */
export const QueuedMessages = memo(function QueuedMessages({
  queued,
  api,
}: {
  queued: QueuedMessage[];
  api: ChatApi;
}) {
  const t = useT();
  const action = useAction();
  if (queued.length === 0 && !action.error) return null;
  // Pi counts each mode's messages apart: a message is named by its mode and its place among them.
  const places = { steer: 0, "follow-up": 0 };
  return (
    <div className="queued-messages">
      {queued.length > 0 && (
        <ol aria-label={t.chat.queuedHeading}>
          {queued.map((message) => {
            const index = places[message.mode]++;
            return (
              <li
                key={`${message.mode}:${index}`}
                className={`queued-message queued-${message.mode}`}
                data-testid="queued-message"
                data-mode={message.mode}
              >
                <span className="queued-mode">{t.chat.queuedMode[message.mode]}</span>
                <span className="queued-text">{message.text}</span>
                <button
                  type="button"
                  className="link"
                  disabled={action.busy}
                  aria-label={t.chat.queuedRemove(message.text)}
                  onClick={() => action.run(() => api.removeQueued({ mode: message.mode, index }))}
                  data-testid="queued-remove"
                >
                  ×
                </button>
              </li>
            );
          })}
        </ol>
      )}
      {action.error && (
        <p className="error" role="alert">
          {action.error}
        </p>
      )}
    </div>
  );
});
