/*
 * The transcript draws only the entries near its view, so a decided command's card further up may not be
 * in the page. Whoever wants it shown (a notification clicked, the host's "focus-command") asks here; the
 * transcript that is open scrolls to the entry, draws it and focuses it. The same for its end: the
 * composer and the approval cards ask for it when the person acts.
 */

/** Scrolls the open transcript to an entry and focuses it; false when no transcript holds that id. */
export type RevealEntry = (id: string) => boolean;

let current: RevealEntry | undefined;

/** The open transcript offers its reveal; the returned function withdraws it (when it unmounts). */
export function offerTranscriptReveal(reveal: RevealEntry): () => void {
  current = reveal;
  return () => {
    if (current === reveal) current = undefined;
  };
}

/** Brings a command's or edit's entry into view and focuses it; false when the open transcript has none. */
export function revealTranscriptEntry(id: string): boolean {
  return current?.(id) ?? false;
}

/** Takes the open transcript to its end and has it follow the end again. */
export type FollowEnd = () => void;

let currentEnd: FollowEnd | undefined;

/** The open transcript offers to go to its end; the returned function withdraws it (when it unmounts). */
export function offerTranscriptEnd(toEnd: FollowEnd): () => void {
  currentEnd = toEnd;
  return () => {
    if (currentEnd === toEnd) currentEnd = undefined;
  };
}

/**
 * The person acted on the chat in this page (sent a message, decided a card): they want to see what comes
 * of it, so the open transcript goes to its end and follows it, wherever they had scrolled to. (A decision
 * made in another tab, or by the host, does not move this page's view.)
 */
export function followTranscriptEnd(): void {
  currentEnd?.();
}
