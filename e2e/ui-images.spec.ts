import type { Page } from "@playwright/test";
import { test } from "@playwright/test";
import { expect, openDesk, UI_TEST_TIMEOUT_MS } from "../harness/desk-page";
import { type ModelDesk, startModelDesk } from "../harness/model-desk";
import { type OpenAiServer, startOpenAiServer } from "../harness/openai-server";

test.describe.configure({ timeout: UI_TEST_TIMEOUT_MS });

/** A 1x1 PNG, as a screenshot pasted in would arrive. */
const PNG =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";

let model: OpenAiServer;
let desk: ModelDesk;

test.afterEach(async () => {
  await desk?.cleanup();
  await model?.close();
});

/** Pastes an image file into the composer, as Ctrl+V of a screenshot does. */
async function pasteImage(page: Page, name: string, type: string, base64: string): Promise<void> {
  await page.getByTestId("prompt-input").evaluate(
    (box, file) => {
      const data = new DataTransfer();
      const bytes = Uint8Array.from(atob(file.base64), (c) => c.charCodeAt(0));
      data.items.add(new File([bytes], file.name, { type: file.type }));
      box.dispatchEvent(
        new ClipboardEvent("paste", { clipboardData: data, bubbles: true, cancelable: true }),
      );
    },
    { name, type, base64 },
  );
}

test("through Pi's real provider: a pasted PNG reaches the server as an image part, and a model without image input is named and refused", async ({
  page,
}) => {
  model = await startOpenAiServer(() => ({ text: "A single red pixel." }));
  desk = await startModelDesk(model.baseUrl);
  await openDesk(page, desk.server);
  const input = page.getByTestId("prompt-input");

  // Not an image: refused as it is attached, saying which types are.
  await pasteImage(page, "notes.txt", "text/plain", btoa("just text"));
  await expect(page.getByTestId("attachment-error")).toContainText("notes.txt is not an image");
  await expect(page.getByTestId("attachment")).toHaveCount(0);

  // Attached, shown, removable, attached again.
  await pasteImage(page, "shot.png", "image/png", PNG);
  await expect(page.getByTestId("attachment")).toHaveCount(1);
  await page.getByTestId("attachment-remove").click();
  await expect(page.getByTestId("attachment")).toHaveCount(0);
  await pasteImage(page, "shot.png", "image/png", PNG);
  await input.fill("What is in this picture?");
  await input.press("Enter");
  await expect(page.getByTestId("assistant-message")).toContainText("A single red pixel.");
  await expect(page.getByTestId("attachment")).toHaveCount(0);
  await expect(page.getByTestId("user-message").getByTestId("message-image")).toHaveCount(1);
  const sent = model.requests[0]?.messages.find((message) => message.role === "user");
  expect(sent?.content).toEqual([
    { type: "text", text: "What is in this picture?" },
    { type: "image_url", image_url: { url: `data:image/png;base64,${PNG}` } },
  ]);

  // A model that does not read images: named, and the image refused before anything is sent.
  await page.getByTestId("model-select").selectOption("local/m2");
  await pasteImage(page, "shot.png", "image/png", PNG);
  await expect(page.getByTestId("attachment-error")).toContainText("Local Two does not read images");
  await expect(page.getByTestId("attachment")).toHaveCount(0);
  expect(model.requests).toHaveLength(1);

  // After a reload the message still shows its image, from the session file.
  await page.reload();
  await expect(page.getByTestId("user-message").getByTestId("message-image")).toHaveCount(1);
});
