import { createContext, useContext } from "react";

/**
 * Opens the Running panel, where a background command's live output and Stop are shown in full. The
 * transcript's compact copy of the command offers it; the app owns whether the panel is open.
 */
export const OpenRunningPanelContext = createContext<(() => void) | null>(null);

/** The way to open the Running panel, or null where the page has none (a card drawn alone, in tests). */
export function useOpenRunningPanel(): (() => void) | null {
  return useContext(OpenRunningPanelContext);
}
