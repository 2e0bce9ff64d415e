import { execFileSync } from "node:child_process";
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Page } from "@playwright/test";
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
  whenRecording,
} from "../harness/desk-page";
import { startModelDesk } from "../harness/model-desk";
import { startOpenAiServer } from "../harness/openai-server";
import { test } from "./support/desk-test";

test.describe.configure({ timeout: UI_TEST_TIMEOUT_MS });

/** The workspace before the commands: text files, a script, a dependency folder, and its own git history. */
function seed(workspace: string): void {
  writeFileSync(join(workspace, "a.txt"), "one\ntwo\nthree\n");
  writeFileSync(join(workspace, "old.log"), "old\n");
  writeFileSync(join(workspace, "run.sh"), "#!/bin/sh\necho run\n");
  chmodSync(join(workspace, "run.sh"), 0o644);
  mkdirSync(join(workspace, "node_modules", "pkg"), { recursive: true });
  writeFileSync(join(workspace, "node_modules", "pkg", "index.js"), "module.exports = 1;\n");
  const git = (...args: string[]) =>
    execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], { cwd: workspace });
  git("init", "-q");
  git("add", "-A");
  git("commit", "-qm", "seed");
}

/** Every file of the workspace's own .git with its hash: it must come out of all this unchanged. */
function gitFiles(workspace: string): string {
  return execFileSync("bash", ["-c", "find .git -type f -print0 | sort -z | xargs -0 sha1sum"], {
    cwd: workspace,
    encoding: "utf8",
  });
}

/** Turns the workspace's sandbox off in Settings. */
async function sandboxOff(page: Page): Promise<void> {
  await page.getByTestId("nav-settings").click();
  const enabled = page.getByTestId("sandbox-enabled");
  if (await enabled.isChecked()) await enabled.click();
  await expect(enabled).not.toBeChecked();
  await page.getByTestId("nav-chat").click();
}

const EDIT =
  "printf 'one\\nTWO\\nthree\\nfour\\n' > a.txt; echo hi > notes.txt; rm old.log; chmod +x run.sh; " +
  "echo 'module.exports = 2;' > node_modules/pkg/index.js; head -c 20971520 /dev/zero > big.bin";

for (const sandbox of ["on", "off"] as const) {
  test(`a command's changes on its card, their diff, and undo byte for byte (sandbox ${sandbox})`, async ({
    page,
    scriptedDesk,
  }, testInfo) => {
    const desk = await scriptedDesk([[runCommand("c1", EDIT)], [say("Edited.")]]);
    seed(desk.workspace);
    const gitBefore = gitFiles(desk.workspace);
    await openDesk(page, desk);
    await whenRecording(page);
    if (sandbox === "on") {
      await page.getByTestId("nav-settings").click();
      await page.getByTestId("changes-settings").scrollIntoViewIfNeeded();
      await shot(page, testInfo, "settings: what commands change");
      await page.getByTestId("nav-chat").click();
    }
    if (sandbox === "off") await sandboxOff(page);
    await send(page, "Edit the files");
    await (await expectPending(page, "c1")).getByTestId("tray-approve-button").click();
    await expect(page.getByTestId("assistant-message").filter({ hasText: "Edited." })).toBeVisible();

    const c1 = card(page, "c1");
    const summary = c1.getByTestId("changes-summary");
    // node_modules is left out; the 20 MiB file is named, not stored.
    await expect(summary).toHaveAttribute("data-files", "5");
    await expect(summary).toContainText("Changed 5 files (+3 -2)");
    await summary.click();
    const rows = c1.getByTestId("changes-file");
    await expect(rows).toHaveCount(5);
    const listed = await rows.evaluateAll((all) =>
      all.map((row) => `${row.getAttribute("data-change")} ${row.getAttribute("data-path")}`),
    );
    expect(listed).toEqual([
      "modified a.txt",
      "added big.bin",
      "added notes.txt",
      "deleted old.log",
      "mode run.sh",
    ]);
    expect(listed).not.toContain("modified node_modules/pkg/index.js");
    await expect(c1.locator('[data-path="big.bin"]')).toContainText("over the size limit, not stored");
    const diff = c1.locator('[data-path="a.txt"]').getByTestId("changes-diff");
    await expect(diff).toContainText("-two");
    await expect(diff).toContainText("+TWO");
    await shot(page, testInfo, `changes on the card, sandbox ${sandbox}`);

    await c1.getByTestId("undo-button").click();
    await c1.getByTestId("undo-confirm-button").click();
    const result = c1.getByTestId("undo-result");
    await expect(result).toBeVisible();
    await expect(result).toContainText("a.txt");
    // The oversized file cannot be put back, and the card says so.
    await expect(result).toHaveAttribute("data-state", "refused");
    await expect(result).toContainText("big.bin");
    expect(readFileSync(join(desk.workspace, "a.txt"), "utf8")).toBe("one\ntwo\nthree\n");
    expect(readFileSync(join(desk.workspace, "old.log"), "utf8")).toBe("old\n");
    expect(existsSync(join(desk.workspace, "notes.txt"))).toBe(false);
    expect(statSync(join(desk.workspace, "run.sh")).mode & 0o777).toBe(0o644);
    // The card still shows what the command changed; the workspace's own .git never moved.
    await expect(summary).toHaveAttribute("data-files", "5");
    expect(gitFiles(desk.workspace)).toBe(gitBefore);
    await shot(page, testInfo, `after undo, sandbox ${sandbox}`);

    // A reload keeps all of it: the record is the host's.
    await page.reload();
    await expect(card(page, "c1").getByTestId("undo-result")).toContainText("a.txt");
    await expect(card(page, "c1").getByTestId("changes-summary")).toHaveAttribute("data-files", "5");
  });
}

