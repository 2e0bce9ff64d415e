import { type KeyboardEvent, memo, useId, useRef } from "react";
import { inboxEntryId } from "../../../../shared/attention";
import type { ChatSummary, InboxEntry } from "../../../../shared/host-state";
import type { ChatApi } from "../../client/chat-api";
import { useT } from "../../i18n/i18n";
import { EditCard } from "../edits/EditCard";
import { OutOfViewNote } from "../layout/OutOfViewNote";
import { useOutOfView } from "../layout/use-out-of-view";
import { McpCallCard } from "../mcp/McpCallCard";
import { CommandCard } from "./CommandCard";
import { CardPlaceContext, TrayChatContext } from "./card-scope";

/**
 * Every command and file edit waiting for the person, always in view while any waits (the transcript may have
 * scrolled far past where the agent asked). This is the one place each is drawn in full and decided; the
 * transcript holds a line leading here. Its entries scroll within a bounded height, and it says how many
 * are out of view. Each entry answers on its own.
 */
export const ApprovalTray = memo(function ApprovalTray({
  entries,
  chats,
  apiFor,
  onShowChat,
}: {
  entries: InboxEntry[];
  chats: ChatSummary[];
  apiFor: (chatId: string) => ChatApi;
  onShowChat: (chatId: string) => void;
}) {
  const t = useT();
  const headingId = useId();
  const box = useRef<HTMLDivElement>(null);
  const list = useRef<HTMLDivElement>(null);
  const total = entries.length;
  const hidden = useOutOfView(box, list, total > 0);
  if (total === 0) return null;
  const names = new Map(chats.map((chat) => [chat.id, chat.title || t.chats.untitled]));
  return (
    <section className="approval-tray" aria-labelledby={headingId} data-testid="approval-tray">
      <header className="tray-head">
        <h2 id={headingId}>{t.command.trayHeading(total)}</h2>
        <span className="muted tray-hint" title={t.command.trayHint}>
          {t.command.trayHint}
        </span>
        <OutOfViewNote count={hidden} testId="tray-out-of-view" />
      </header>
      <div className="tray-scroll" ref={box} data-testid="tray-scroll">
        {/* biome-ignore lint/a11y/noStaticElementInteractions: the keys move the focus between the cards it holds, each focusable itself; the list takes no focus */}
        <div className="tray-items" ref={list} onKeyDown={moveThroughInbox}>
          {entries.map((entry) => {
            const id = inboxEntryId(entry);
            const chat = {
              id: entry.chatId,
              name: names.get(entry.chatId) ?? t.chats.untitled,
              show: () => onShowChat(entry.chatId),
            };
            return (
              <TrayChatContext.Provider key={`${entry.chatId}:${id}`} value={chat}>
                {entry.kind === "command" ? (
                  <CommandCard command={entry.command} api={apiFor(entry.chatId)} place="tray" />
                ) : (
                  <CardPlaceContext.Provider value="tray">
                    {entry.kind === "edit" ? (
                      <EditCard edit={entry.edit} api={apiFor(entry.chatId)} />
                    ) : (
                      <McpCallCard call={entry.call} api={apiFor(entry.chatId)} />
                    )}
                  </CardPlaceContext.Provider>
                )}
              </TrayChatContext.Provider>
            );
          })}
        </div>
      </div>
    </section>
  );
});

/**
 * The arrows, and j and k, move the focus from card to card through the inbox; Enter and Esc then act on
 * the focused card (its own keys). Only from a card itself: in a form's field they type as usual.
 */
function moveThroughInbox(e: KeyboardEvent<HTMLDivElement>): void {
  if (e.defaultPrevented || e.nativeEvent.isComposing || e.altKey || e.ctrlKey || e.metaKey) return;
  const step = e.key === "ArrowDown" || e.key === "j" ? 1 : e.key === "ArrowUp" || e.key === "k" ? -1 : 0;
  const cards = [...e.currentTarget.children] as HTMLElement[];
  const at = cards.indexOf(e.target as HTMLElement);
  const next = cards[at + step];
  if (step === 0 || at < 0 || !next) return;
  e.preventDefault();
  next.focus();
}
