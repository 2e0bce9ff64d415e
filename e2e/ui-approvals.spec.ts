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

test("approving a command runs it: its output and exit code 0 show in its card", async ({
  page,
  scriptedDesk,
}, testInfo) => {
  const desk = await scriptedDesk([
    [say("I will print a greeting."), runCommand("call-echo", "echo hello from pi", 10)],
    [say("It printed **the greeting**.")],
  ]);
  await openDesk(page, desk);
  await send(page, "Say hello");

  const pending = await expectPending(page, "call-echo");
  await expect(pending.getByTestId("tray-command-text")).toHaveText("echo hello from pi");
  await expect(pending).toContainText(desk.workspace);
  await expect(pending).toContainText("10 s");
  await expect(page.getByTestId("tray-item")).toHaveCount(1);
  await expect(page).toHaveTitle(/^\(1\) /);
  await shot(page, testInfo, "a command waiting for approval");

  // Keyboard first: Enter on the focused card approves it.
  await pending.focus();
  await page.keyboard.press("Enter");

  const done = card(page, "call-echo");
  await expect(done).toHaveAttribute("data-status", "succeeded");
  await expect(done.getByTestId("command-output")).toContainText("hello from pi");
  await expect(done.getByTestId("exit-code")).toHaveText("exit 0");
  await expect(page.getByTestId("assistant-message").last()).toContainText("It printed the greeting.");
  await expect(page.getByTestId("approval-tray")).toHaveCount(0);
  await expect(page).not.toHaveTitle(/^\(/);
  await shot(page, testInfo, "the command succeeded");
});

test("denying with a reason: nothing runs, and the card says why", async ({
  page,
  scriptedDesk,
}, testInfo) => {
  const desk = await scriptedDesk([
    [runCommand("call-rm", "rm -rf build", 10)],
    [say("Understood, I will not delete it.")],
  ]);
  await openDesk(page, desk);
  await send(page, "Clean up");

  const pending = await expectPending(page, "call-rm");
  await pending.getByTestId("tray-deny-button").click();
  await pending.getByTestId("tray-deny-reason").fill("Keep the build folder.");
  await shot(page, testInfo, "denying with a reason");
  await pending.getByTestId("tray-deny-reason").press("Enter");

  const done = card(page, "call-rm");
  await expect(done).toHaveAttribute("data-status", "denied");
  await expect(done.getByTestId("command-reason")).toContainText("Keep the build folder.");
  await expect(done.getByTestId("exit-code")).toHaveCount(0);
  await expect(page.getByTestId("assistant-message").last()).toContainText("I will not delete it.");

  // The decision is in the workspace's history, searchable.
  await page.getByTestId("nav-history").click();
  await page.getByTestId("history-search").fill("rm -rf");
  await expect(page.getByTestId("history-entry").first()).toContainText("Keep the build folder.");
  await shot(page, testInfo, "the history of decisions");
});

test("editing the command and its timeout before approving runs the edited command", async ({
  page,
  scriptedDesk,
}) => {
  const desk = await scriptedDesk([[runCommand("call-edit", "echo original", 10)], [say("Done.")]]);
  await openDesk(page, desk);
  await send(page, "Print something");

  const pending = await expectPending(page, "call-edit");
  await pending.getByTestId("tray-edit-button").click();
  await pending.getByTestId("tray-edit-timeout").fill("100000");
  await expect(pending.getByTestId("tray-edit-problem")).toBeVisible();
  await expect(pending.getByTestId("tray-approve-button")).toBeDisabled();
  await pending.getByTestId("tray-edit-timeout").fill("7");
  await pending.getByTestId("tray-edit-command").fill("echo edited by a person");
  await pending.getByTestId("tray-approve-button").click();

  const done = card(page, "call-edit");
  await expect(done).toHaveAttribute("data-status", "succeeded");
  await expect(done.getByTestId("command-text")).toHaveText("echo edited by a person");
  await expect(done.getByTestId("command-output")).toContainText("edited by a person");
  await expect(done).toContainText("7 s");
  await expect(done).toContainText("edited");
});

test("a failing command shows its exit code", async ({ page, scriptedDesk }, testInfo) => {
  const desk = await scriptedDesk([[runCommand("call-ls", "ls no-such-file", 10)], [say("It is missing.")]]);
  await openDesk(page, desk);
  await send(page, "Look for the file");

  await (await expectPending(page, "call-ls")).getByTestId("tray-approve-button").click();
  const done = card(page, "call-ls");
  await expect(done).toHaveAttribute("data-status", "failed");
  await expect(done.getByTestId("exit-code")).toHaveText(/^exit [1-9]\d*$/);
  await expect(done.getByTestId("command-output")).toContainText("no-such-file");
  await shot(page, testInfo, "a failed command");
});

test("always allow makes a rule, shown in settings, that runs the same command without asking", async ({
  page,
  scriptedDesk,
}, testInfo) => {
  const desk = await scriptedDesk([
    [runCommand("call-1", "echo first", 10)],
    [runCommand("call-2", "echo first", 10)],
    [say("Both ran.")],
  ]);
  await openDesk(page, desk);
  await send(page, "Print twice");

  const pending = await expectPending(page, "call-1");
  await pending.getByTestId("tray-always-allow-button").click();
  await expect(pending.getByTestId("tray-rule-summary")).toContainText("echo first");
  await shot(page, testInfo, "always allow, with its scope");
  await pending.getByTestId("tray-always-allow-confirm").click();

  await expect(card(page, "call-1")).toHaveAttribute("data-status", "succeeded");
  await expect(card(page, "call-2")).toHaveAttribute("data-status", "succeeded");
  await expect(card(page, "call-2")).toContainText("Allowed by the rule");
  await page.getByTestId("nav-settings").click();
  await expect(page.getByTestId("rule-row")).toContainText("echo first");
  await expect(page.getByTestId("limits")).toBeVisible();
  await shot(page, testInfo, "settings: rules and limits");
});
