import { type RefObject, useLayoutEffect } from "react";

/**
 * Writes the chat footer's height (model bar, setup, composer) to `--chat-footer-height` on the chat view, so
 * its minimum height keeps a third of the window for the transcript and the whole composer below it,
 * however tall the composer grows. See shared-height.css.
 */
export function useFooterHeight(
  footer: RefObject<HTMLElement | null>,
  /** Whether the footer is drawn now (a chat is open). */
  shown: boolean,
): void {
  // biome-ignore lint/correctness/useExhaustiveDependencies: the ref fills only once the footer is drawn; `shown` re-runs it then.
  useLayoutEffect(() => {
    const element = footer.current;
    const view = element?.closest<HTMLElement>(".chat-view");
    if (!element || !view) return;
    const write = () =>
      view.style.setProperty("--chat-footer-height", `${Math.ceil(element.offsetHeight)}px`);
    write();
    if (typeof ResizeObserver === "undefined") return;
    const observer = new ResizeObserver(write);
    observer.observe(element);
    return () => observer.disconnect();
  }, [footer, shown]);
}
