import type { ChatApi } from "../../client/chat-api";
import { useT } from "../../i18n/i18n";
import { useAction } from "../../lib/use-action";

/** Stop for a background command: the host ends its whole process tree, as Cancel does. */
export function StopButton({ api, commandId, testId }: { api: ChatApi; commandId: string; testId: string }) {
  const t = useT();
  const stop = useAction();
  return (
    <>
      <button
        type="button"
        className="danger"
        disabled={stop.busy}
        onClick={() => void stop.run(() => api.cancelCommand({ commandId }), t.background.stopFailed)}
        data-testid={testId}
      >
        {stop.busy ? t.background.stopping : t.background.stop}
      </button>
      {stop.error && (
        <p className="error" role="alert">
          {stop.error}
        </p>
      )}
    </>
  );
}
