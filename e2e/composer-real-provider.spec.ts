import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "@playwright/test";
import { expect, expectPending, openDesk, send, UI_TEST_TIMEOUT_MS } from "../harness/desk-page";
import { type ModelDesk, startModelDesk } from "../harness/model-desk";
import { type ModelRequest, type OpenAiServer, startOpenAiServer } from "../harness/openai-server";

// The composer's Pi features through Pi's real provider (openai-completions) against a loopback server:
// what reaches the model is read in the requests the server receives.
test.describe.configure({ timeout: UI_TEST_TIMEOUT_MS * 2 });

let model: OpenAiServer;
let desk: ModelDesk;

test.afterEach(async () => {
  await desk?.cleanup();
  await model?.close();
});

/** Whether a request is Pi's compaction asking for its summary. */
const isSummaryRequest = (request: ModelRequest) =>
  JSON.stringify(request.messages[0]?.content ?? "").includes("context summarization assistant");
/** The text of a request's messages, role by role. */
const said = (request: ModelRequest | undefined) =>
  (request?.messages ?? []).map((message) => `${message.role}: ${JSON.stringify(message.content ?? "")}`);

test("steering reaches the model after the command's result, a queued message after the turn; the meter follows the server's usage; Compact shortens the next request", async ({
  page,
}) => {
  const turns = [
    { toolCall: { id: "call-1", name: "run_command", arguments: { command: "echo first", timeout: 10 } } },
    { text: "Steered answer." },
    { text: "Follow-up answer.", usage: { prompt: 12_000, completion: 500 } },
    { text: "After compaction." },
  ];
  let turn = 0;
  model = await startOpenAiServer((request) =>
    isSummaryRequest(request)
      ? { text: "## Goal\nSUMMARY-OF-EARLIER: ran echo first, then summarised." }
      : (turns[turn++] ?? { text: "No more." }),
  );
  // Pi keeps the last 20,000 tokens out of a summary; this short chat keeps none, so there is one to make.
  desk = await startModelDesk(model.baseUrl, { settings: { compaction: { keepRecentTokens: 1 } } });
  await openDesk(page, desk.server);
  await send(page, "Run it");
  const pending = await expectPending(page, "call-1");

  const input = page.getByTestId("prompt-input");
  const queued = page.getByTestId("queued-message");
  await input.fill("Also check the tests");
  await input.press("Enter");
  await expect(queued).toHaveCount(1);
  await input.fill("Then summarise");
  await page.getByTestId("queue-button").click();
  await expect(queued).toHaveCount(2);
  await pending.getByTestId("tray-approve-button").click();
  await expect(page.getByTestId("assistant-message").filter({ hasText: "Follow-up answer." })).toBeVisible();

  const [, afterCommand, afterTurn] = model.requests.filter((request) => !isSummaryRequest(request));
  const first = said(afterCommand);
  // The steering came after the command's result, in the very next request; the follow-up was not in it.
  expect(first.findIndex((line) => line.startsWith("tool:"))).toBeGreaterThan(0);
  expect(first.at(-1)).toContain("Also check the tests");
  expect(first.join("\n")).not.toContain("Then summarise");
  // The follow-up waited for the turn's answer.
  const second = said(afterTurn);
  expect(second.at(-2)).toContain("Steered answer.");
  expect(second.at(-1)).toContain("Then summarise");

  // The meter counts what the server reported for its last answer, in the model's window (models.json).
  const meter = page.getByTestId("context-meter");
  await expect(meter).toHaveAttribute("data-used", "12500");
  await expect(meter).toHaveAttribute("data-window", "32000");

  await page.getByTestId("compact-button").click();
  await expect(page.getByTestId("compaction-entry")).toBeVisible();
  await send(page, "Next question");
  await expect(page.getByTestId("assistant-message").filter({ hasText: "After compaction." })).toBeVisible();
  const next = model.requests.at(-1);
  expect(said(next).join("\n")).toContain("SUMMARY-OF-EARLIER");
  expect(said(next).join("\n")).not.toContain("Also check the tests");
  expect(JSON.stringify(next?.messages).length).toBeLessThan(JSON.stringify(afterTurn?.messages).length);
});

test("a prompt template from the agent dir expands with its argument, and an @ file found by its letters is named in the request", async ({
  page,
}) => {
  model = await startOpenAiServer(() => ({ text: "Done." }));
  desk = await startModelDesk(model.baseUrl, {
    agentFiles: {
      "prompts/review.md":
        // biome-ignore lint/suspicious/noTemplateCurlyInString: Pi's template syntax, not JavaScript's
        "---\ndescription: Review staged git changes\n---\nReview the staged changes. Focus on ${1:-correctness}.\n",
    },
  });
  mkdirSync(join(desk.server.workspace, "src", "parsing", "deep"), { recursive: true });
  writeFileSync(join(desk.server.workspace, "src", "parsing", "deep", "token-reader.ts"), "export {};\n");
  await openDesk(page, desk.server);
  const input = page.getByTestId("prompt-input");

  await input.fill("/rev");
  await expect(page.locator('[data-testid="slash-item"][data-name="review"]')).toBeVisible();
  await input.press("Enter");
  await input.pressSequentially("concurrency");
  await input.press("Enter");
  await expect(page.getByTestId("assistant-message")).toHaveCount(1);
  expect(said(model.requests[0]).at(-1)).toContain("Review the staged changes. Focus on concurrency.");

  await input.pressSequentially("Explain @tokrd");
  await expect(
    page.locator('[data-testid="file-item"][data-path="src/parsing/deep/token-reader.ts"]'),
  ).toBeVisible();
  await input.press("Tab");
  await input.press("Enter");
  await expect(page.getByTestId("assistant-message")).toHaveCount(2);
  expect(said(model.requests[1]).at(-1)).toContain("Explain @src/parsing/deep/token-reader.ts");
});