test("a file changed again since is a conflict until undo anyway; restore previews, then puts back", async ({
  page,
  scriptedDesk,
}, testInfo) => {
  const desk = await scriptedDesk([
    [runCommand("c1", "echo first > a.txt; echo b > b.txt")],
    [runCommand("c2", "echo second > a.txt")],
    [say("Both ran.")],
  ]);
  seed(desk.workspace);
  await openDesk(page, desk);
  await whenRecording(page);
  await send(page, "Go");
  await (await expectPending(page, "c1")).getByTestId("tray-approve-button").click();
  await (await expectPending(page, "c2")).getByTestId("tray-approve-button").click();
  await expect(page.getByTestId("assistant-message").filter({ hasText: "Both ran." })).toBeVisible();

  const c1 = card(page, "c1");
  await c1.getByTestId("undo-button").click();
  await c1.getByTestId("undo-confirm-button").click();
  const result = c1.getByTestId("undo-result");
  await expect(result).toHaveAttribute("data-state", "conflicts");
  expect(readFileSync(join(desk.workspace, "a.txt"), "utf8")).toBe("second\n");
  expect(existsSync(join(desk.workspace, "b.txt"))).toBe(false);
  await shot(page, testInfo, "undo with a conflict");
  await result.getByTestId("undo-anyway-button").click();
  await expect(result).toHaveAttribute("data-state", "done");
  expect(readFileSync(join(desk.workspace, "a.txt"), "utf8")).toBe("one\ntwo\nthree\n");
  // History has the undo, in the person's name, with what it put back.
  await page.getByTestId("nav-history").click();
  await expect(page.getByTestId("history-entry").filter({ hasText: "changes undone" }).first()).toContainText(
    "put back a.txt",
  );
  await page.getByTestId("nav-chat").click();

  // Back to the state before c2 (a.txt was "first" then, and b.txt there).
  const c2 = card(page, "c2");
  await c2.getByTestId("restore-button").click();
  await expect(c2.getByTestId("restore-preview")).toContainText("a.txt");
  await expect(c2.getByTestId("restore-preview")).toContainText("b.txt");
  await shot(page, testInfo, "restore preview");
  await c2.getByTestId("restore-confirm-button").click();
  await expect(c2.getByTestId("undo-result")).toHaveAttribute("data-kind", "restore");
  expect(readFileSync(join(desk.workspace, "a.txt"), "utf8")).toBe("first\n");
  expect(readFileSync(join(desk.workspace, "b.txt"), "utf8")).toBe("b\n");
});

