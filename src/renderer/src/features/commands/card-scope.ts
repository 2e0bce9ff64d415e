import { createContext, useContext } from "react";

/**
 * Where a card is drawn. The same command shows in the transcript and, while it waits, in the tray; the
 * tray's copy prefixes its test ids with "tray-" so a test's `getByTestId("approve-button")` inside
 * `getByTestId("command-card")` finds exactly one.
 */
export type CardPlace = "transcript" | "tray";

/** The place of the card being drawn. */
export const CardPlaceContext = createContext<CardPlace>("transcript");

/** Test ids for the card being drawn: as named in the transcript, prefixed in the tray. */
export function useTestId(): (name: string) => string {
  const place = useContext(CardPlaceContext);
  return place === "tray" ? (name) => `tray-${name}` : (name) => name;
}
