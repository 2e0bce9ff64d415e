import { type RefObject, useEffect, useState } from "react";

/** How many entries of a scroll area lie wholly outside its visible part, above and below. */
export interface OutOfView {
  /** Entries scrolled past, above the visible part. */
  above: number;
  /** Entries still to come, below the visible part. */
  below: number;
}

/**
 * Counts the children of `list` that `box` does not show whole: those that start above what it shows, and
 * those that end below it. A half-shown entry counts, so a box that scrolls always says so.
 */
export function countOutOfView(box: Element, list: Element): OutOfView {
  const view = box.getBoundingClientRect();
  let above = 0;
  let below = 0;
  for (const child of Array.from(list.children)) {
    const rect = child.getBoundingClientRect();
    // Half a pixel of slack: a border that touches the edge is not "out of view".
    if (rect.top < view.top - 0.5) above += 1;
    else if (rect.bottom > view.bottom + 0.5) below += 1;
  }
  return { above, below };
}

/**
 * Keeps `countOutOfView` up to date as the area scrolls, resizes (the window, another area taking height)
 * or gains and loses entries, so a person sees that more waits than what fits.
 */
export function useOutOfView(
  box: RefObject<HTMLElement | null>,
  list: RefObject<HTMLElement | null>,
  /** Whether the area is drawn now: it mounts and unmounts as entries come and go. */
  shown: boolean,
): OutOfView {
  const [count, setCount] = useState<OutOfView>({ above: 0, below: 0 });
  // biome-ignore lint/correctness/useExhaustiveDependencies: the refs fill only once the area is drawn; `shown` re-runs it then.
  useEffect(() => {
    const scroller = box.current;
    const items = list.current;
    if (!scroller || !items) return;
    let frame = 0;
    const update = () => {
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(() => {
        const next = countOutOfView(scroller, items);
        setCount((old) => (old.above === next.above && old.below === next.below ? old : next));
      });
    };
    update();
    scroller.addEventListener("scroll", update, { passive: true });
    window.addEventListener("resize", update);
    const resized = typeof ResizeObserver === "undefined" ? null : new ResizeObserver(update);
    resized?.observe(scroller);
    resized?.observe(items);
    const changed = new MutationObserver(update);
    changed.observe(items, { childList: true });
    return () => {
      cancelAnimationFrame(frame);
      scroller.removeEventListener("scroll", update);
      window.removeEventListener("resize", update);
      resized?.disconnect();
      changed.disconnect();
    };
  }, [box, list, shown]);
  return count;
}
