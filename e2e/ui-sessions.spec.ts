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
  trayCard,
  UI_TEST_TIMEOUT_MS,
} from "../harness/desk-page";
import { test } from "./support/desk-test";

test.describe.configure({ timeout: UI_TEST_TIMEOUT_MS });

test("two pending commands are decided separately, each in the tray where its one full card is", async ({
  page,
  scriptedDesk,
}, testInfo) => {
  const desk = await scriptedDesk([
    [
      say("Two things to run."),
      runCommand("call-a", "echo alpha", 10),
      runCommand("call-b", "echo beta", 10),
    ],
    [say("One ran, one did not.")],
  ]);
  await openDesk(page, desk);
  await send(page, "Run both");

  await expectPending(page, "call-a");
  await expectPending(page, "call-b");
  // Each drawn in full once, in the tray; the transcript holds a line for each, leading there.
  await expect(page.getByTestId("tray-item")).toHaveCount(2);
  await expect(page.getByTestId("command-card")).toHaveCount(0);
  await expect(page.getByTestId("pending-line")).toHaveCount(2);
  await expect(page).toHaveTitle(/^\(2\) /);
  await shot(page, testInfo, "two commands waiting, in the tray and the transcript");

  // Deny the second from the tray, with Esc then a reason.
  const trayB = page.locator('[data-testid="tray-item"][data-command-id="call-b"]');
  await trayB.focus();
  await page.keyboard.press("Escape");
  await trayB.getByTestId("tray-deny-reason").fill("Only alpha.");
  await trayB.getByTestId("tray-deny-reason").press("Enter");
  await expect(card(page, "call-b")).toHaveAttribute("data-status", "denied");
  await expect(trayCard(page, "call-a")).toHaveAttribute("data-status", "pending");
  await expect(page).toHaveTitle(/^\(1\) /);

  await trayCard(page, "call-a").getByTestId("tray-approve-button").click();
  await expect(card(page, "call-a")).toHaveAttribute("data-status", "succeeded");
  await expect(card(page, "call-a").getByTestId("command-output")).toContainText("alpha");
  await expect(page.getByTestId("approval-tray")).toHaveCount(0);
  await expect(page.getByTestId("assistant-message").last()).toContainText("One ran, one did not.");
  // The person's message names its entry in Pi's session tree (what rewind and fork name).
  await expect(page.getByTestId("user-message")).toHaveAttribute("data-entry-id", /^[0-9a-f]{8}$/);
});

test("a reload mid-run still shows the running command, and it can be cancelled", async ({
  page,
  scriptedDesk,
}, testInfo) => {
  const desk = await scriptedDesk([[runCommand("call-long", "sleep 331", 60)], [say("Stopped.")]]);
  await openDesk(page, desk);
  await send(page, "Take your time");
  await (await expectPending(page, "call-long")).getByTestId("tray-approve-button").click();
  await expect(card(page, "call-long")).toHaveAttribute("data-status", "running");

  await page.reload();
  await expect(page.getByTestId("connection-status")).toHaveAttribute("data-status", "connected");
  const running = card(page, "call-long");
  await expect(running).toHaveAttribute("data-status", "running");
  await expect(running.getByTestId("countdown")).toContainText("times out in");
  await expect(page.getByTestId("stop-button")).toBeVisible();
  await shot(page, testInfo, "after a reload, still running");

  await running.getByTestId("cancel-button").click();
  await expect(running).toHaveAttribute("data-status", "cancelled");
  await expect.poll(() => processesMatching("sleep 331"), { timeout: 10_000 }).toEqual([]);
});

test("Stop ends the agent's turn and the command it waits on", async ({ page, scriptedDesk }) => {
  const desk = await scriptedDesk([[say("Let me check."), runCommand("call-stop", "echo never", 10)]]);
  await openDesk(page, desk);
  await send(page, "Check");
  await expectPending(page, "call-stop");
  await page.getByTestId("stop-button").click();
  await expect(card(page, "call-stop")).not.toHaveAttribute("data-status", "pending");
  await expect(page.getByTestId("stop-button")).toHaveCount(0);
  await expect(page.getByTestId("approval-tray")).toHaveCount(0);
});

test("the UI speaks Chinese and follows a dark system theme", async ({ page, scriptedDesk }, testInfo) => {
  const desk = await scriptedDesk([[say("好的。"), runCommand("call-zh", "echo 你好", 10)]]);
  await page.emulateMedia({ colorScheme: "dark" });
  await openDesk(page, desk);
  await page.getByTestId("nav-settings").click();
  await page.getByTestId("language-select").selectOption("zh-CN");
  await page.getByTestId("nav-chat").click();
  await send(page, "打个招呼");
  const pending = await expectPending(page, "call-zh");
  await expect(pending.getByTestId("tray-approve-button")).toHaveText("批准");
  await shot(page, testInfo, "Chinese, dark theme");
  // The choice is remembered across a reload.
  await page.reload();
  await expect(trayCard(page, "call-zh").getByTestId("tray-approve-button")).toHaveText("批准");
});

test("a long chat opens at its end, after a reload too, and keeps its place across views", async ({
  page,
  scriptedDesk,
}) => {
  const turns = Array.from({ length: 12 }, (_, turn) =>
    Array.from({ length: 4 }, (_, i) => runCommand(`call-${turn}-${i}`, `seq 1 ${8 + i}`, 10)),
  );
  const desk = await scriptedDesk([...turns, [say("All forty-eight ran.")]]);
  await openDesk(page, desk);
  await page.getByTestId("nav-settings").click();
  await page.getByTestId("rule-pattern").fill("seq");
  await page.getByTestId("rule-pattern").press("Enter");
  await expect(page.getByTestId("rule-row")).toContainText("seq");
  await page.getByTestId("nav-chat").click();
  await send(page, "Count a lot");
  await expect(page.getByTestId("assistant-message").last()).toContainText("All forty-eight ran.");

  const transcript = page.getByTestId("transcript");
  const gapToEnd = () => transcript.evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight);
  await expect.poll(gapToEnd).toBeLessThan(24);
  await page.reload();
  await expect(page.getByTestId("assistant-message").last()).toContainText("All forty-eight ran.");
  await expect.poll(gapToEnd).toBeLessThan(24);

  // Read further up, look at settings, come back: the same entry at the top. (Not the same scrollTop:
  // entries above may take their real height meanwhile, and the browser keeps the place by moving it.)
  await transcript.evaluate((el) => {
    el.scrollTop = 1500;
  });
  const topEntry = () =>
    transcript.evaluate((el) => {
      const top = el.getBoundingClientRect().top;
      const entries = [...el.querySelectorAll("[data-command-id]")];
      return entries
        .find((entry) => entry.getBoundingClientRect().bottom > top + 1)
        ?.getAttribute("data-command-id");
    });
  // Entries scrolled into view take their real height in the next frames: read the place once still.
  const scrollTop = () => transcript.evaluate((el) => el.scrollTop);
  await expect
    .poll(async () => {
      const before = await scrollTop();
      await page.waitForTimeout(150);
      return (await scrollTop()) === before;
    })
    .toBe(true);
  const place = await topEntry();
  expect(place).toBeTruthy();
  await page.getByTestId("nav-settings").click();
  await page.getByTestId("nav-chat").click();
  await expect.poll(topEntry).toBe(place);
});
