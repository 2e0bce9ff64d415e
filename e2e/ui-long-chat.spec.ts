import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Page } from "@playwright/test";
import { card, expect, openDesk, runCommand, say, scrollToCard, send } from "../harness/desk-page";
import { type DeskServer, startDeskServer, stopDeskServer } from "../harness/desk-server";
import {
  chatScript,
  LONG_CHAT_LAST_WORDS,
  longChatCommand,
  longChatId,
  prepareLongChat,
} from "../harness/long-chat";
import { test } from "./support/desk-test";

/*
 * A long chat, reopened after a restart as a person does (the session list of a new host). The transcript
 * draws only what is near its view: the page stays small however long the chat, its end shows at once,
 * scrolling up draws the earlier cards, and the end is followed when a new command arrives. The bench
 * (`npm run bench:ui -- --phase long-chat`) measures the same with 500 commands of 2,000 lines.
 */

/** Commands in the chat: enough that drawing all of them would pass the bounds below many times over. */
const COMMANDS = 150;
/** Lines each prints: enough that every card holds a tall output. */
const LINES = 120;
/** The most command cards in the page at once: a screenful and the entries drawn beyond its edges. */
const MAX_CARDS = 30;
/** The most elements in the page: the app's own frame and a screenful of cards (all 150 take ~25,000). */
const MAX_ELEMENTS = 4_000;

test.describe.configure({ timeout: 300_000 });

const elements = (page: Page) => page.evaluate(() => document.getElementsByTagName("*").length);
const cards = (page: Page) => page.getByTestId("command-card").count();
const transcriptOf = (page: Page) => page.getByTestId("transcript");
const gapToEnd = (page: Page) =>
  transcriptOf(page).evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight);

