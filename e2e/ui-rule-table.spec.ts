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

test("an always-allow prefix says what it leaves out, and the card says why it did not apply", async ({
  page,
  scriptedDesk,
}, testInfo) => {
  const desk = await scriptedDesk([
    [runCommand("call-find", "find . -maxdepth 0 -name '*'", 10)],
    [runCommand("call-exec", "find . -maxdepth 0 -exec touch M \\;", 10)],
    [say("Done.")],
  ]);
  await openDesk(page, desk);
  await send(page, "Look around");

  const first = await expectPending(page, "call-find");
  await first.getByTestId("tray-always-allow-button").click();
  const label = "Any command starting with “find .”, except ones that run programs, delete or write files";
  await first.getByLabel(label).check();
  await expect(first.getByTestId("tray-rule-summary")).toHaveText(
    `${label} will run without asking: This chat.`,
  );
  await shot(page, testInfo, "always allow: a prefix with its real meaning");
  await first.getByTestId("tray-always-allow-confirm").click();
  await expect(card(page, "call-find")).toHaveAttribute("data-status", "succeeded");

  // `find .` is in force, but -exec runs another program: asked, and told why.
  const second = await expectPending(page, "call-exec");
  await expect(second.getByTestId("tray-rule-not-applied")).toHaveText(
    "The rule “find .” is in force, but -exec runs another program, which the rule does not cover: you decide this one.",
  );
  await shot(page, testInfo, "a rule that did not apply, and why");
  await second.getByTestId("tray-deny-button").click();
  await second.getByTestId("tray-deny-confirm").click();
  await expect(card(page, "call-exec")).toHaveAttribute("data-status", "denied");
  expect(existsSync(join(desk.workspace, "M"))).toBe(false);
});
