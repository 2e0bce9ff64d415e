import {
  card,
  expect,
  expectPending,
  openDesk,
  processesMatching,
  say,
  send,
  shot,
  UI_TEST_TIMEOUT_MS,
} from "../harness/desk-page";
import type { ScriptBlock } from "../harness/desk-server";
import { freePort } from "../harness/free-port";
import { test } from "./support/desk-test";

test.describe.configure({ timeout: UI_TEST_TIMEOUT_MS });

/** Whether a page is served on the port: the HTTP status, or the error's text. */
async function reach(port: number): Promise<number | string> {
  try {
    return (await fetch(`http://127.0.0.1:${port}/`)).status;
  } catch (error) {
    return String(error);
  }
}

const call = (id: string, name: string, args: Record<string, unknown>): ScriptBlock => ({
  type: "toolCall",
  id,
  name,
  arguments: args,
});

test("a dev server in the background: its port, its output, Stop in the panel, and a reload keeps the panel", async ({
  page,
  scriptedDesk,
}, testInfo) => {
  const port = await freePort();
  const server = `python3 -m http.server ${port} --bind 127.0.0.1`;
  const desk = await scriptedDesk([
    [call("bg-1", "run_command", { command: server, background: true })],
    [call("out-1", "command_output", { id: "bg-1", lines: 5 })],
    [say("The server is up.")],
    [call("out-2", "command_output", { id: "bg-1", lines: 1 })],
    [say("It was stopped.")],
  ]);
  await openDesk(page, desk);
  await send(page, "Start the dev server");

  const pending = await expectPending(page, "bg-1");
  await expect(pending.getByTestId("tray-background-toggle")).toBeChecked();
  await expect(pending).toContainText("until you stop it, the chat closes or the app quits");
  // Where the sandbox keeps commands off the network, a server in it cannot be reached: allow it.
  const allowNetwork = pending.getByTestId("tray-allow-network");
  if (await allowNetwork.count()) await allowNetwork.check();
  await shot(page, testInfo, "a background command waiting");
  await pending.getByTestId("tray-approve-button").click();

  const bg = card(page, "bg-1");
  await expect(bg).toHaveAttribute("data-status", "background", { timeout: 20_000 });
  await expect(page.getByTestId("assistant-message").last()).toContainText("The server is up.");
  expect(await reach(port)).toBe(200);

  await page.getByTestId("background-panel-button").click();
  const item = page.locator(`[data-testid="background-item"][data-command-id="bg-1"]`);
  await expect(item).toHaveAttribute("data-status", "running");
  await expect(item.getByTestId("background-port")).toHaveText(String(port));
  await expect(item.getByTestId("background-output")).toContainText('"GET / HTTP/1.1" 200');
  await shot(page, testInfo, "the running panel");

  await item.getByTestId("background-stop-button").click();
  await expect(item).toHaveAttribute("data-status", "stopped");
  await expect.poll(() => reach(port)).not.toBe(200);
  await expect.poll(() => processesMatching(server), { timeout: 10_000 }).toEqual([]);

  // The agent learns it on its next look.
  await send(page, "Is it still up?");
  await expect(page.getByTestId("assistant-message").last()).toContainText("It was stopped.");
  await expect(page.getByTestId("tool-call").last()).toContainText("It was stopped by the user");

  await page.reload();
  await page.getByTestId("background-panel-button").click();
  await expect(page.locator(`[data-testid="background-item"][data-command-id="bg-1"]`)).toHaveAttribute(
    "data-status",
    "stopped",
  );
  await shot(page, testInfo, "the panel after a reload");
});

test("Keep running moves a foreground command past its timeout into the background", async ({
  page,
  scriptedDesk,
}) => {
  const desk = await scriptedDesk([
    [call("fg-1", "run_command", { command: "echo watching; sleep 331", timeout: 3 })],
    [say("Moved.")],
  ]);
  await openDesk(page, desk);
  await send(page, "Watch the files");
  await (await expectPending(page, "fg-1")).getByTestId("tray-approve-button").click();
  const running = card(page, "fg-1");
  await expect(running).toHaveAttribute("data-status", "running");
  await running.getByTestId("keep-running-button").click();
  await expect(running).toHaveAttribute("data-status", "background");
  await expect(page.getByTestId("assistant-message").last()).toContainText("Moved.");
  // Past its own 3 s timeout it still runs.
  await page.waitForTimeout(4_000);
  expect(processesMatching("sleep 331").length).toBeGreaterThan(0);
  await running.getByTestId("stop-button").click();
  await expect.poll(() => processesMatching("sleep 331"), { timeout: 10_000 }).toEqual([]);
});
