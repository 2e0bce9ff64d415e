import {
  card,
  expect,
  expectPending,
  openDesk,
  processesMatching,
  runCommand,
  say,
  send,
  shot,
  UI_TEST_TIMEOUT_MS,
} from "../harness/desk-page";
import { test } from "./support/desk-test";

test.describe.configure({ timeout: UI_TEST_TIMEOUT_MS });

test("cancelling a long command from its card stops it and leaves no process", async ({
  page,
  scriptedDesk,
}, testInfo) => {
  // An odd duration, so the process is this test's and no other's.
  const desk = await scriptedDesk([[runCommand("call-sleep", "sleep 313", 60)], [say("It was cancelled.")]]);
  await openDesk(page, desk);
  await send(page, "Wait a while");

  await (await expectPending(page, "call-sleep")).getByTestId("tray-approve-button").click();
  const running = card(page, "call-sleep");
  await expect(running).toHaveAttribute("data-status", "running");
  await expect(running.getByTestId("countdown")).toContainText("times out in");
  await expect.poll(() => processesMatching("sleep 313").length).toBeGreaterThan(0);
  await shot(page, testInfo, "a running command");

  await running.getByTestId("cancel-button").click();
  await expect(running).toHaveAttribute("data-status", "cancelled");
  await expect.poll(() => processesMatching("sleep 313"), { timeout: 10_000 }).toEqual([]);
  await expect(page.getByTestId("assistant-message").last()).toContainText("It was cancelled.");
  await shot(page, testInfo, "the command was cancelled");
});

test("a command that outlives its timeout shows as timed out", async ({ page, scriptedDesk }, testInfo) => {
  const desk = await scriptedDesk([[runCommand("call-slow", "sleep 317", 2)], [say("Too slow.")]]);
  await openDesk(page, desk);
  await send(page, "Wait too long");

  await (await expectPending(page, "call-slow")).getByTestId("tray-approve-button").click();
  const done = card(page, "call-slow");
  await expect(done).toHaveAttribute("data-status", "timed-out", { timeout: 15_000 });
  await expect(done.getByTestId("exit-code")).toHaveCount(0);
  await expect.poll(() => processesMatching("sleep 317"), { timeout: 10_000 }).toEqual([]);
  await shot(page, testInfo, "a timed-out command");
});

test("a flood of output stays bounded in the DOM and the full output opens", async ({
  page,
  scriptedDesk,
}, testInfo) => {
  const desk = await scriptedDesk([[runCommand("call-seq", "seq 1 300000", 60)], [say("Counted.")]]);
  await openDesk(page, desk);
  await send(page, "Count a lot");

  // Long tasks (main-thread work over 50 ms) while the output streams: the page must not stutter.
  await page.evaluate(() => {
    const w = window as unknown as { longestTask: number };
    w.longestTask = 0;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) w.longestTask = Math.max(w.longestTask, entry.duration);
    }).observe({ type: "longtask", buffered: false });
  });
  await (await expectPending(page, "call-seq")).getByTestId("tray-approve-button").click();
  const done = card(page, "call-seq");
  await expect(done).toHaveAttribute("data-status", "succeeded", { timeout: 60_000 });

  const output = done.getByTestId("command-output");
  await expect(output).toContainText("300000");
  const shown = await output.evaluate((el) => (el.textContent ?? "").split("\n").filter(Boolean).length);
  expect(shown).toBeLessThanOrEqual(500);
  const elements = await page.evaluate(() => document.querySelectorAll("*").length);
  expect(elements).toBeLessThan(3000);
  const longestTask = await page.evaluate(() => (window as unknown as { longestTask: number }).longestTask);
  testInfo.annotations.push({ type: "longest main-thread task (ms)", description: String(longestTask) });
  // Generous, for a loaded machine; rendering every line (hundreds of thousands) would freeze the page far
  // longer than this.
  expect(longestTask).toBeLessThan(3000);
  await shot(page, testInfo, "a flood of output, bounded");

  await done.getByTestId("full-output-link").click();
  const dialog = page.getByTestId("full-output-dialog");
  await expect(dialog.getByTestId("full-output-text")).toContainText("1\n2\n3\n");
  await shot(page, testInfo, "the full output");
  await page.keyboard.press("Escape");
  await expect(dialog).toHaveCount(0);
});