test("a long reopened chat keeps the page small, shows its end, draws earlier cards on scrolling up, and follows new commands", async ({
  page,
}) => {
  const home = mkdtempSync(join(tmpdir(), "pi-desk-e2e-long-home-"));
  const workspace = mkdtempSync(join(tmpdir(), "pi-desk-e2e-long-"));
  const env = prepareLongChat(home, workspace);
  // After the long chat: one more command while the person is at the end, one while they read further up.
  const atEnd = longChatId(COMMANDS + 1);
  const scrolledUp = longChatId(COMMANDS + 2);
  // The restarted host plays its script from its first turn: it gets only what comes after the chat.
  const after = [
    [runCommand(atEnd, longChatCommand(COMMANDS + 1, 30), 60)],
    [say("One more ran.")],
    // Slow to come, so the person can scroll up to read before it arrives.
    [{ type: "delay", ms: 4_000 }, runCommand(scrolledUp, longChatCommand(COMMANDS + 2, 30), 60)],
    [say("And another.")],
  ];
  writeFileSync(env.PI_DESK_SCRIPT, JSON.stringify(chatScript(COMMANDS, LINES)));
  let host: { server: DeskServer; child: Awaited<ReturnType<typeof startDeskServer>>["child"] } | undefined;
  try {
    // Make the chat (each command allowed by the workspace's rule, run for real), then restart the host.
    host = await startDeskServer(workspace, { env });
    await openDesk(page, host.server);
    await send(page, "Run them all");
    await expect(page.getByTestId("assistant-message").last()).toContainText(LONG_CHAT_LAST_WORDS, {
      timeout: 180_000,
    });
    await expect(page.getByTestId("stop-button")).toHaveCount(0);
    await stopDeskServer(host.child);
    writeFileSync(env.PI_DESK_SCRIPT, JSON.stringify(after));
    host = await startDeskServer(workspace, { env });
    await openDesk(page, host.server);

    // Reopen it from the session list: its last message is shown, and only a screenful is in the page.
    await page
      .getByTestId("session-item")
      .filter({ hasNot: page.locator("[aria-current]") })
      .click();
    const last = page.getByTestId("assistant-message").last();
    await expect(last).toContainText(LONG_CHAT_LAST_WORDS);
    await expect(last).toBeInViewport();
    await expect(card(page, longChatId(COMMANDS))).toHaveAttribute("data-status", "succeeded");
    expect(await cards(page)).toBeLessThanOrEqual(MAX_CARDS);
    expect(await elements(page)).toBeLessThan(MAX_ELEMENTS);
    // The list says how long the chat is, though it holds only what is drawn.
    await expect(page.locator(".transcript-item").last()).toHaveAttribute("aria-setsize", `${COMMANDS + 3}`);

    // Scrolling up draws the earlier cards, whole (output and changes), and the page stays as small.
    await expect(card(page, longChatId(1))).toHaveCount(0);
    const first = await scrollToCard(page, longChatId(1));
    await expect(first).toBeInViewport();
    await expect(first).toHaveAttribute("data-status", "succeeded");
    // Its output came on demand (the reopened chat's state leaves long ones out): this card's, no other's.
    await expect(first.getByTestId("command-output")).toContainText(`line ${LINES} of command 1:`);
    await expect(first.getByTestId("command-output")).not.toContainText("of command 2:");
    await expect(first.getByTestId("changes-summary")).toHaveAttribute("data-files", "1");
    // Above it, the start of the chat: what the person asked for.
    await transcriptOf(page).evaluate((el) => {
      el.scrollTop = 0;
    });
    await expect(page.getByTestId("user-message")).toBeInViewport();
    expect(await cards(page)).toBeLessThanOrEqual(MAX_CARDS);
    expect(await elements(page)).toBeLessThan(MAX_ELEMENTS);
    await expect(card(page, longChatId(COMMANDS))).toHaveCount(0);

    // The entry that holds focus stays drawn when the view moves away from it (a keyboard or screen
    // reader user is not dropped out of the page), while the others near it go.
    await first.focus();
    await transcriptOf(page).evaluate((el) => {
      el.scrollTop = el.scrollHeight;
    });
    await expect.poll(() => gapToEnd(page)).toBeLessThan(24);
    await expect(card(page, longChatId(COMMANDS))).toBeInViewport();
    await expect(first).toBeFocused();
    await expect(card(page, longChatId(2))).toHaveCount(0);
    expect(await cards(page)).toBeLessThanOrEqual(MAX_CARDS);
    await page.getByTestId("prompt-input").focus();
    await expect(card(page, longChatId(1))).toHaveCount(0);

    // Back at the end, a new command arrives and the view follows it to the answer after it.
    await send(page, "One more");
    await expect(card(page, atEnd)).toHaveAttribute("data-status", "succeeded");
    await expect(card(page, atEnd).getByTestId("command-output")).toContainText(
      `line 30 of command ${COMMANDS + 1}:`,
    );
    await expect(page.getByTestId("assistant-message").last()).toContainText("One more ran.");
    await expect(page.getByTestId("assistant-message").last()).toBeInViewport();
    await expect.poll(() => gapToEnd(page)).toBeLessThan(24);

    // Sent, then reading further up while the answer is on its way: it does not pull the view away, and
    // the way down says there is something new.
    const entries = async () =>
      Number(await page.locator(".transcript-item").first().getAttribute("aria-setsize"));
    const before = await entries();
    await send(page, "And another");
    await expect.poll(entries).toBe(before + 1);
    const reading = await scrollToCard(page, longChatId(COMMANDS - 20));
    const topOf = () => reading.evaluate((el) => Math.round(el.getBoundingClientRect().top));
    const place = await topOf();
    // Its entries arrive (the command, the answer) out of view, and the turn ends.
    await expect.poll(entries, { timeout: 30_000 }).toBeGreaterThanOrEqual(before + 3);
    await expect(page.getByTestId("stop-button")).toHaveCount(0);
    await expect(reading).toBeInViewport();
    expect(Math.abs((await topOf()) - place)).toBeLessThan(4);
    await expect(card(page, scrolledUp)).toHaveCount(0);
    await page.getByTestId("new-below-button").click();
    await expect(card(page, scrolledUp)).toHaveAttribute("data-status", "succeeded");
    await expect(page.getByTestId("assistant-message").last()).toContainText("And another.");
  } finally {
    if (host) await stopDeskServer(host.child);
    rmSync(workspace, { recursive: true, force: true });
    rmSync(home, { recursive: true, force: true });
  }
});
