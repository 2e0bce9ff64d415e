import { useEffect, useState } from "react";
import type { HighlightedToken } from "../../lib/highlight/shiki-tokens";

/** Highlighted lines for a code, with the code they were made from. */
export interface Highlighted {
  /** The code the lines were made from (it may be older than the code drawn now). */
  code: string;
  /** Its lines as tokens. */
  lines: HighlightedToken[][];
}

/** Blocks highlighted lately, so a block drawn again (the transcript draws only what is near its view) is not. */
const recent = new Map<string, HighlightedToken[][]>();
const RECENT_MAX = 200;

/**
 * Highlights a finished code block off the render: Shiki's module and the language's grammar load on
 * first use, and the work waits for an idle moment so it does not take frames from a streaming answer.
 * Shiki's JavaScript regex engine tokenises on the main thread (40 lines of TypeScript took 30 to 200 ms
 * here, the first block 1.5 s under load), so a block is tokenised once, when `ready`, never per chunk.
 */
export function useHighlighted(code: string, language: string, ready: boolean): Highlighted | null {
  const key = `${language}\u0000${code}`;
  const [highlighted, setHighlighted] = useState<Highlighted | null>(() => {
    const lines = recent.get(key);
    return lines ? { code, lines } : null;
  });
  useEffect(() => {
    if (!language || !ready) return;
    const cached = recent.get(key);
    if (cached) {
      setHighlighted({ code, lines: cached });
      return;
    }
    let current = true;
    const run = () => {
      import("../../lib/highlight/shiki-tokens")
        .then((shiki) => shiki.highlightLines(code, language))
        .then(
          (lines) => {
            if (!lines) return;
            remember(key, lines);
            if (current) setHighlighted({ code, lines });
          },
          () => {}, // a grammar that fails to load leaves the block plain, as an unknown language does
        );
    };
    const idle = typeof requestIdleCallback === "function";
    const handle = idle ? requestIdleCallback(run, { timeout: 1000 }) : setTimeout(run, 0);
    return () => {
      current = false;
      if (idle) cancelIdleCallback(handle);
      else clearTimeout(handle);
    };
  }, [key, code, language, ready]);
  return highlighted;
}

function remember(key: string, lines: HighlightedToken[][]): void {
  recent.delete(key);
  recent.set(key, lines);
  if (recent.size > RECENT_MAX) recent.delete(recent.keys().next().value as string);
}