test("undo refuses a file whose folder became a link to outside, and writes nothing there", async ({
  page,
  scriptedDesk,
}) => {
  const outside = mkdtempSync(join(tmpdir(), "pi-desk-outside-"));
  try {
    const desk = await scriptedDesk([
      [runCommand("c1", "echo changed > sub/f.txt")],
      [runCommand("c2", `rm -rf sub && ln -s ${outside} sub`)],
      [say("Swapped.")],
    ]);
    mkdirSync(join(desk.workspace, "sub"));
    writeFileSync(join(desk.workspace, "sub", "f.txt"), "inside\n");
    await openDesk(page, desk);
    await whenRecording(page);
    // The sandbox would keep the command from seeing the outside folder; the person runs these unsandboxed.
    await sandboxOff(page);
    await send(page, "Swap it");
    await (await expectPending(page, "c1")).getByTestId("tray-approve-button").click();
    await (await expectPending(page, "c2")).getByTestId("tray-approve-button").click();
    await expect(page.getByTestId("assistant-message").filter({ hasText: "Swapped." })).toBeVisible();

    const c1 = card(page, "c1");
    await c1.getByTestId("undo-button").click();
    await c1.getByTestId("undo-confirm-button").click();
    const result = c1.getByTestId("undo-result");
    await expect(result).toContainText("sub/f.txt");
    // Changed since (through the link), it is a conflict; undo anyway then refuses it: nothing is followed out.
    const anyway = result.getByTestId("undo-anyway-button");
    if (await anyway.count()) await anyway.click();
    await expect(result).toHaveAttribute("data-state", "refused");
    await expect(result).toContainText("symbolic link");
    expect(readdirSync(outside)).toEqual([]);

    // Undoing the swap itself removes the link (never following it) and brings the folder back.
    const c2 = card(page, "c2");
    await c2.getByTestId("undo-button").click();
    await c2.getByTestId("undo-confirm-button").click();
    await expect(c2.getByTestId("undo-result")).toHaveAttribute("data-state", "done");
    expect(readFileSync(join(desk.workspace, "sub", "f.txt"), "utf8")).toBe("changed\n");
    expect(readdirSync(outside)).toEqual([]);
  } finally {
    rmSync(outside, { recursive: true, force: true });
  }
});

test("through Pi's real provider, the model reads what its command changed and the person's undo; a restart keeps both", async ({
  page,
}) => {
  const model = await startOpenAiServer((_request, index) =>
    index === 0
      ? { toolCall: { id: "call-1", name: "run_command", arguments: { command: "echo hi > made.txt" } } }
      : { text: index === 1 ? "Made it." : "Noted." },
  );
  const desk = await startModelDesk(model.baseUrl);
  try {
    await openDesk(page, desk.server);
    await whenRecording(page);
    await send(page, "Make a file");
    await (await expectPending(page, "call-1")).getByTestId("tray-approve-button").click();
    await expect(page.getByTestId("assistant-message").last()).toContainText("Made it.");
    const toolResult = JSON.stringify(
      model.requests[1]?.messages.filter((message) => message.role === "tool"),
    );
    expect(toolResult).toContain("Files changed: A made.txt.");

    const c1 = card(page, "call-1");
    await c1.getByTestId("undo-button").click();
    await c1.getByTestId("undo-confirm-button").click();
    await expect(c1.getByTestId("undo-result")).toHaveAttribute("data-state", "done");
    await send(page, "What happened?");
    await expect(page.getByTestId("assistant-message").last()).toContainText("Noted.");
    const told = JSON.stringify(model.requests[2]?.messages.filter((message) => message.role === "user"));
    expect(told).toContain(
      "The person undid the changes of command `echo hi > made.txt`: put back made.txt.",
    );
  } finally {
    await desk.cleanup();
    await model.close();
  }
});
