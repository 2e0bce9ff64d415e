import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { card, expect, expectPending, runCommand, say, send, trayCard } from "../harness/desk-page";
import { type DeskServer, startDeskServer, stopDeskServer } from "../harness/desk-server";
import { chatScript, longChatId, prepareLongChat } from "../harness/long-chat";
import { test } from "./support/desk-test";
import { clickNotification, notifyingContext, seen, twoTabs } from "./support/notifying-tabs";

/*
 * The transcript draws only the entries near its view, so the card a notification names may not be in
 * the page: a click that crosses the command's answer (the person clicks as another tab decides it) finds
 * the tray without it and the transcript's card far off. The transcript then scrolls to the card, draws it
 * and focuses it (features/chat/transcript-reveal.ts); the desktop app's focus-command goes the same way.
 */

/** Commands before the one that waits: a long way from the top of the transcript to its end. */
const COMMANDS = 30;
/** Lines each prints: enough that every card holds a tall output. */
const LINES = 60;
/** The command that waits for the person, last in the chat. */
const WAITING = "call-reveal";

test.describe.configure({ timeout: 240_000 });

test("a notification's click draws its command's card from far off, in view and focused", async ({
  browser,
}) => {
  const home = mkdtempSync(join(tmpdir(), "pi-desk-e2e-reveal-home-"));
  const workspace = mkdtempSync(join(tmpdir(), "pi-desk-e2e-reveal-"));
  const env = prepareLongChat(home, workspace);
  // The long chat's commands (allowed by the workspace's rule), then one the person has to answer.
  const script = [
    ...chatScript(COMMANDS, LINES).slice(0, -1),
    [runCommand(WAITING, "echo revealed from far off", 10)],
    [say("Done.")],
  ];
  writeFileSync(env.PI_DESK_SCRIPT, JSON.stringify(script));
  let host: { server: DeskServer; child: Awaited<ReturnType<typeof startDeskServer>>["child"] } | undefined;
  try {
    host = await startDeskServer(workspace, { env });
    const context = await notifyingContext(() => browser.newContext(), host.server);
    const { watcher, front } = await twoTabs(context, host.server);

    await send(front, "Run them all");
    await expectPending(front, WAITING);
    // The tab behind notified (the commands the rule allows are pending a moment while checked, and a frame
    // may catch one: each such notification is withdrawn already); its person had scrolled up meanwhile.
    // Tagged by chat and command (a tool call id is one chat's own).
    const ofWaiting = (tag: string | undefined) =>
      /^pi-desk:[\w-]+:/.test(tag ?? "") && tag?.endsWith(`:${WAITING}`);
    const noteOf = async () => (await seen(watcher)).findIndex((note) => ofWaiting(note.tag) && !note.closed);
    await expect.poll(noteOf).toBeGreaterThanOrEqual(0);
    const note = await noteOf();
    const transcript = watcher.getByTestId("transcript");
    await transcript.evaluate((el) => {
      el.scrollTop = 0;
    });
    await expect(watcher.getByTestId("user-message")).toBeInViewport();

    // Answered in the front tab: the tab behind withdraws its notification and its tray empties; the
    // card, far below the view, is not in its page.
    await trayCard(front, WAITING).getByTestId("tray-approve-button").click();
    await expect(card(front, WAITING)).toHaveAttribute("data-status", "succeeded");
    await expect.poll(async () => (await seen(watcher))[note]?.closed).toBe(true);
    await expect(trayCard(watcher, WAITING)).toHaveCount(0);
    await expect(card(watcher, WAITING)).toHaveCount(0);
    await expect(card(watcher, longChatId(COMMANDS))).toHaveCount(0);
    await expect(watcher.getByTestId("user-message")).toBeInViewport();

    // The click crossed the answer: the transcript brings the card in, in view and focused.
    await clickNotification(watcher, note);
    const revealed = card(watcher, WAITING);
    await expect(revealed).toHaveAttribute("data-status", "succeeded");
    await expect(revealed).toBeInViewport();
    await expect(revealed).toBeFocused();
    await expect(revealed.getByTestId("command-output")).toContainText("revealed from far off");
    await expect(watcher.getByTestId("user-message")).toHaveCount(0);
    await context.close();
  } finally {
    if (host) await stopDeskServer(host.child);
    rmSync(workspace, { recursive: true, force: true });
    rmSync(home, { recursive: true, force: true });
  }
});
