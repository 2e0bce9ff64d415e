import type { App, BrowserWindow, NativeImage, Notification, nativeImage } from "electron";
import {
  inboxEntryId,
  inboxKey,
  inChat,
  WAITING_EDIT_TITLE,
  WAITING_TITLE,
  WAITING_TOOL_TITLE,
  waitingBody,
  waitingChanges,
  waitingEditBody,
  waitingToolBody,
} from "../../shared/attention";
import { HOST_EVENT_CHANNEL } from "../../shared/desk-api";
import type { HostEvent } from "../../shared/host-events";
import type { DeskHost } from "../core/desk-host";

/*
 * Getting the person's attention for a command that waits, from the main process. Main-process
 * notifications rather than the page's: the main process holds the host, so it sees a command start
 * waiting even while the window's page is throttled in the background; a click can bring the window
 * forward (show, restore, focus) and then ask the page to focus the card; and the dock/taskbar badge is
 * the main process's anyway. The page's `Notification` could not raise a minimised window reliably.
 */

/** The parts of Electron the watch uses, passed in so it can be tested where Electron cannot run. */
export interface AttentionShell {
  /** The app, for the dock/launcher badge. */
  app: Pick<App, "setBadgeCount">;
  /** The main window: whether it is in front, bringing it forward, the Windows overlay, its page. */
  window: BrowserWindow;
  /** Electron's main-process `Notification` class. */
  Notification: typeof Notification;
  /** Electron's `nativeImage`, for the overlay dot. */
  nativeImage: Pick<typeof nativeImage, "createFromBitmap">;
  /** The OS (`process.platform`). */
  platform: NodeJS.Platform;
}

/** Keeps the OS notifications and the dock/taskbar badge in step with the commands waiting. */
export function watchWaitingCommands(host: DeskHost, shell: AttentionShell): () => void {
  const { app, window, Notification, platform } = shell;
  const shown = new Map<string, Notification>();
  let known = new Set<string>();
  let overlay: NativeImage | undefined;

  const withdraw = (id: string) => {
    shown.get(id)?.close();
    shown.delete(id);
  };
  const update = () => {
    const state = host.state();
    // Every chat's: the inbox holds what waits in each, named by chat.
    const entries = new Map(state.inbox.map((entry) => [inboxKey(entry), entry]));
    const now = new Set(entries.keys());
    const { started, answered } = waitingChanges(known, now);
    known = now;
    for (const key of answered) withdraw(key);
    if (!state.notifications) for (const key of [...shown.keys()]) withdraw(key);
    showBadge(now.size);
    if (!state.notifications || !Notification.isSupported() || window.isDestroyed() || window.isFocused())
      return;
    for (const key of started) {
      const entry = entries.get(key);
      if (!entry || shown.has(key)) continue;
      const chat = state.chats.find((open) => open.id === entry.chatId);
      // The command's first line, or the edit's file, and the chat's name: nothing of an output or a content.
      const notification = new Notification(
        entry.kind === "command"
          ? { title: WAITING_TITLE, body: inChat(chat?.title, waitingBody(entry.command)) }
          : entry.kind === "edit"
            ? { title: WAITING_EDIT_TITLE, body: inChat(chat?.title, waitingEditBody(entry.edit)) }
            : { title: WAITING_TOOL_TITLE, body: inChat(chat?.title, waitingToolBody(entry.call)) },
      );
      notification.on("click", () => {
        if (window.isDestroyed()) return;
        if (window.isMinimized()) window.restore();
        window.show();
        window.focus();
        const id = inboxEntryId(entry);
        const focus: HostEvent = { type: "focus-command", chatId: entry.chatId, id };
        window.webContents.send(HOST_EVENT_CHANNEL, focus);
      });
      notification.on("close", () => shown.delete(key));
      shown.set(key, notification);
      notification.show();
    }
  };

  /** The count on the dock (macOS) or launcher (Linux, Unity); an overlay dot on the Windows taskbar. */
  const showBadge = (count: number) => {
    if (platform === "win32") {
      if (window.isDestroyed()) return;
      overlay ??= dotImage(shell.nativeImage);
      window.setOverlayIcon(count > 0 ? overlay : null, count > 0 ? WAITING_TITLE : "");
      return;
    }
    // False where the platform has no badge (most Linux desktops): nothing more to do there.
    app.setBadgeCount(count);
  };

  // Edits too: a file edit waiting for approval raises a notification and counts in the badge.
  const unsubscribe = host.subscribe((event) => {
    if (
      event.type === "command-update" ||
      event.type === "edit-update" ||
      event.type === "chat-closed" ||
      event.type === "notifications-changed"
    ) {
      update();
    }
  });
  return () => {
    unsubscribe();
    for (const id of [...shown.keys()]) withdraw(id);
    showBadge(0);
  };
}

/** A 16×16 red dot for the Windows taskbar overlay, drawn in memory (BGRA), so no icon file is needed. */
function dotImage(images: AttentionShell["nativeImage"]): NativeImage {
  const size = 16;
  const pixels = Buffer.alloc(size * size * 4);
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const inside = (x - 7.5) ** 2 + (y - 7.5) ** 2 <= 7.5 ** 2;
      pixels.set(inside ? [0x2e, 0x22, 0xcf, 0xff] : [0, 0, 0, 0], (y * size + x) * 4);
    }
  }
  return images.createFromBitmap(pixels, { width: size, height: size });
}
