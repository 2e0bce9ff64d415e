import { type RefObject, useCallback, useEffect, useLayoutEffect, useRef, useState } from "react";

/** How near the end still counts as at the end: about a line of text. */
export const END_SLACK_PX = 24;

/** How long after the person's own input (wheel, touch, a scroll key, the scroll bar) a scroll is theirs. */
const PERSON_INPUT_MS = 500;
/** The keys that scroll the box under the focus. */
const SCROLL_KEYS = new Set(["ArrowUp", "ArrowDown", "PageUp", "PageDown", "Home", "End", " "]);

/** Whether a scroll box shows its end, give or take a line. */
export function showsEnd(element: HTMLElement): boolean {
  return element.scrollTop + element.clientHeight >= element.scrollHeight - END_SLACK_PX;
}

/** What the transcript shows, as far as following its end goes. */
export interface FollowedChat {
  /** Which chat: another one opens at its end. */
  chat: string;
  /** How many entries the transcript holds; more while the person reads above means new ones below. */
  entries: number;
  /** The newest entry (a new object whenever it changes): it streaming on below counts as new too. */
  newest: unknown;
}

/** The transcript's following of its end. */
export interface FollowEnd {
  /**
   * True while the view follows the end. Read where something would move the view itself (the
   * virtualiser keeping the place as entries above are measured): while following, the end is the place.
   */
  following: RefObject<boolean>;
  /** Entries arrived below the view since the person scrolled up to read. */
  newBelow: boolean;
  /** For the box's scroll events: leaving the end stops following, coming back to it starts again. */
  onScroll: () => void;
  /** Goes to the end and follows it again (the "new messages below" control, the person acting). */
  toEnd: () => void;
  /** Stops following without moving, for a move that is not the person's scroll (revealing an entry). */
  stop: () => void;
}

/**
 * Keeps `box` (the scrolling element) at its end while the person is there, as `list` (its content) and
 * the box itself change size: new entries, streamed text, command output, and the tray or its forms
 * (deny reason, edit, change, rules) growing and shrinking above the transcript. Only a scroll that
 * leaves the end stops it; `toEnd` (the person sent a message or decided a card) starts it again.
 */
export function useFollowEnd(
  box: RefObject<HTMLElement | null>,
  list: RefObject<HTMLElement | null>,
  { chat, entries, newest }: FollowedChat,
): FollowEnd {
  const following = useRef(true);
  // What the end held when the person left it; null while following.
  const [leftAt, setLeftAt] = useState<{ entries: number; newest: unknown } | null>(null);
  const endNow = useRef({ entries, newest });
  endNow.current = { entries, newest };

  // The box's height as last seen, and when the person last did something that scrolls: a scroll that
  // comes with a new height of the box and no such input is the browser's answer to the layout changing
  // (a form opening in the tray shrinks the box, and the browser moves the view), not the person leaving
  // the end. (Entries changing height do not count: the view is pinned after those, and a scroll that
  // reads older entries draws and measures them as it goes.)
  const seenHeight = useRef(0);
  const personAt = useRef(Number.NEGATIVE_INFINITY);
  const remember = useCallback(() => {
    if (box.current) seenHeight.current = box.current.clientHeight;
  }, [box]);
  const pin = useCallback(() => {
    const element = box.current;
    if (element && following.current) element.scrollTop = element.scrollHeight;
  }, [box]);
  const follow = useCallback((on: boolean) => {
    if (following.current === on) return;
    following.current = on;
    setLeftAt(on ? null : endNow.current);
  }, []);
  const toEnd = useCallback(() => {
    follow(true);
    pin();
  }, [follow, pin]);
  const stop = useCallback(() => follow(false), [follow]);

  // Another chat opens at its end, wherever the last one was read.
  const shown = useRef(chat);
  useLayoutEffect(() => {
    if (shown.current === chat) return;
    shown.current = chat;
    follow(true);
  }, [chat, follow]);

  // Runs after every render: new entries, streamed text, command output and entries measured for the
  // first time all change the length.
  useLayoutEffect(() => pin());
  // The length also changes without a render of the transcript (an entry's own content grows), and the
  // box's height with the tray and the composer above and below it.
  useEffect(() => {
    const element = box.current;
    const inner = list.current;
    if (!element || !inner || typeof ResizeObserver === "undefined") return;
    const observer = new ResizeObserver(() => {
      pin();
      remember();
    });
    observer.observe(inner);
    observer.observe(element);
    return () => observer.disconnect();
  }, [box, list, pin, remember]);
  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const person = () => {
      personAt.current = performance.now();
    };
    const key = (event: KeyboardEvent) => {
      const target = event.target as Node | null;
      if (SCROLL_KEYS.has(event.key) && (target === document.body || element.contains(target))) person();
    };
    // A press on the box itself (not an entry) is on its scroll bar.
    const press = (event: PointerEvent) => {
      if (event.target === element) person();
    };
    element.addEventListener("wheel", person, { passive: true });
    element.addEventListener("touchmove", person, { passive: true });
    element.addEventListener("pointerdown", press);
    window.addEventListener("keydown", key);
    return () => {
      element.removeEventListener("wheel", person);
      element.removeEventListener("touchmove", person);
      element.removeEventListener("pointerdown", press);
      window.removeEventListener("keydown", key);
    };
  }, [box]);

  return {
    following,
    newBelow: leftAt !== null && (entries > leftAt.entries || newest !== leftAt.newest),
    onScroll: () => {
      const element = box.current;
      if (!element) return;
      const resized = element.clientHeight !== seenHeight.current;
      remember();
      if (showsEnd(element)) follow(true);
      else if (following.current && resized && performance.now() - personAt.current > PERSON_INPUT_MS) pin();
      else follow(false);
    },
    toEnd,
    stop,
  };
}
