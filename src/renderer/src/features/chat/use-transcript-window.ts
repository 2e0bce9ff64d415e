import {
  defaultRangeExtractor,
  measureElement,
  observeElementRect,
  type Range,
  useVirtualizer,
  type Virtualizer,
} from "@tanstack/react-virtual";
import { type FocusEvent, type RefObject, useReducer, useRef } from "react";
import type { TranscriptItem } from "../../../../shared/transcript";

/** A first guess at an entry's height before it is drawn; each is measured from the DOM once drawn. */
const ESTIMATED_ENTRY_PX = 120;
/** The space between entries (the list used to be a flex column with this gap). */
export const ENTRY_GAP_PX = 12;
/** Entries drawn beyond each edge of the view, so a quick scroll does not show blank space first. */
const OVERSCAN = 4;

/** The key an entry is drawn under: stable across updates of the same entry. */
const entryKey = (item: TranscriptItem | undefined) => (item ? `${item.kind}:${item.id}` : "");

/** The transcript's window onto its entries: which are drawn, where, and the entry that holds focus. */
export interface TranscriptWindow {
  /** Tanstack's virtualizer over the entries. */
  virtualizer: Virtualizer<HTMLDivElement, HTMLLIElement>;
  /** For the list: focus entering an entry keeps that entry drawn however far the view moves from it. */
  onFocus: (event: FocusEvent<HTMLOListElement>) => void;
  /** For the list: focus leaving it lets that entry go once out of view. */
  onBlur: (event: FocusEvent<HTMLOListElement>) => void;
}

/**
 * Draws only the entries near the view of `box` (the scrolling element), with heights measured from the
 * real DOM. The entry holding focus stays drawn, so a person using the keyboard or a screen reader is not
 * thrown out of the page when it scrolls out of view; so do the `alwaysDrawn` ones (what waits for the
 * person: a line each, leading to the tray).
 */
export function useTranscriptWindow(
  box: RefObject<HTMLDivElement | null>,
  items: TranscriptItem[],
  alwaysDrawn: readonly number[],
  /** True while the view follows the end, which is then the place to keep. */
  following: RefObject<boolean>,
): TranscriptWindow {
  const focused = useRef<number | null>(null);
  // Letting the focused entry go changes what is drawn without a scroll: draw again.
  const [, redraw] = useReducer((n: number) => n + 1, 0);
  const virtualizer = useVirtualizer<HTMLDivElement, HTMLLIElement>({
    count: items.length,
    getScrollElement: () => box.current,
    estimateSize: () => ESTIMATED_ENTRY_PX,
    gap: ENTRY_GAP_PX,
    overscan: OVERSCAN,
    getItemKey: (index) => entryKey(items[index]),
    // Before the first measure (and where nothing is laid out, as in tests): a window's worth.
    initialRect: { width: 800, height: 800 },
    observeElementRect: (instance, onRect) =>
      // The chat is hidden (display: none) while another view is shown: its box then measures 0 x 0,
      // which would shrink the window to nothing and lose the person's place.
      observeElementRect(instance, (rect) => {
        if (rect.width > 0 && rect.height > 0) onRect(rect);
      }),
    measureElement: (element, entry, instance) => {
      // Hidden the same way, an entry measures 0: keep what it measured while shown.
      if (element.offsetParent === null) {
        const key = instance.options.getItemKey(instance.indexFromElement(element));
        return instance.itemSizeCache.get(key) ?? ESTIMATED_ENTRY_PX;
      }
      return measureElement(element, entry, instance);
    },
    rangeExtractor: (range: Range) => {
      const indexes = defaultRangeExtractor(range);
      const keep = [...alwaysDrawn, ...(focused.current === null ? [] : [focused.current])].filter(
        (index) => index < range.count && !indexes.includes(index),
      );
      return keep.length === 0 ? indexes : [...new Set([...indexes, ...keep])].sort((a, b) => a - b);
    },
  });
  // An entry above the view measured anew moves the view by as much, to keep the place while the person
  // reads. While following, the end is the place: such a move would only take the view off it (and a
  // scroll off the end is how a person says they stopped following).
  virtualizer.shouldAdjustScrollPositionOnItemSizeChange = (item, _delta, instance) => {
    if (following.current) return false;
    // Tanstack's own rule otherwise: a first measure above the view, or a new size wholly above it.
    const offset = instance.scrollOffset ?? 0;
    return instance.itemSizeCache.has(item.key)
      ? item.end <= offset && instance.scrollDirection !== "backward"
      : item.start < offset;
  };
  return {
    virtualizer,
    onFocus: (event) => {
      const entry = (event.target as Element).closest<HTMLElement>("li[data-index]");
      if (entry) focused.current = Number(entry.dataset.index);
    },
    onBlur: (event) => {
      if (event.currentTarget.contains(event.relatedTarget as Node | null)) return;
      focused.current = null;
      redraw();
    },
  };
}
