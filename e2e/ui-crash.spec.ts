import { existsSync } from "node:fs";
import { join } from "node:path";
import {
  card,
  expect,
  expectPending,
  openDesk,
  runCommand,
  say,
  send,
  shot,
  UI_TEST_TIMEOUT_MS,
} from "../harness/desk-page";
import { test } from "./support/desk-test";

test.describe.configure({ timeout: UI_TEST_TIMEOUT_MS });

test("a renderer crash during an approval and a run loses nothing and decides nothing", async ({
  page,
  context,
  scriptedDesk,
}, testInfo) => {
  const desk = await scriptedDesk([
    [
      say("Two things."),
      runCommand("call-run", "echo before; sleep 3; echo after-the-crash", 30),
      runCommand("call-wait", "touch decided-without-the-person", 30),
    ],
    [say("Back again.")],
  ]);
  await openDesk(page, desk);
  await send(page, "Run them");
  await (await expectPending(page, "call-run")).getByTestId("tray-approve-button").click();
  await expect(card(page, "call-run")).toHaveAttribute("data-status", "running");
  await expectPending(page, "call-wait");

  // The tab's renderer process dies, as it would on a crash or an out-of-memory kill.
  const crashed = page.waitForEvent("crash");
  await page.goto("chrome://crash").catch(() => {});
  await crashed;

  // The command that ran meanwhile finished with all its output; the one that waited still waits.
  const again = await context.newPage();
  await openDesk(again, desk);
  const ran = card(again, "call-run");
  await expect(ran).toHaveAttribute("data-status", "succeeded");
  await expect(ran.getByTestId("command-output")).toContainText("before");
  await expect(ran.getByTestId("command-output")).toContainText("after-the-crash");
  const waiting = await expectPending(again, "call-wait");
  expect(existsSync(join(desk.workspace, "decided-without-the-person"))).toBe(false);
  await shot(again, testInfo, "after the crash, a new tab: one ran, one still waits");

  await waiting.getByTestId("tray-approve-button").click();
  await expect(card(again, "call-wait")).toHaveAttribute("data-status", "succeeded");
  expect(existsSync(join(desk.workspace, "decided-without-the-person"))).toBe(true);
  await expect(again.getByTestId("assistant-message").last()).toContainText("Back again.");
});
