import { createContext, createElement, type ReactNode, useContext } from "react";

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

/** The chat a tray card waits in: its id and name, and the way to open it. */
export interface TrayChat {
  /** The chat's id (the card's `data-chat-id`). */
  id: string;
  /** Its name, shown on the card. */
  name: string;
  /** Opens the chat. */
  show(): void;
}

/** The chat of the tray card being drawn; null in the transcript (a card there is the shown chat's). */
export const TrayChatContext = createContext<TrayChat | null>(null);

/** On a tray card: the chat's name, a button that opens the chat. */
export function TrayChatName(): ReactNode {
  const chat = useContext(TrayChatContext);
  if (!chat) return null;
  return createElement(
    "button",
    { type: "button", className: "link tray-chat-name", onClick: chat.show, "data-testid": "tray-chat-name" },
    chat.name,
  );
}
