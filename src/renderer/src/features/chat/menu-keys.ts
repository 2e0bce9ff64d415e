import type { KeyboardEvent } from "react";

/**
 * The keys of a menu over the composer (the box keeps the focus): the arrows move the mark round the list,
 * Esc closes the menu, Enter or Tab picks the marked entry. Handled keys have their default prevented;
 * returns the entry picked, if one was.
 */
export function menuKey<T>(
  e: KeyboardEvent<HTMLTextAreaElement>,
  entries: readonly T[],
  at: number,
  moveTo: (index: number) => void,
  dismiss: () => void,
): T | undefined {
  if (e.nativeEvent.isComposing) return undefined;
  if (e.key === "ArrowDown" || e.key === "ArrowUp") {
    e.preventDefault();
    const step = e.key === "ArrowDown" ? 1 : -1;
    moveTo(entries.length === 0 ? 0 : (at + step + entries.length) % entries.length);
  } else if (e.key === "Escape") {
    e.preventDefault();
    dismiss();
  } else if ((e.key === "Enter" && !e.shiftKey) || e.key === "Tab") {
    const entry = entries[at];
    if (entry === undefined) return undefined;
    e.preventDefault();
    return entry;
  }
  return undefined;
}
