import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Locator, Page } from "@playwright/test";
import {
  edit,
  expect,
  expectPending,
  openDesk,
  say,
  send,
  shot,
  UI_TEST_TIMEOUT_MS,
} from "../harness/desk-page";
import type { ScriptBlock } from "../harness/desk-server";
import { startModelDesk } from "../harness/model-desk";
import { startOpenAiServer } from "../harness/openai-server";
import { test } from "./support/desk-test";

test.describe.configure({ timeout: UI_TEST_TIMEOUT_MS });

const SUM = "export function sum(a, b) {\n  return a - b;\n}\n";
const FIXED = "export function sum(a, b) {\n  return a + b;\n}\n";

const write = (id: string, path: string, content: string): ScriptBlock => ({
  type: "toolCall",
  id,
  name: "write",
  arguments: { path, content },
});

/** The transcript card of an edit. */
function editCard(page: Page, id: string): Locator {
  return page.locator(`[data-testid="edit-card"][data-edit-id="${id}"]`);
}

/**
 * Waits until an edit waits for the person with its diff and actions, and returns its card in the approval
 * tray, where the person decides (inner ids prefixed `tray-`); the transcript holds a line leading there.
 */
async function pendingEdit(page: Page, id: string): Promise<Locator> {
  const found = page.locator(`[data-testid="tray-item"][data-edit-id="${id}"]`);
  await expect(found).toHaveAttribute("data-status", "pending");
  await expect(found.getByTestId("tray-approve-button")).toBeEnabled();
  await expect(page.locator(`[data-testid="pending-line"][data-edit-id="${id}"]`)).toHaveCount(1);
  await expect(editCard(page, id)).toHaveCount(0);
  return found;
}

const read = (workspace: string, path: string) => readFileSync(join(workspace, path), "utf8");

test("an edit shows its diff first, is written only on Approve, and can be undone", async ({
  page,
  scriptedDesk,
}, testInfo) => {
  const desk = await scriptedDesk([
    [say("The sign is wrong."), edit("e1", "sum.js", "a - b", "a + b")],
    [say("Fixed the sign.")],
  ]);
  writeFileSync(join(desk.workspace, "sum.js"), SUM);
  await openDesk(page, desk);
  await send(page, "the tests fail, fix it");

  const pending = await pendingEdit(page, "e1");
  await expect(pending).toHaveAttribute("data-tool", "edit");
  await expect(pending).toHaveAttribute("data-path", "sum.js");
  const lines = pending.getByTestId("tray-edit-diff").getByTestId("diff-line");
  const text = (kind: string) => lines.and(page.locator(`[data-kind="${kind}"]`)).locator(".edit-diff-text");
  await expect(text("del")).toHaveText(["-  return a - b;"]);
  await expect(text("add")).toHaveText(["+  return a + b;"]);
  await expect(lines.and(page.locator('[data-kind="add"]'))).toContainText("2");
  // The changed word within the line is marked.
  await expect(pending.locator("mark")).toHaveText(["-", "+"]);
  const tray = page.locator('[data-testid="tray-item"][data-edit-id="e1"]');
  await expect(tray).toHaveAttribute("data-tool", "edit");
  await expect(tray).toHaveAttribute("data-path", "sum.js");
  await expect(tray).toHaveAttribute("data-status", "pending");
  await expect(tray.getByTestId("tray-approve-button")).toBeVisible();
  await expect(page).toHaveTitle(/^\(1\) /);
  expect(read(desk.workspace, "sum.js")).toBe(SUM);
  await shot(page, testInfo, "an edit waiting for approval");

  // Keyboard: Enter on the focused card approves it, as for commands.
  await pending.focus();
  await page.keyboard.press("Enter");
  const done = editCard(page, "e1");
  await expect(done).toHaveAttribute("data-status", "applied");
  await expect(page.getByTestId("assistant-message").last()).toContainText("Fixed the sign.");
  expect(read(desk.workspace, "sum.js")).toBe(FIXED);
  await expect(done.getByTestId("changes-summary")).toHaveAttribute("data-files", "1");
  await expect(page.getByTestId("approval-tray")).toHaveCount(0);
  await shot(page, testInfo, "the edit applied");

  await done.getByTestId("undo-button").click();
  await done.getByTestId("undo-confirm-button").click();
  await expect(done.getByTestId("undo-result")).toHaveAttribute("data-state", "done");
  expect(read(desk.workspace, "sum.js")).toBe(SUM);
});

test("Deny asks why and writes nothing; Change writes the person's version", async ({
  page,
  scriptedDesk,
}, testInfo) => {
  const desk = await scriptedDesk([
    [edit("e1", "sum.js", "a - b", "a + b")],
    [say("Understood."), edit("e2", "sum.js", "a - b", "a + b")],
    [say("Noted your version.")],
  ]);
  writeFileSync(join(desk.workspace, "sum.js"), SUM);
  await openDesk(page, desk);
  await send(page, "fix it");

  const first = await pendingEdit(page, "e1");
  await first.getByTestId("tray-deny-button").click();
  await first.getByTestId("tray-deny-reason").fill("keep the subtraction for now");
  await first.getByTestId("tray-deny-confirm").click();
  await expect(editCard(page, "e1")).toHaveAttribute("data-status", "denied");
  await expect(editCard(page, "e1").getByTestId("edit-error")).toContainText("keep the subtraction for now");
  expect(read(desk.workspace, "sum.js")).toBe(SUM);

  const second = await pendingEdit(page, "e2");
  await second.getByTestId("tray-change-button").click();
  const editor = second.getByTestId("tray-edit-content");
  await expect(editor).toHaveValue(FIXED);
  const persons = "export function sum(a, b) {\n  return Number(a) + Number(b);\n}\n";
  await editor.fill(persons);
  await shot(page, testInfo, "the person changes the proposed content");
  await second.getByTestId("tray-change-apply-button").click();
  await expect(editCard(page, "e2")).toHaveAttribute("data-status", "applied");
  expect(read(desk.workspace, "sum.js")).toBe(persons);
  await expect(editCard(page, "e2")).toContainText("Applied with your changes.");
});

