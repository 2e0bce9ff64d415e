import { memo, useEffect, useLayoutEffect, useMemo, useRef, useState } from "react";
import { countLines, tailLines } from "../../../../shared/output-tail";
import { useT } from "../../i18n/i18n";
import { AnsiText } from "./AnsiText";
import { useTestId } from "./card-scope";

/**
 * Lines a lazily drawn output draws at first: its box shows about 22 (the box's 24em). Laying out 500
 * lines took 6-10 ms here, a frame of the transcript's scroll; these take under 1 ms.
 */
const FIRST_DRAWN_LINES = 60;
/** How long a lazily drawn output stays partly drawn when nobody reaches for it. */
const WHOLE_AFTER_MS = 1000;

/** Space for `lines` lines of output in one box (a block as tall as they are), instead of drawing them. */
function LineSpace({ lines }: { lines: number }) {
  return lines > 0 ? (
    <span className="command-output-space" style={{ height: `${lines}lh` }} aria-hidden="true" />
  ) : null;
}

/**
 * A command's output: only its last lines are in the DOM (a command printing millions of lines costs
 * the same as one printing 500), with how many came before and a way to the full output. While the
 * person is at the bottom it follows new output; once they scroll up it stays where they are. A `lazy`
 * one (an ended card drawn as the transcript scrolls past) first draws only the lines its box shows,
 * the rest as space of the same height, and draws them all once the person reaches for it (scrolls it,
 * focuses it, presses in it) or after a second.
 */
export const CommandOutput = memo(function CommandOutput({
  output,
  totalLines,
  onOpenFull,
  lazy = false,
}: {
  output: string;
  totalLines: number;
  onOpenFull?: () => void;
  lazy?: boolean;
}) {
  const t = useT();
  const tid = useTestId();
  const box = useRef<HTMLElement>(null);
  const atBottom = useRef(true);
  const tail = useMemo(() => tailLines(output), [output]);
  const shownLines = useMemo(() => countLines(tail.text), [tail.text]);
  const hidden = tail.cut ? Math.max(totalLines - shownLines, 1) : Math.max(totalLines - shownLines, 0);
  const [whole, setWhole] = useState(!lazy);
  const spaced = whole ? 0 : Math.max(shownLines - FIRST_DRAWN_LINES, 0);
  const drawWhole = () => setWhole(true);

  useEffect(() => {
    if (spaced === 0) return;
    const timer = setTimeout(() => setWhole(true), WHOLE_AFTER_MS);
    return () => clearTimeout(timer);
  }, [spaced]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: drawn whole, wrapped lines may be taller than their space: stay at the bottom.
  useLayoutEffect(() => {
    const element = box.current;
    if (element && atBottom.current && tail.text) element.scrollTop = element.scrollHeight;
  }, [tail.text, spaced]);

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
          if (!atBottom.current && spaced > 0) drawWhole();
        }}
        onFocus={spaced > 0 ? drawWhole : undefined}
        onPointerDown={spaced > 0 ? drawWhole : undefined}
      >
        <pre className="command-output-text">
          <LineSpace lines={spaced} />
          <AnsiText text={tail.text} skipLines={spaced} />
        </pre>
      </section>
    </div>
  );
});

/**
 * Where an output not yet fetched will be (`deferredOutput`): the same frame, as tall as its `lines` will
 * be (one block of that height), so the transcript measures the card right and nothing jumps when
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
          <pre className="command-output-text">
            <LineSpace lines={lines} />
          </pre>
        </section>
      ) : (
        <p className="error" role="alert" data-testid={tid("command-output-error")}>
          {t.command.outputFailed(failed)}
        </p>
      )}
    </div>
  );
}
