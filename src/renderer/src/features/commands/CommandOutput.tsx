import { memo, useLayoutEffect, useMemo, useRef } from "react";
import { countLines, tailLines } from "../../../../shared/output-tail";
import { useT } from "../../i18n/i18n";
import { AnsiText } from "./AnsiText";
import { useTestId } from "./card-scope";

/**
 * A command's output: only its last lines are in the DOM (a command printing millions of lines costs
 * the same as one printing 500), with how many came before and a way to the full output. While the
 * person is at the bottom it follows new output; once they scroll up it stays where they are.
 */
export const CommandOutput = memo(function CommandOutput({
  output,
  totalLines,
  onOpenFull,
}: {
  output: string;
  totalLines: number;
  onOpenFull?: () => void;
}) {
  const t = useT();
  const tid = useTestId();
  const box = useRef<HTMLElement>(null);
  const atBottom = useRef(true);
  const tail = useMemo(() => tailLines(output), [output]);
  const shownLines = useMemo(() => countLines(tail.text), [tail.text]);
  const hidden = tail.cut ? Math.max(totalLines - shownLines, 1) : Math.max(totalLines - shownLines, 0);

  useLayoutEffect(() => {
    const element = box.current;
    if (element && atBottom.current && tail.text) element.scrollTop = element.scrollHeight;
  }, [tail.text]);

  if (!output) return <p className="muted command-no-output">{t.command.noOutput}</p>;
  return (
    <div className="command-output-wrap">
      {hidden > 0 && (
        <p className="muted command-hidden">
          {t.command.hiddenLines(hidden)}{" "}
          {onOpenFull && (
            <button type="button" className="link" onClick={onOpenFull} data-testid={tid("open-full-output")}>
              {t.command.openFull}
            </button>
          )}
        </p>
      )}
      <section
        ref={box}
        className="command-output"
        data-testid={tid("command-output")}
        aria-label={t.command.output}
        // biome-ignore lint/a11y/noNoninteractiveTabindex: it scrolls, so the keyboard must be able to reach it.
        tabIndex={0}
        onScroll={(e) => {
          const el = e.currentTarget;
          atBottom.current = el.scrollTop + el.clientHeight >= el.scrollHeight - 8;
        }}
      >
        <pre className="command-output-text">
          <AnsiText text={tail.text} />
        </pre>
      </section>
    </div>
  );
});

/**
 * Where an output not yet fetched will be (`deferredOutput`): the same frame, as tall as its `lines` will
 * be (empty lines in one text node), so the transcript measures the card right and nothing jumps when
 * the text comes. A fetch that failed says why here.
 */
export function CommandOutputPlaceholder({
  lines,
  totalLines,
  failed,
}: {
  lines: number;
  totalLines: number;
  failed?: string;
}) {
  const t = useT();
  const tid = useTestId();
  const hidden = Math.max(totalLines - lines, 0);
  return (
    <div className="command-output-wrap">
      {hidden > 0 && <p className="muted command-hidden">{t.command.hiddenLines(hidden)}</p>}
      {failed === undefined ? (
        <section
          className="command-output command-output-loading"
          data-testid={tid("command-output")}
          aria-label={t.command.outputLoading}
          aria-busy="true"
        >
          <pre className="command-output-text">{"\n".repeat(Math.max(lines - 1, 0))}</pre>
        </section>
      ) : (
        <p className="error" role="alert" data-testid={tid("command-output-error")}>
          {t.command.outputFailed(failed)}
        </p>
      )}
    </div>
  );
}
