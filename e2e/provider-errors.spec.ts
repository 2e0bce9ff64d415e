import { test } from "@playwright/test";
import { expect, openDesk, send, shot, UI_TEST_TIMEOUT_MS } from "../harness/desk-page";
import { type ModelDesk, startModelDesk } from "../harness/model-desk";
import {
  errorReply,
  type ModelReplies,
  type OpenAiServer,
  startOpenAiServer,
} from "../harness/openai-server";

/*
 * Pi's real provider path against a model server on 127.0.0.1 (harness/openai-server.ts), configured
 * through a temporary agent dir's models.json. Pi retries 5xx and 429 three times; the specs keep the
 * count and shorten the waits (settings.json `retry.baseDelayMs`).
 */

test.describe.configure({ timeout: UI_TEST_TIMEOUT_MS });

let model: OpenAiServer;
let desk: ModelDesk;

async function start(replies: ModelReplies): Promise<void> {
  model = await startOpenAiServer(replies);
  desk = await startModelDesk(model.baseUrl);
}

test.afterEach(async () => {
  await desk?.cleanup();
  await model?.close();
});

/** After a failure the next prompt is answered, and the failure stays one entry. */
async function expectNextPromptAnswered(page: import("@playwright/test").Page): Promise<void> {
  model.setReplies(() => ({ text: "Back again." }));
  await expect(page.getByTestId("send-button")).toBeVisible();
  await send(page, "Are you there?");
  await expect(page.getByTestId("assistant-message").last()).toContainText("Back again.");
  await expect(page.getByTestId("turn-error")).toHaveCount(1);
}

test("a refused key shows one error about the key, and the next prompt is answered", async ({
  page,
}, testInfo) => {
  await start(() => errorReply(401, "Incorrect API key provided: sk-...1234."));
  await openDesk(page, desk.server);
  await send(page, "Hello");

  // Once the turn is over: between two requests the entry is briefly "failed" before Pi retries.
  const error = page.getByTestId("turn-error");
  await expect(error).toHaveCount(1);
  await expect(page.getByTestId("stop-button")).toHaveCount(0);
  await expect(error).toHaveAttribute("data-state", "failed");
  await expect(error).toHaveCount(1);
  await expect(error).toHaveAttribute("data-kind", "auth");
  await expect(error).toHaveAttribute("data-attempts", "1");
  await expect(error.getByTestId("turn-error-message")).toHaveText("Incorrect API key provided: sk-...1234.");
  await expect(error).toContainText("Check the key for this provider");
  expect(model.requests).toHaveLength(1);
  expect(model.requests[0]?.authorization).toBe("Bearer test-key-local");
  await shot(page, testInfo, "a refused key");
  await expectNextPromptAnswered(page);
});

test("a server error Pi retries is one entry that counts the requests, and the prompt stays usable", async ({
  page,
}, testInfo) => {
  let release: () => void = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  // The first retry is held open, so the entry can be seen while Pi retries.
  await start(async (_request, index) => {
    if (index === 1) await released;
    return errorReply(500, "The server had an error while processing your request.");
  });
  await openDesk(page, desk.server);
  await send(page, "Hello");

  const error = page.getByTestId("turn-error");
  await expect(error).toHaveAttribute("data-state", "retrying");
  await expect(error.getByTestId("turn-error-progress")).toContainText("Retrying (1 of 3)");
  await expect(error).toHaveAttribute("data-kind", "provider");
  await page.getByTestId("prompt-input").fill("a draft while it retries");
  await expect(page.getByTestId("stop-button")).toBeEnabled();
  await shot(page, testInfo, "retrying a server error");
  release();

  await expect(page.getByTestId("stop-button")).toHaveCount(0);
  await expect(error).toHaveAttribute("data-state", "failed");
  await expect(error).toHaveCount(1);
  expect(model.requests).toHaveLength(4);
  await expect(error).toHaveAttribute("data-attempts", String(model.requests.length));
  await expect(error.getByTestId("turn-error-progress")).toHaveText("Failed after 4 requests.");
  await expect(error).toContainText("Nothing is wrong with your key or settings");
  await expect(error).not.toContainText("API key in settings");
  await expect(page.getByTestId("prompt-input")).toHaveValue("a draft while it retries");
  await expectNextPromptAnswered(page);
});

test("a rate limit says how long the provider asks to wait, and the next prompt is answered", async ({
  page,
}, testInfo) => {
  await start(() => errorReply(429, "Rate limit reached for requests.", { "retry-after": "30" }));
  await openDesk(page, desk.server);
  await send(page, "Hello");

  // Once the turn is over: between two requests the entry is briefly "failed" before Pi retries.
  const error = page.getByTestId("turn-error");
  await expect(error).toHaveCount(1);
  await expect(page.getByTestId("stop-button")).toHaveCount(0);
  await expect(error).toHaveAttribute("data-state", "failed");
  await expect(error).toHaveAttribute("data-kind", "rate-limit");
  await expect(error).toHaveAttribute("data-attempts", String(model.requests.length));
  await expect(error.getByTestId("turn-error-wait")).toHaveText(
    /^The provider asks to wait \d+ s before trying again\.$/,
  );
  const seconds = Number(
    /wait (\d+) s/.exec((await error.getByTestId("turn-error-wait").textContent()) ?? "")?.[1],
  );
  expect(seconds).toBeGreaterThan(0);
  expect(seconds).toBeLessThanOrEqual(30);
  await shot(page, testInfo, "a rate limit");
  await expectNextPromptAnswered(page);
});
