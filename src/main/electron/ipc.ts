import type { IpcMain, IpcMainInvokeEvent, WebContents } from "electron";
import { HOST_EVENT_CHANNEL, requestChannel } from "../../shared/desk-api";
import { deskMethods } from "../../shared/request-schemas";
import type { DeskHost } from "../core/desk-host";
import { routeRequest } from "../core/request-router";

/**
 * Is this message from our own page? Only the window's top frame, showing the app's own URL, may call the
 * host: a frame that navigated elsewhere or an embedded one is refused (VS Code's validated IPC does the same).
 */
export function isTrustedSender(event: IpcMainInvokeEvent, contents: WebContents, appUrl: string): boolean {
  const frame = event.senderFrame;
  if (event.sender !== contents || !frame || frame.parent !== null) return false;
  const app = new URL(appUrl);
  const sent = URL.parse(frame.url);
  if (!sent) return false;
  // The built app is one file: only that file will do. Comparing origins there would take any data:,
  // about:, blob: or javascript: page for ours, since all of them and every file: URL have the origin "null".
  if (app.protocol === "file:") return sent.href === app.href;
  // The dev server: any page of its origin (scheme, host and port), never an opaque one.
  return sent.origin !== "null" && sent.origin === app.origin;
}

/**
 * Puts `DeskApi` on `ipcMain`: one channel per call, each checked for its sender and routed through the
 * same schema gate as the browser host. Events go to the window on one channel. Returns a function that
 * takes it all down again.
 */
export function registerDeskIpc(
  ipcMain: IpcMain,
  host: DeskHost,
  contents: WebContents,
  appUrl: string,
): () => void {
  for (const method of deskMethods) {
    ipcMain.handle(requestChannel(method), async (event, ...args: unknown[]) => {
      if (!isTrustedSender(event, contents, appUrl)) {
        throw new Error(`Refused ${method}: the message did not come from Pi Desk's own page.`);
      }
      if (args.length > 1)
        throw new Error(`Invalid parameters for ${method}: send at most one parameter object.`);
      const outcome = await routeRequest(host.handlers, method, args[0]);
      if (!outcome.ok) throw new Error(outcome.error.message);
      return outcome.result;
    });
  }
  const unsubscribe = host.subscribe((event) => {
    if (!contents.isDestroyed()) contents.send(HOST_EVENT_CHANNEL, event);
  });
  return () => {
    unsubscribe();
    for (const method of deskMethods) ipcMain.removeHandler(requestChannel(method));
  };
}
