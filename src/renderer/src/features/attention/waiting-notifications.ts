import { useEffect, useRef } from "react";
import {
  inboxEntryId,
  inboxKey,
  inChat,
  waitingBody,
  waitingChanges,
  waitingEditBody,
  waitingToolBody,
} from "../../../../shared/attention";
import type { HostState } from "../../../../shared/host-state";
import { useT } from "../../i18n/i18n";
import { revealTranscriptEntry } from "../chat/transcript-reveal";

/** Whether this page can show notifications now: the API exists and the person allowed it. */
export function notificationsAllowed(): boolean {
  return typeof Notification !== "undefined" && Notification.permission === "granted";
}

/** Whether the person is looking at this page: it is shown and has the focus. */
function pageInFront(): boolean {
  return document.visibilityState === "visible" && document.hasFocus();
}

/**
 * The browser host's notifications of waiting commands (the desktop app raises them from its main
 * process, see src/main/electron/attention.ts): one per command that starts waiting while the page is
 * not in front, withdrawn once the command is answered (here or anywhere else) or notifications are
 * turned off. A click brings the page forward and the command's card into focus.
 */
export function useWaitingNotifications(
  host: HostState | null,
  focusCommand: (id: string, chatId: string) => void,
): void {
  const t = useT();
  const shown = useRef(new Map<string, Notification>());
  const known = useRef<Set<string>>(new Set());
  // Every chat's: the inbox holds what waits in each.
  const inbox = host?.inbox;
  const chats = host?.chats;
  const enabled = host?.shell === "browser" && host.notifications;
  const focus = useRef(focusCommand);
  focus.current = focusCommand;

  useEffect(() => {
    const entries = new Map((inbox ?? []).map((entry) => [inboxKey(entry), entry]));
    const now = new Set(entries.keys());
    const { started, answered } = waitingChanges(known.current, now);
    known.current = now;
    for (const key of answered) {
      shown.current.get(key)?.close();
      shown.current.delete(key);
    }
    if (!enabled || !notificationsAllowed() || pageInFront()) return;
    for (const key of started) {
      const entry = entries.get(key);
      if (!entry || shown.current.has(key)) continue;
      const chat = chats?.find((open) => open.id === entry.chatId)?.title;
      const id = inboxEntryId(entry);
      // The tag makes a second tab's notification of the same command replace this one, not add to it.
      const notification = new Notification(
        entry.kind === "command"
          ? t.attention.title
          : entry.kind === "edit"
            ? t.attention.editTitle
            : t.mcp.notificationTitle,
        {
          body: inChat(
            chat,
            entry.kind === "command"
              ? waitingBody(entry.command)
              : entry.kind === "edit"
                ? waitingEditBody(entry.edit)
                : waitingToolBody(entry.call),
          ),
          tag: `pi-desk:${key}`,
        },
      );
      notification.onclick = () => {
        window.focus();
        notification.close();
        focus.current(id, entry.chatId);
      };
      shown.current.set(key, notification);
    }
  }, [inbox, chats, enabled, t]);

  useEffect(() => {
    if (enabled) return;
    for (const notification of shown.current.values()) notification.close();
    shown.current.clear();
  }, [enabled]);
  // Withdrawn when the page goes too: they would name commands no page is there to answer.
  useEffect(
    () => () => {
      for (const notification of shown.current.values()) notification.close();
    },
    [],
  );
}

/** Brings a waiting command's card into view and gives it the focus: the tray's, else the transcript's. */
export function focusCommandCard(id: string): void {
  const card =
    document.querySelector<HTMLElement>(`.approval-tray [data-command-id="${CSS.escape(id)}"]`) ??
    document.querySelector<HTMLElement>(`.approval-tray [data-edit-id="${CSS.escape(id)}"]`) ??
    document.querySelector<HTMLElement>(`.approval-tray [data-tool-call-id="${CSS.escape(id)}"]`) ??
    document.querySelector<HTMLElement>(
      `[data-testid="command-card"][data-command-id="${CSS.escape(id)}"]`,
    ) ??
    document.querySelector<HTMLElement>(`[data-testid="edit-card"][data-edit-id="${CSS.escape(id)}"]`);
  // Focusing scrolls it into view as well. A decided card further up the transcript is not drawn (only
  // the entries near the view are): the transcript scrolls to it and focuses it once drawn.
  if (card) card.focus();
  else revealTranscriptEntry(id);
}
