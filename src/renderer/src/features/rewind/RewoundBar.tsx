import type { ChatApi } from "../../client/chat-api";
import { useT } from "../../i18n/i18n";
import { useAction } from "../../lib/use-action";

/** After a rewind, until the chat moves on: "Back to where I was" returns the files and the conversation. */
export function RewoundBar({ api }: { api: ChatApi }) {
  const t = useT();
  const back = useAction();
  return (
    <div className="rewound-bar" role="status">
      <span>{t.rewind.rewound}</span>
      <button
        type="button"
        className="small"
        disabled={back.busy}
        onClick={() => void back.run(() => api.rewindUndo(), t.rewind.backFailed)}
        data-testid="rewind-undo-button"
      >
        {t.rewind.back}
      </button>
      {back.error && (
        <p className="error" role="alert">
          {back.error}
        </p>
      )}
    </div>
  );
}