test("always allow edits to a file: the next edit applies without asking, still with its card and Undo", async ({
  page,
  scriptedDesk,
}) => {
  const desk = await scriptedDesk([
    [write("w1", "notes.md", "one\n")],
    [write("w2", "notes.md", "one\ntwo\n")],
    [write("w3", ".env", "SECRET=1\n")],
    [say("Done.")],
  ]);
  await openDesk(page, desk);
  await send(page, "take notes");

  const first = await pendingEdit(page, "w1");
  // A write of a new file: every line added.
  await expect(first.getByTestId("diff-line")).toHaveCount(1);
  await expect(first.getByTestId("diff-line").first()).toHaveAttribute("data-kind", "add");
  await first.getByTestId("tray-always-allow-button").click();
  await first.getByTestId("tray-rule-edits-file").check();
  await first.getByTestId("tray-rule-scope-session").check();
  await first.getByTestId("tray-always-allow-confirm").click();

  await expect(editCard(page, "w2")).toHaveAttribute("data-status", "applied");
  await expect(editCard(page, "w2").getByTestId("undo-button")).toBeVisible();
  expect(read(desk.workspace, "notes.md")).toBe("one\ntwo\n");
  // A protected file asks whatever the rules, and offers no rule.
  const env = await pendingEdit(page, "w3");
  await expect(env.getByTestId("tray-always-allow-button")).toHaveCount(0);
  await env.getByTestId("tray-approve-button").click();
  await expect(page.getByTestId("assistant-message").last()).toContainText("Done.");
});

test("an edit outside the workspace is refused with a reason, and nothing is written", async ({
  page,
  scriptedDesk,
}) => {
  const desk = await scriptedDesk([[write("w1", "../escape.txt", "x")], [say("OK.")]]);
  await openDesk(page, desk);
  await send(page, "write outside");
  const refused = editCard(page, "w1");
  await expect(refused).toHaveAttribute("data-status", "failed");
  await expect(refused.getByTestId("edit-error")).toContainText("is outside the workspace");
  await expect(refused.getByTestId("approve-button")).toHaveCount(0);
  expect(() => readFileSync(join(desk.workspace, "..", "escape.txt"))).toThrow();
});

test("through Pi's real provider: the model's edit call, the approval, and the result in its next request", async ({
  page,
}) => {
  const model = await startOpenAiServer((_request, index) =>
    index === 0
      ? {
          toolCall: {
            id: "call-e1",
            name: "edit",
            arguments: { path: "sum.js", edits: [{ oldText: "a - b", newText: "a + b" }] },
          },
        }
      : { text: "Fixed." },
  );
  const desk = await startModelDesk(model.baseUrl);
  try {
    writeFileSync(join(desk.server.workspace, "sum.js"), SUM);
    await openDesk(page, desk.server);
    await send(page, "fix the sign");
    const pending = await pendingEdit(page, "call-e1");
    await pending.getByTestId("tray-approve-button").click();
    await expect(page.getByTestId("assistant-message").last()).toContainText("Fixed.");
    expect(read(desk.server.workspace, "sum.js")).toBe(FIXED);
    const toolResult = JSON.stringify(
      model.requests[1]?.messages.filter((message) => message.role === "tool"),
    );
    expect(toolResult).toContain("Successfully replaced 1 block(s) in sum.js.");
    // The model is told to change files with edit and write, and to run programs with run_command.
    const system = JSON.stringify(model.requests[0]?.messages.filter((message) => message.role === "system"));
    expect(system).toContain("Change files with the edit and write tools");
  } finally {
    await desk.cleanup();
    await model.close();
  }
});

test("a command that writes a file with a quoted heredoc shows the diff before it runs, marked as a preview", async ({
  page,
  scriptedDesk,
}, testInfo) => {
  const heredoc = "cat > sum.js <<'EOF'\nexport function sum(a, b) {\n  return a + b;\n}\nEOF";
  const desk = await scriptedDesk([
    [{ type: "toolCall", id: "c1", name: "run_command", arguments: { command: heredoc } }],
    [say("Written.")],
  ]);
  writeFileSync(join(desk.workspace, "sum.js"), SUM);
  await openDesk(page, desk);
  await send(page, "fix it with a heredoc");
  const pending = await expectPending(page, "c1");
  const preview = pending.getByTestId("tray-write-preview");
  await expect(preview).toHaveAttribute("data-path", "sum.js");
  await expect(preview.getByTestId("diff-line").and(page.locator('[data-kind="add"]'))).toHaveCount(1);
  await expect(preview).toContainText("Preview");
  expect(read(desk.workspace, "sum.js")).toBe(SUM);
  await shot(page, testInfo, "a shell write previewed");
  await pending.getByTestId("tray-approve-button").click();
  await expect(page.getByTestId("assistant-message").last()).toContainText("Written.");
  expect(read(desk.workspace, "sum.js")).toBe(FIXED);
});
