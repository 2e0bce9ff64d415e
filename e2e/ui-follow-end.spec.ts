import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "@playwright/test";
import {
  edit,
  expect,
  expectPending,
  openDesk,
  runCommand,
  say,
  send,
  UI_TEST_TIMEOUT_MS,
} from "../harness/desk-page";
import type { ScriptBlock } from "../harness/desk-server";
import { test } from "./support/desk-test";

/*
 * The transcript follows its end while the person is there, through every decision and every form of the
 * tray (issue 40: after a denial with a reason it stopped, and the answer was below the view, not even
 * drawn); scrolled up by the person, it stays where they read and offers the way down.
 */

test.describe.configure({ timeout: UI_TEST_TIMEOUT_MS });

/** The answer waits this long first, so the person can scroll up before it arrives. */
const slowly = (ms: number): ScriptBlock => ({ type: "delay", ms });

/** Some lines of text, so that the chat soon outgrows the window. */
const lines = (what: string) =>
  Array.from({ length: 6 }, (_, i) => `${what}: line ${i + 1} of what the agent says.`).join("\n\n");

const SCRIPT: ScriptBlock[][] = [
  [say(lines("Running one")), runCommand("c1", "echo one", 10)],
  [say("One done.")],
  [say(lines("Running two")), runCommand("c2", "echo two", 10)],
  [say("Two skipped.")],
  [say(lines("Running three")), runCommand("c3", "echo three", 10)],
  [say("Three done, as you edited it.")],
  [say(lines("Editing four")), edit("e4", "notes.md", "old words", "new words")],
  [say("Four written, your way.")],
  [say(lines("Running five")), runCommand("c5", "echo five", 10)],
  [say("Five done, and allowed from now on.")],
  [say(lines("Running six")), runCommand("c6", "echo fail-C >&2; exit 7", 10)],
  [say("Six done.")],
  [slowly(6000), say(lines("Seven arrived"))],
  [slowly(6000), say(lines("Eight arrived"))],
];

/** The transcript's scroll box. */
const transcriptOf = (page: Page) => page.getByTestId("transcript");
/** How far the view is from the transcript's end, in pixels. */
const gapToEnd = (page: Page) =>
  transcriptOf(page).evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight);

/** The newest assistant message says `text`, is drawn, and lies inside the transcript's visible box. */
async function expectNewestInView(page: Page, text: string): Promise<void> {
  const newest = page.getByTestId("assistant-message").last();
  await expect(newest).toContainText(text);
  await expect
    .poll(async () => {
      const [box, message] = await Promise.all([transcriptOf(page).boundingBox(), newest.boundingBox()]);
      if (!box || !message) return "not drawn";
      const inside = message.y >= box.y - 1 && message.y + message.height <= box.y + box.height + 1;
      return inside
        ? "inside"
        : `at ${Math.round(message.y)}..${Math.round(message.y + message.height)}, box ${Math.round(box.y)}..${Math.round(box.y + box.height)}`;
    })
    .toBe("inside");
}

/** A tray form open at the end of the chat leaves the view at the end. */
async function expectStillAtEnd(page: Page): Promise<void> {
  await expect.poll(() => gapToEnd(page)).toBeLessThan(24);
}

/** Scrolls the transcript up with the mouse wheel, as a person does, and returns where it settled. */
async function scrollUpByWheel(page: Page): Promise<number> {
  const box = await transcriptOf(page).boundingBox();
  if (!box) throw new Error("The transcript is not laid out.");
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.wheel(0, -400);
  await expect.poll(() => gapToEnd(page)).toBeGreaterThan(200);
  // Settled: the same place twice, a few frames apart.
  let place = -1;
  await expect
    .poll(async () => {
      const before = place;
      place = await transcriptOf(page).evaluate((el) => el.scrollTop);
      return place === before;
    })
    .toBe(true);
  return place;
}

