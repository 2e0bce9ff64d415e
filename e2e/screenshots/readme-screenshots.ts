import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { Page } from "@playwright/test";
import { expect, expectPending, openDesk, say, send, trayCard } from "../../harness/desk-page";
import type { ScriptBlock } from "../../harness/desk-server";
import { freePort } from "../../harness/free-port";
import { startModelDesk } from "../../harness/model-desk";
import { errorReply, startOpenAiServer } from "../../harness/openai-server";
import { test } from "../support/desk-test";

/*
 * The README's screenshots, taken from the real app: the browser host (`out/main/serve.js`) with the
 * scripted model, in Chromium. Run with `npm run screenshots`; each writes docs/screenshot-*.png.
 */

test.describe.configure({ timeout: 120_000 });

const DOCS = join(import.meta.dirname, "..", "..", "docs");
const SIZE = { width: 1280, height: 800 };
const SUM = "export function sum(a, b) {\n  return a - b;\n}\n";

const call = (id: string, name: string, args: Record<string, unknown>): ScriptBlock => ({
  type: "toolCall",
  id,
  name,
  arguments: args,
});

/** Writes the page as it is now to docs/screenshot-<name>.png, once what is drawn has settled. */
async function save(page: Page, name: string): Promise<void> {
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
  await page.screenshot({ path: join(DOCS, `screenshot-${name}.png`) });
}

test.beforeEach(async ({ page }) => {
  await page.setViewportSize(SIZE);
  await page.emulateMedia({ colorScheme: "light" });
});

test("pending: commands and an edit waiting, decided in the tray", async ({ page, scriptedDesk }) => {
  const desk = await scriptedDesk([
    [
      say("The tests fail on `sum`. I will run them, look at the history, then fix the sign."),
      call("c1", "run_command", { command: "npm test 2>&1 | tail -20", timeout: 120 }),
      call("c2", "run_command", { command: "git log --oneline -5 && git status --short" }),
      call("e1", "edit", { path: "sum.js", edits: [{ oldText: "a - b", newText: "a + b" }] }),
    ],
    [say("Done.")],
  ]);
  writeFileSync(join(desk.workspace, "sum.js"), SUM);
  await openDesk(page, desk);
  await send(page, "The tests fail, find out why and fix it");
  await expectPending(page, "c1");
  await expectPending(page, "c2");
  await expect(page.locator('[data-testid="tray-item"][data-edit-id="e1"]')).toHaveAttribute(
    "data-status",
    "pending",
  );
  await save(page, "pending");
});

test("changes: a finished command with what it changed, and the diff", async ({ page, scriptedDesk }) => {
  const desk = await scriptedDesk([
    [
      say("The sign is wrong in sum.js; I will fix it and run the check."),
      call("c1", "run_command", {
        command: "sed -i 's/a - b/a + b/' sum.js && node --check sum.js && echo ok",
      }),
    ],
    [say("Fixed: `sum` now adds. The change is on the card, with Undo.")],
  ]);
  writeFileSync(join(desk.workspace, "sum.js"), SUM);
  await openDesk(page, desk);
  // The first snapshot of the workspace must be taken before the command runs, for its changes to show.
  await page.getByTestId("nav-settings").click();
  await expect(page.getByTestId("changes-settings")).toHaveAttribute("data-state", "on");
  await page.getByTestId("nav-chat").click();
  await send(page, "Fix the sum");
  await (await expectPending(page, "c1")).getByTestId("tray-approve-button").click();
  const done = page.locator('[data-testid="command-card"][data-command-id="c1"]');
  await expect(done).toHaveAttribute("data-status", "succeeded");
  await expect(page.getByTestId("assistant-message").last()).toContainText("Fixed");
  await done.getByTestId("changes-summary").click();
  await expect(done.getByTestId("changes-diff").first()).toContainText("+  return a + b;");
  await save(page, "changes");
});

test("running: two servers in the Running panel, a third command waiting", async ({ page, scriptedDesk }) => {
  const [web, api] = [await freePort(), await freePort()];
  const desk = await scriptedDesk([
    [
      say("I will start the site and its API in the background."),
      call("srv-web", "run_command", {
        command: `python3 -m http.server ${web} --bind 127.0.0.1`,
        background: true,
      }),
      call("srv-api", "run_command", {
        command: `python3 -m http.server ${api} --bind 127.0.0.1`,
        background: true,
      }),
    ],
    [
      say("Both are up. Now a request to each."),
      call("c1", "run_command", {
        command: `curl -s -o /dev/null -w '%{http_code}' http://127.0.0.1:${web}/`,
      }),
    ],
    [say("Done.")],
  ]);
  await openDesk(page, desk);
  await send(page, "Start the dev servers");
  for (const id of ["srv-web", "srv-api"]) {
    const item = trayCard(page, id);
    const network = item.getByTestId("tray-allow-network");
    if (await network.count()) await network.check();
    await item.getByTestId("tray-approve-button").click();
  }
  await expectPending(page, "c1");
  await page.getByTestId("background-panel-button").click();
  await expect(page.getByTestId("background-panel").getByTestId("background-port")).toHaveCount(2, {
    timeout: 20_000,
  });
  await save(page, "running");
});

