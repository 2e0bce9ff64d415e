import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  card,
  expect,
  expectPending,
  openDesk,
  runCommand,
  say,
  send,
  UI_TEST_TIMEOUT_MS,
} from "../harness/desk-page";
import { test } from "./support/desk-test";

test.describe.configure({ timeout: UI_TEST_TIMEOUT_MS });

test("while the agent works: Enter steers after the step under way, Queue waits for the end, × takes one back", async ({
  page,
  scriptedDesk,
}) => {
  const desk = await scriptedDesk([
    [runCommand("call-1", "echo first", 10)],
    [say("Steered answer.")],
    [say("Follow-up answer.")],
  ]);
  await openDesk(page, desk);
  await send(page, "Run it");
  const pending = await expectPending(page, "call-1");

  // The box stays usable: Enter steers, Queue keeps one for the end, and one is taken back.
  const input = page.getByTestId("prompt-input");
  await expect(page.getByTestId("send-button")).toHaveText("Steer");
  await input.fill("Also check the tests");
  await input.press("Enter");
  await input.fill("Drop this one");
  await input.press("Enter");
  await input.fill("Then summarise");
  await page.getByTestId("queue-button").click();
  const queued = page.getByTestId("queued-message");
  await expect(queued).toHaveCount(3);
  await expect(queued.nth(1)).toContainText("Drop this one");
  await queued.nth(1).getByTestId("queued-remove").click();
  await expect(queued).toHaveCount(2);
  await expect(queued.nth(0)).toHaveAttribute("data-mode", "steer");
  await expect(queued.nth(1)).toHaveAttribute("data-mode", "follow-up");

  // The steering reaches the model after the command's result; the follow-up after the turn's answer.
  await pending.getByTestId("tray-approve-button").click();
  await expect(card(page, "call-1")).toHaveAttribute("data-status", "succeeded");
  await expect(page.getByTestId("assistant-message").filter({ hasText: "Follow-up answer." })).toBeVisible();
  await expect(queued).toHaveCount(0);
  const said = await page
    // A message's body: the person's messages also hold their Rewind and Edit buttons.
    .locator('[data-testid="user-message"] .message-body, [data-testid="assistant-message"]')
    .allTextContents();
  expect(said.map((text) => text.replace(/^(You|Pi)/, ""))).toEqual([
    "Run it",
    "Also check the tests",
    "Steered answer.",
    "Then summarise",
    "Follow-up answer.",
  ]);
  await expect(page.getByTestId("user-message").filter({ hasText: "Drop this one" })).toHaveCount(0);
  // Pi's count of the context, beside the model: this conversation's tokens of the model's window.
  const meter = page.getByTestId("context-meter");
  await expect(meter).toHaveAttribute("data-used", /^[1-9]\d*$/);
  expect(Number(await meter.getAttribute("data-window"))).toBeGreaterThan(
    Number(await meter.getAttribute("data-used")),
  );
});

test("/ opens Pi's templates; one picked by the keyboard is sent expanded with its argument", async ({
  page,
  scriptedDesk,
}) => {
  // A person's agent dir with one prompt template, as ~/.pi/agent/prompts/review.md.
  const agentDir = mkdtempSync(join(tmpdir(), "pi-desk-e2e-agent-"));
  try {
    mkdirSync(join(agentDir, "prompts"));
    writeFileSync(
      join(agentDir, "prompts", "review.md"),
      "---\ndescription: Review staged git changes\n---\nReview the staged changes. Focus on ${1:-correctness}.\n",
    );
    const desk = await scriptedDesk([[say("Reviewed.")]], { env: { PI_CODING_AGENT_DIR: agentDir } });
    await openDesk(page, desk);
    const input = page.getByTestId("prompt-input");
    await input.fill("/rev");
    const item = page.locator('[data-testid="slash-item"][data-name="review"]');
    await expect(item).toContainText("Review staged git changes");
    await expect(item).toHaveAttribute("aria-selected", "true");
    await input.press("Enter");
    await expect(input).toHaveValue("/review ");
    await expect(page.getByTestId("slash-menu")).toHaveCount(0);
    await input.pressSequentially("concurrency");
    await input.press("Enter");
    await expect(page.getByTestId("user-message")).toContainText(
      "Review the staged changes. Focus on concurrency.",
    );
    await expect(page.getByTestId("assistant-message")).toContainText("Reviewed.");
  } finally {
    rmSync(agentDir, { recursive: true, force: true });
  }
});
