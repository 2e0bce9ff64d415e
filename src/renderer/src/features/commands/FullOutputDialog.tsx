import { useCallback, useEffect, useId, useRef, useState } from "react";
import type { FullOutputChunk } from "../../../../shared/desk-api";
import type { ChatApi } from "../../client/chat-api";
import { useT } from "../../i18n/i18n";
import { formatBytes, reasonOf } from "../../lib/format";
import { AnsiText } from "./AnsiText";

/**
 * A command's saved full output, read piece by piece (`readFullOutput` from `nextOffset`) so a huge file
 * is never pulled in whole; or, given `text`, that text. Modal: Esc or Close ends it, and focus goes back
 * where it was.
 */
export function FullOutputDialog({
  api,
  commandId,
  text,
  onClose,
}: {
  api: ChatApi;
  commandId: string;
  text?: string;
  onClose: () => void;
}) {
  const t = useT();
  const titleId = useId();
  const closeButton = useRef<HTMLButtonElement>(null);
  const [chunks, setChunks] = useState<FullOutputChunk[]>([]);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const last = chunks[chunks.length - 1];

  const load = useCallback(
    (offset: number) => {
      setLoading(true);
      setError(null);
      api.readFullOutput(offset === 0 ? { commandId } : { commandId, offset }).then(
        (chunk) => {
          setChunks((previous) => (offset === 0 ? [chunk] : [...previous, chunk]));
          setLoading(false);
        },
        (e: unknown) => {
          setError(t.fullOutput.failed(reasonOf(e)));
          setLoading(false);
        },
      );
    },
    [api, commandId, t],
  );

  useEffect(() => {
    const opener = document.activeElement as HTMLElement | null;
    closeButton.current?.focus();
    return () => opener?.focus?.();
  }, []);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the first piece is read once, when it opens.
  useEffect(() => {
    if (text === undefined) load(0);
  }, []);

  const more = last !== undefined && last.nextOffset < last.totalBytes;
  return (
    <div className="dialog-backdrop">
      <div
        className="dialog"
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        data-testid="full-output-dialog"
        onKeyDown={(e) => {
          if (e.key === "Escape") {
            e.stopPropagation();
            onClose();
          }
        }}
      >
        <header className="dialog-head">
          <h2 id={titleId}>{t.fullOutput.title}</h2>
          <button type="button" ref={closeButton} onClick={onClose} data-testid="full-output-close">
            {t.fullOutput.close}
          </button>
        </header>
        {last && (
          <p className="mono muted dialog-path">
            {last.path} ({t.fullOutput.progress(formatBytes(last.nextOffset), formatBytes(last.totalBytes))})
          </p>
        )}
        <pre className="command-output dialog-output" data-testid="full-output-text">
          {text !== undefined && <AnsiText text={text} />}
          {chunks.map((chunk, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: pieces only ever append.
            <AnsiText key={index} text={chunk.text} />
          ))}
        </pre>
        {loading && <p className="muted">{t.fullOutput.loading}</p>}
        {error && (
          <p className="error" role="alert">
            {error}
          </p>
        )}
        {more && !loading && (
          <button type="button" onClick={() => load(last.nextOffset)} data-testid="full-output-more">
            {t.fullOutput.loadMore}
          </button>
        )}
      </div>
    </div>
  );
}
