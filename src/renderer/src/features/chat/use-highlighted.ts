import { useEffect, useRef, useState } from "react";
import type { HighlightedToken } from "../../lib/highlight/shiki-tokens";

/** Highlighted lines for a code, with the code they were made from. */
export interface Highlighted {
  /** The code the lines were made from (while streaming, a prefix of the code drawn now). */
  code: string;
  /** Its lines as tokens. */
  lines: HighlightedToken[][];
}

/** While a block grows, it is highlighted again at most this often. */
const STREAMING_PAUSE_MS = 150;

/**
 * Highlights a code block off the render: Shiki's module and the language's grammar load on first use,
 * and a block still streaming is highlighted again only after a pause, its newest lines meanwhile plain.
 */
export function useHighlighted(code: string, language: string): Highlighted | null {
  const [highlighted, setHighlighted] = useState<Highlighted | null>(null);
  // The first highlight runs at once; later ones (the block grew) wait for a pause in the stream.
  const highlightedOnce = useRef(false);
  useEffect(() => {
    if (!language) return;
    let current = true;
    const timer = setTimeout(
      () => {
        import("../../lib/highlight/shiki-tokens")
          .then((shiki) => shiki.highlightLines(code, language))
          .then(
            (lines) => {
              if (!current || !lines) return;
              highlightedOnce.current = true;
              setHighlighted({ code, lines });
            },
            () => {}, // a grammar that fails to load leaves the block plain, as an unknown language does
          );
      },
      highlightedOnce.current ? STREAMING_PAUSE_MS : 0,
    );
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [code, language]);
  return highlighted;
}
