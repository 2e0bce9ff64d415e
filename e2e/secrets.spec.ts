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

const KEY_FROM_ENV = "sk-ant-from-the-environment-5f2c91";
const KEY_TYPED = "sk-typed-into-the-page-7d41b0";

test("no key the host holds, and not the page's token, reaches a command, the page or its console", async ({
  page,
  scriptedDesk,
}) => {
  const desk = await scriptedDesk([[runCommand("call-env", "env; echo listed", 10)], [say("Listed.")]], {
    env: { ANTHROPIC_API_KEY: KEY_FROM_ENV },
  });
  const token = new URL(desk.url).hash.replace("#token=", "");
  const console: string[] = [];
  page.on("console", (message) => console.push(message.text()));
  page.on("pageerror", (error) => console.push(String(error)));
  await openDesk(page, desk);

  // A key typed into the app goes to the host, which keeps it for the model and nowhere else.
  await page.getByTestId("nav-settings").click();
  // The scripted model's provider is the one listed; a key for it goes the way any provider's does.
  const keyField = page.getByTestId("api-key-pi-desk-script");
  await keyField.fill(KEY_TYPED);
  await keyField.press("Enter");
  await expect(page.getByText("Key saved for pi-desk-script.")).toBeVisible();
  await expect(keyField).toHaveValue("");
  await page.getByTestId("nav-chat").click();

  await send(page, "What is in the environment?");
  await (await expectPending(page, "call-env")).getByTestId("tray-approve-button").click();
  const output = card(page, "call-env").getByTestId("command-output");
  await expect(output).toContainText("listed");
  await expect(page.getByTestId("assistant-message").last()).toContainText("Listed.");

  const seen = {
    commandOutput: (await output.textContent()) ?? "",
    page: await page.content(),
    console: console.join("\n"),
  };
  for (const [where, text] of Object.entries(seen)) {
    for (const secret of [KEY_FROM_ENV, KEY_TYPED, token]) {
      expect(text.includes(secret), `${where} holds a secret`).toBe(false);
    }
  }
  // The command's environment was listed (so the check above looked at something).
  expect(seen.commandOutput).toContain("PATH=");
});
