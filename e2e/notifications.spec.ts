import {
  card,
  expect,
  expectPending,
  runCommand,
  say,
  send,
  trayCard,
  UI_TEST_TIMEOUT_MS,
} from "../harness/desk-page";
import { test } from "./support/desk-test";
import { notifyingContext, seen, twoTabs } from "./support/notifying-tabs";

test.describe.configure({ timeout: UI_TEST_TIMEOUT_MS });

test("a command waiting while the page is behind raises one notification, withdrawn once answered", async ({
  browser,
  scriptedDesk,
}) => {
  const desk = await scriptedDesk([
    [say("Checking."), runCommand("call-note", "echo first line\necho second line", 10)],
    [say("Done.")],
  ]);
  const context = await notifyingContext(() => browser.newContext(), desk);
  const { watcher, front } = await twoTabs(context, desk);

  await send(front, "Check");
  await expectPending(front, "call-note");
  await expect.poll(async () => (await seen(watcher)).length).toBe(1);
  expect(await seen(watcher)).toEqual([
    {
      title: "Pi Desk: a command waits for your approval",
      // Named by its chat (its first message), tagged by chat and command: a tool call id is one chat's own.
      body: "Check — echo first line…",
      tag: expect.stringMatching(/^pi-desk:[\w-]+:call-note$/),
      closed: false,
    },
  ]);
  // The tab in front shows the card; it does not notify.
  expect(await seen(front)).toEqual([]);

  await trayCard(front, "call-note").getByTestId("tray-approve-button").click();
  await expect(card(front, "call-note")).toHaveAttribute("data-status", "succeeded");
  await expect.poll(async () => (await seen(watcher))[0]?.closed).toBe(true);
  expect(await seen(watcher)).toHaveLength(1);
  await context.close();
});

test("notifications turned off in Settings stay off, and on again when turned on", async ({
  browser,
  scriptedDesk,
}) => {
  const desk = await scriptedDesk([
    [runCommand("call-quiet", "echo quiet", 10)],
    [say("Done.")],
    [runCommand("call-loud", "echo loud", 10)],
    [say("Done again.")],
  ]);
  const context = await notifyingContext(() => browser.newContext(), desk);
  const { watcher, front } = await twoTabs(context, desk);

  await front.getByTestId("nav-settings").click();
  const toggle = front.getByTestId("notifications-toggle");
  await expect(toggle).toBeChecked();
  // A click, not uncheck(): the box follows the host, which answers a moment later.
  await toggle.click();
  await expect(toggle).not.toBeChecked();
  await front.getByTestId("nav-chat").click();
  await send(front, "Run it");
  await expectPending(front, "call-quiet");
  await expect(watcher.getByTestId("approval-tray")).toHaveCount(1);
  expect(await seen(watcher)).toEqual([]);
  await trayCard(front, "call-quiet").getByTestId("tray-approve-button").click();
  await expect(front.getByTestId("assistant-message").last()).toContainText("Done.");

  // Kept by the host: still off after a reload; on again from the switch.
  await front.reload();
  await front.getByTestId("nav-settings").click();
  await expect(front.getByTestId("notifications-toggle")).not.toBeChecked();
  await front.getByTestId("notifications-toggle").click();
  await expect(front.getByTestId("notifications-toggle")).toBeChecked();
  await expect(front.getByTestId("notifications-permission")).toHaveAttribute("data-permission", "granted");
  await front.getByTestId("nav-chat").click();
  await send(front, "Run the other");
  await expectPending(front, "call-loud");
  await expect
    .poll(async () => (await seen(watcher)).map((note) => note.body))
    .toEqual(["Run it — echo loud"]);
  await context.close();
});
