import { createContext, useContext } from "react";

/** Shows a chat by its id (the app owns which chat is shown); the composer's `/new` shows the chat it made. */
export const ShowChatContext = createContext<((chatId: string) => void) | null>(null);

/** The way to show a chat, or null where the page has none (a composer drawn alone, in tests). */
export function useShowChat(): ((chatId: string) => void) | null {
  return useContext(ShowChatContext);
}
