import { type FormEvent, type KeyboardEvent, memo, useState } from "react";
import type { ChatApi } from "../../client/chat-api";
import { useT } from "../../i18n/i18n";
import { reasonOf } from "../../lib/format";
import { followTranscriptEnd } from "./transcript-reveal";

/**
 * The prompt box: Enter sends, Shift+Enter starts a new line (and Enter while an input method is
 * composing, as when typing Chinese, only commits the characters). Stop shows while the agent works.
 */
export const Composer = memo(function Composer({ api, running }: { api: ChatApi; running: boolean }) {
  const t = useT();
  const [text, setText] = useState("");
  const [sending, setSending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const canSend = text.trim() !== "" && !sending && !running;

  const send = () => {
    if (!canSend) return;
    setSending(true);
    setError(null);
    // The person wants to see the answer, wherever they had scrolled to.
    followTranscriptEnd();
    api.prompt({ text }).then(
      () => {
        setText("");
        setSending(false);
      },
      (e: unknown) => {
        // The text stays in the box, so nothing the person wrote is lost.
        setError(t.chat.sendFailed(reasonOf(e)));
        setSending(false);
      },
    );
  };
  const stop = () => {
    setError(null);
    api.stop().catch((e: unknown) => setError(t.chat.stopFailed(reasonOf(e))));
  };
  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key === "Enter" && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      send();
    }
  };
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    send();
  };

  return (
    <form className="composer" onSubmit={onSubmit}>
      <textarea
        className="prompt-input"
        aria-label={t.chat.promptLabel}
        placeholder={t.chat.promptPlaceholder}
        rows={Math.min(10, Math.max(2, text.split("\n").length))}
        value={text}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={onKeyDown}
        data-testid="prompt-input"
      />
      <div className="composer-actions">
        {running && (
          <button
            type="button"
            className="danger"
            onClick={stop}
            title={t.chat.stopHint}
            data-testid="stop-button"
          >
            {t.chat.stop}
          </button>
        )}
        <button type="submit" className="primary" disabled={!canSend} data-testid="send-button">
          {t.chat.send}
        </button>
      </div>
      {error && (
        <p className="error composer-error" role="alert" data-testid="prompt-error">
          {error}
        </p>
      )}
    </form>
  );
});