test("turn error: a refused key, said once, with what to do", async ({ page }) => {
  const model = await startOpenAiServer(() => errorReply(401, "Incorrect API key provided: sk-...1234."));
  const desk = await startModelDesk(model.baseUrl);
  try {
    await page.setViewportSize(SIZE);
    await openDesk(page, desk.server);
    await send(page, "Hello");
    await expect(page.getByTestId("turn-error")).toHaveAttribute("data-state", "failed");
    await save(page, "turn-error");
  } finally {
    await desk.cleanup();
    await model.close();
  }
});

/** An answer as a model writes one: a heading, a list, a table, two code blocks and a remote image. */
const ANSWER = [
  "## Why `sum` failed",
  "",
  "The test expects **addition**, but `sum` subtracted. Three things changed:",
  "",
  "- [x] the sign in `sum.js`",
  "- [x] a test for negative numbers",
  "- [ ] ~~a new dependency~~ (not needed)",
  "",
  "| case | before | after |",
  "| --- | ---: | ---: |",
  "| `sum(2, 3)` | -1 | 5 |",
  "| `sum(-2, 3)` | -5 | 1 |",
  "",
  "```ts",
  "/** Adds two numbers. */",
  "export function sum(a: number, b: number): number {",
  "  return a + b; // was a - b",
  "}",
  "```",
  "",
  "Run the tests again with:",
  "",
  "```sh",
  'npm test -- --grep "sum" && echo "all green"',
  "```",
  "",
  "The diagram the issue linked is not loaded: ![flow](https://example.com/flow.png)",
].join("\n");

for (const scheme of ["light", "dark"] as const) {
  test(`markdown: an answer with highlighted code, ${scheme}`, async ({ page, scriptedDesk }) => {
    const desk = await scriptedDesk([[say(ANSWER)]]);
    await page.emulateMedia({ colorScheme: scheme });
    await openDesk(page, desk);
    await send(page, "Why did sum fail?");
    await expect(page.locator('code[data-highlighted="true"]')).toHaveCount(2);
    await save(page, `markdown-${scheme}`);
  });
}

test("composer: @ finds a file by a few letters, a pasted screenshot waits as a thumbnail", async ({
  page,
  scriptedDesk,
}) => {
  const desk = await scriptedDesk([[say("`sum` subtracts: `a - b` where the tests expect `a + b`.")]]);
  for (const file of [
    "src/sum.js",
    "src/summary/index.ts",
    "test/sum.test.js",
    "docs/summing.md",
    "README.md",
  ]) {
    mkdirSync(dirname(join(desk.workspace, file)), { recursive: true });
    writeFileSync(join(desk.workspace, file), SUM);
  }
  await openDesk(page, desk);
  await send(page, "Why do the tests fail?");
  await expect(page.getByTestId("assistant-message")).toContainText("subtracts");
  const picture = readFileSync(join(DOCS, "screenshot-pending.png")).toString("base64");
  await page.getByTestId("prompt-input").evaluate((box, base64) => {
    const data = new DataTransfer();
    const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
    data.items.add(new File([bytes], "tray.png", { type: "image/png" }));
    box.dispatchEvent(new ClipboardEvent("paste", { clipboardData: data, bubbles: true, cancelable: true }));
  }, picture);
  await expect(page.getByTestId("attachment")).toHaveCount(1);
  await page.getByTestId("prompt-input").pressSequentially("Fix it in @sum");
  await expect(page.getByTestId("file-item").first()).toHaveAttribute("data-path", "src/sum.js");
  await save(page, "composer");
});

test("settings: sandbox, rules, limits", async ({ page, scriptedDesk }) => {
  const desk = await scriptedDesk([[say("Hello.")]]);
  await openDesk(page, desk);
  await page.getByTestId("nav-settings").click();
  await expect(page.getByTestId("limits")).toBeVisible();
  await save(page, "settings");
});

test("Chinese, dark theme, a small window: the same tray", async ({ page, scriptedDesk }) => {
  await page.addInitScript(() => localStorage.setItem("pi-desk-language", "zh-CN"));
  await page.emulateMedia({ colorScheme: "dark" });
  await page.setViewportSize({ width: 1024, height: 640 });
  const desk = await scriptedDesk([
    [
      say("先运行测试，再看看最近的提交。"),
      call("c1", "run_command", { command: "npm test" }),
      call("c2", "run_command", { command: "git log --oneline -5" }),
    ],
    [say("好的。")],
  ]);
  await openDesk(page, desk);
  await send(page, "测试为什么失败？");
  await expectPending(page, "c1");
  await expectPending(page, "c2");
  await save(page, "zh-dark");
});
