import { test } from "@playwright/test";
import { expect, openDesk, send, UI_TEST_TIMEOUT_MS } from "../harness/desk-page";
import { type ModelDesk, startModelDesk } from "../harness/model-desk";
import { type OpenAiServer, startOpenAiServer } from "../harness/openai-server";

test.describe.configure({ timeout: UI_TEST_TIMEOUT_MS });

let model: OpenAiServer;
let desk: ModelDesk;

test.afterEach(async () => {
  await desk?.cleanup();
  await model?.close();
});

test("the model picked stays picked: for the chat, a new chat, and after a restart of the host", async ({
  page,
}) => {
  model = await startOpenAiServer((request) => ({ text: `Answered by ${request.model}.` }));
  desk = await startModelDesk(model.baseUrl);
  await openDesk(page, desk.server);
  const picker = page.getByTestId("model-select");
  await expect(picker).toHaveValue("local/m1");

  await picker.selectOption("local/m2");
  await expect(picker).toHaveValue("local/m2");
  await send(page, "Who answers?");
  await expect(page.getByTestId("assistant-message").last()).toContainText("Answered by m2.");

  await page.getByTestId("new-session").click();
  await expect(page.getByTestId("assistant-message")).toHaveCount(0);
  await expect(picker).toHaveValue("local/m2");
  await send(page, "And now?");
  await expect(page.getByTestId("assistant-message").last()).toContainText("Answered by m2.");

  await desk.restart();
  await openDesk(page, desk.server);
  await expect(page.getByTestId("model-select")).toHaveValue("local/m2");
  expect(model.requests.map((request) => request.model)).toEqual(["m2", "m2"]);
});
