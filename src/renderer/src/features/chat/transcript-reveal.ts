/*
 * The transcript draws only the entries near its view, so a decided command's card further up may not be
 * in the page. Whoever wants it shown (a notification clicked, the host's "focus-command") asks here; the
 * transcript that is open scrolls to the entry, draws it and focuses it.
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
