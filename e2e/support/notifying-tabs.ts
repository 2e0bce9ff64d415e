import type { BrowserContext, Page } from "@playwright/test";
import { expect, openDesk } from "../../harness/desk-page";
import type { DeskServer } from "../../harness/desk-server";

/** What a page's notifications were, as the init script below records them. */
export type Seen = { title: string; body: string | undefined; tag: string | undefined; closed: boolean }[];

/** The page's globals the init script adds: the records, and the notifications themselves to click. */
type Watched = { seen: Seen; notes: Notification[] };

/**
 * A context allowed to notify, whose pages record every Notification they construct and close: the real
 * constructor still runs (Chromium shows them), this only watches it from the page.
 */
export async function notifyingContext(
  newContext: () => Promise<BrowserContext>,
  desk: DeskServer,
): Promise<BrowserContext> {
  const context = await newContext();
  await context.grantPermissions(["notifications"], { origin: desk.origin });
  await context.addInitScript(() => {
    const watched: Watched = { seen: [], notes: [] };
    Object.assign(window, watched);
    const Native = window.Notification;
    window.Notification = class Observed extends Native {
      constructor(title: string, options?: NotificationOptions) {
        super(title, options);
        const record = { title, body: options?.body, tag: options?.tag, closed: false };
        watched.seen.push(record);
        watched.notes.push(this);
        const close = this.close.bind(this);
        this.close = () => {
          record.closed = true;
          close();
        };
      }
    };
  });
  return context;
}

/** The notifications a page raised, in order. */
export const seen = (page: Page): Promise<Seen> => page.evaluate(() => (window as unknown as Watched).seen);

/**
 * Clicks the `index`th notification a page raised as Chromium does when the person clicks it (headless
 * Chromium shows none to click): the page's tab comes forward, then the notification's click handler runs.
 */
export async function clickNotification(page: Page, index: number): Promise<void> {
  await page.bringToFront();
  await page.evaluate((at) => {
    const note = (window as unknown as Watched).notes[at];
    if (!note?.onclick) throw new Error(`Notification ${at} has no click handler.`);
    note.onclick.call(note, new Event("click"));
  }, index);
}

/**
 * Two tabs on the same host: `watcher` behind, `front` in front where the person works. Headless Chromium
 * keeps every page "visible", but without Playwright's focus emulation a page behind another has no focus,
 * which is what the page checks (`document.hasFocus()`), as when the window is behind another app's.
 */
export async function twoTabs(
  context: BrowserContext,
  desk: DeskServer,
): Promise<{ watcher: Page; front: Page }> {
  const open = async () => {
    const page = await context.newPage();
    await openDesk(page, desk);
    await (await context.newCDPSession(page)).send("Emulation.setFocusEmulationEnabled", { enabled: false });
    return page;
  };
  const watcher = await open();
  const front = await open();
  await front.bringToFront();
  await expect.poll(() => watcher.evaluate(() => document.hasFocus())).toBe(false);
  return { watcher, front };
}
