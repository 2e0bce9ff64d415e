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
  const queued = page.getByTestId("queued-message");
  // Each shown waiting before the next is typed, as a person sees them go (a send under way takes no other).
  await input.fill("Also check the tests");
  await input.press("Enter");
  await expect(queued).toHaveCount(1);
  await input.fill("Drop this one");
  await input.press("Enter");
  await expect(queued).toHaveCount(2);
  await input.fill("Then summarise");
  await page.getByTestId("queue-button").click();
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
      // biome-ignore lint/suspicious/noTemplateCurlyInString: Pi's template syntax, not JavaScript's
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

test("@ finds a file in a nested folder by a few letters of its name; the sent message names it as pi writes it", async ({
  page,
  scriptedDesk,
}) => {
  const desk = await scriptedDesk([[say("Read it.")]]);
  mkdirSync(join(desk.workspace, "src", "parsing", "deep"), { recursive: true });
  writeFileSync(join(desk.workspace, "src", "parsing", "deep", "token-reader.ts"), "export {};\n");
  writeFileSync(join(desk.workspace, "README.md"), "# readme\n");
  await openDesk(page, desk);
  const input = page.getByTestId("prompt-input");
  await input.pressSequentially("Look at @tokrd");
  const item = page.locator('[data-testid="file-item"][data-path="src/parsing/deep/token-reader.ts"]');
  await expect(item).toHaveAttribute("aria-selected", "true");
  await expect(page.getByTestId("file-item")).toHaveCount(1);
  await input.press("Tab");
  await expect(input).toHaveValue("Look at @src/parsing/deep/token-reader.ts ");
  await expect(page.getByTestId("file-menu")).toHaveCount(0);
  // A folder picked leaves the mention open, to go on into it; Esc closes the menu and keeps the text.
  await input.pressSequentially("and @pars");
  await page.locator('[data-testid="file-item"][data-path="src/parsing/"]').click();
  await expect(input).toHaveValue("Look at @src/parsing/deep/token-reader.ts and @src/parsing/");
  await expect(page.getByTestId("file-item").first()).toBeVisible();
  await input.press("Escape");
  await expect(page.getByTestId("file-menu")).toHaveCount(0);
  await input.pressSequentially(" please");
  await input.press("Enter");
  await expect(page.getByTestId("user-message")).toContainText(
    "Look at @src/parsing/deep/token-reader.ts and @src/parsing/ please",
  );
  await expect(page.getByTestId("assistant-message")).toContainText("Read it.");
});

test("Pi Desk's own / commands: /name names the chat in the sidebar, /thinking and /model change the pickers, /new opens a chat", async ({
  page,
  scriptedDesk,
}) => {
  const desk = await scriptedDesk([[say("Hello.")]]);
  await openDesk(page, desk);
  await send(page, "Start here");
  await expect(page.getByTestId("assistant-message")).toContainText("Hello.");
  const input = page.getByTestId("prompt-input");
  await input.fill("/name Parser work");
  await input.press("Enter");
  await expect(page.getByTestId("chat-item").locator(".chat-item-title")).toHaveText("Parser work");
  await expect(page.getByTestId("transcript")).toContainText("Named this chat “Parser work”.");
  // The scripted model thinks at no level but off: said, and nothing changes.
  await input.fill("/thinking high");
  await input.press("Enter");
  await expect(page.getByTestId("prompt-error")).toContainText("This model thinks at these levels: off.");
  await input.fill("/new");
  await input.press("Enter");
  await expect(page.getByTestId("chat-item")).toHaveCount(2);
  await expect(page.getByTestId("user-message")).toHaveCount(0);
  await expect(page.getByTestId("chat-item").nth(1).getByRole("button").first()).toHaveAttribute(
    "aria-current",
    "true",
  );
});