for (const viewport of [
  { width: 1280, height: 720 },
  { width: 1024, height: 640 },
]) {
  test(`at ${viewport.width}x${viewport.height} the newest message stays in view through every decision and form, and a person reading above is left there`, async ({
    page,
    scriptedDesk,
  }) => {
    await page.setViewportSize(viewport);
    const desk = await scriptedDesk(SCRIPT);
    writeFileSync(join(desk.workspace, "notes.md"), "Some old words.\n");
    await openDesk(page, desk);

    // Approve.
    await send(page, "One");
    await (await expectPending(page, "c1")).getByTestId("tray-approve-button").click();
    await expectNewestInView(page, "One done.");

    // Deny, with a reason typed in the tray's form.
    await send(page, "Two");
    const two = await expectPending(page, "c2");
    await two.getByTestId("tray-deny-button").click();
    await expectStillAtEnd(page);
    await two.getByTestId("tray-deny-reason").fill("not now");
    await two.getByTestId("tray-deny-reason").press("Enter");
    await expectNewestInView(page, "Two skipped.");

    // Edit the command, then approve it.
    await send(page, "Three");
    const three = await expectPending(page, "c3");
    await three.getByTestId("tray-edit-button").click();
    await expectStillAtEnd(page);
    await three.getByTestId("tray-edit-command").fill("echo three, edited");
    await three.getByTestId("tray-approve-button").click();
    await expectNewestInView(page, "Three done, as you edited it.");

    // Change a file edit before it is written.
    await send(page, "Four");
    const four = page.locator('[data-testid="tray-item"][data-edit-id="e4"]');
    await expect(four.getByTestId("tray-approve-button")).toBeEnabled();
    await four.getByTestId("tray-change-button").click();
    await expectStillAtEnd(page);
    await four.getByTestId("tray-edit-content").fill("Some words of mine.\n");
    await four.getByTestId("tray-change-apply-button").click();
    await expectNewestInView(page, "Four written, your way.");

    // Always allow, through the rule's form.
    await send(page, "Five");
    const five = await expectPending(page, "c5");
    await five.getByTestId("tray-always-allow-button").click();
    await expectStillAtEnd(page);
    await five.getByTestId("tray-always-allow-confirm").click();
    await expectNewestInView(page, "Five done, and allowed from now on.");

    // Send and approve again.
    await send(page, "Six");
    await (await expectPending(page, "c6")).getByTestId("tray-approve-button").click();
    await expectNewestInView(page, "Six done.");
    await expect(page.getByTestId("new-below-button")).toHaveCount(0);

    // Scrolled up by the person while the answer is on its way: it arrives below, the view stays, and
    // the control says so; a click takes them to it.
    await send(page, "Seven");
    await expect(page.getByTestId("user-message").last()).toContainText("Seven");
    const place = await scrollUpByWheel(page);
    await expect(page.getByTestId("new-below-button")).toBeVisible({ timeout: 15_000 });
    await expect(page.getByTestId("stop-button")).toHaveCount(0);
    expect(Math.abs((await transcriptOf(page).evaluate((el) => el.scrollTop)) - place)).toBeLessThan(2);
    await page.getByTestId("new-below-button").click();
    await expectNewestInView(page, "Seven arrived: line 6");
    await expect(page.getByTestId("new-below-button")).toHaveCount(0);

    // The same from the keyboard: the control takes the focus and Enter.
    await send(page, "Eight");
    await expect(page.getByTestId("user-message").last()).toContainText("Eight");
    const again = await scrollUpByWheel(page);
    await expect(page.getByTestId("new-below-button")).toBeVisible({ timeout: 15_000 });
    await expect(page.getByTestId("stop-button")).toHaveCount(0);
    expect(Math.abs((await transcriptOf(page).evaluate((el) => el.scrollTop)) - again)).toBeLessThan(2);
    await page.getByTestId("new-below-button").focus();
    await page.keyboard.press("Enter");
    await expectNewestInView(page, "Eight arrived: line 6");
    await expect(page.getByTestId("prompt-input")).toBeFocused();
  });
}
