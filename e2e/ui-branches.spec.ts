import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "@playwright/test";
import {
  edit,
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
import { test } from "./support/desk-test";

test.describe.configure({ timeout: UI_TEST_TIMEOUT_MS });

const SEED = { "a.txt": "alpha\n", "b.txt": "one\n" };

/** Approves a waiting command or edit in the tray. */
async function approve(page: Page, id: string): Promise<void> {
  const found = page.locator(`[data-testid="tray-item"][data-edit-id="${id}"]`);
  if ((await found.count()) > 0) {
    await expect(found).toHaveAttribute("data-status", "pending");
    await found.getByTestId("tray-approve-button").click();
    return;
  }
  await (await expectPending(page, id)).getByTestId("tray-approve-button").click();
}

test("rewind, take another way, switch back to the first branch: its files and conversation return, and the other way stays offered", async ({
  page,
  scriptedDesk,
}, testInfo) => {
  const desk = await scriptedDesk([
    [edit("e1", "a.txt", "alpha", "FIRST")],
    [runCommand("c1", "echo made > c.txt")],
    [say("done one")],
    [runCommand("c2", "printf 'B\\n' > b.txt")],
    [say("done other")],
  ]);
  for (const [path, content] of Object.entries(SEED)) writeFileSync(join(desk.workspace, path), content);
  const file = (path: string) => readFileSync(join(desk.workspace, path), "utf8");
  await openDesk(page, desk);
  await whenRecording(page);

  await send(page, "first");
  await page.locator('[data-testid="tray-item"][data-edit-id="e1"]').waitFor();
  await approve(page, "e1");
  await approve(page, "c1");
  await expect(page.getByTestId("assistant-message").filter({ hasText: "done one" })).toBeVisible();
  const first = page.getByTestId("user-message").filter({ hasText: "first" });
  const firstId = (await first.getAttribute("data-entry-id")) as string;
  expect(firstId).toBeTruthy();
  await expect(page.getByTestId("branch-switch")).toHaveCount(0);

  // The transcript draws only the entries near its view: the first message is at its top.
  await page.getByTestId("transcript").evaluate((el) => {
    el.scrollTop = 0;
  });
  await first.getByTestId("rewind-button").click();
  await page.getByTestId("rewind-confirm").click();
  await expect(page.getByTestId("user-message")).toHaveCount(0);
  expect(file("a.txt")).toBe(SEED["a.txt"]);
  // Where the rewind left the chat: the first way is offered.
  await expect(page.locator(`[data-testid="branch-switch"][data-entry-id="${firstId}"]`)).toBeVisible();

  await send(page, "other way");
  await approve(page, "c2");
  await expect(page.getByTestId("assistant-message").filter({ hasText: "done other" })).toBeVisible();
  expect(file("b.txt")).toBe("B\n");
  const toFirst = page.locator(`[data-testid="branch-switch"][data-entry-id="${firstId}"]`);
  await page.getByTestId("transcript").evaluate((el) => {
    el.scrollTop = 0;
  });
  await expect(toFirst).toBeVisible();
  await shot(page, testInfo, "a branch point above the other way");

  await toFirst.click();
  const preview = page.getByTestId("rewind-preview");
  await expect(preview).toHaveAttribute("data-mode", "switch");
  await expect(preview.getByTestId("rewind-file")).toHaveCount(3);
  const rows = await preview
    .getByTestId("rewind-file")
    .evaluateAll((all) =>
      all.map((row) => `${row.getAttribute("data-path")} ${row.getAttribute("data-outcome")}`),
    );
  expect(rows).toEqual(["a.txt restored", "b.txt restored", "c.txt restored"]);
  await preview.getByTestId("rewind-confirm").click();
  await expect(preview).toHaveCount(0);

  await expect(page.getByTestId("user-message")).toHaveText([/first/]);
  await expect(page.getByTestId("assistant-message").filter({ hasText: "done one" })).toBeVisible();
  expect(file("a.txt")).toBe("FIRST\n");
  expect(file("b.txt")).toBe(SEED["b.txt"]);
  expect(file("c.txt")).toBe("made\n");
  const otherId = await page.getByTestId("branch-switch").getAttribute("data-entry-id");
  expect(otherId).toBeTruthy();
  expect(otherId).not.toBe(firstId);

  // A reload rebuilds the same branch and the same offer from the host; switching back brings the other way's files.
  await page.reload();
  await expect(page.getByTestId("user-message")).toHaveText([/first/]);
  await page.getByTestId("transcript").evaluate((el) => {
    el.scrollTop = 0;
  });
  await page.locator(`[data-testid="branch-switch"][data-entry-id="${otherId}"]`).click();
  await page.getByTestId("rewind-confirm").click();
  await expect(page.getByTestId("user-message")).toHaveText([/other way/]);
  expect(file("a.txt")).toBe(SEED["a.txt"]);
  expect(file("b.txt")).toBe("B\n");
  expect(existsSync(join(desk.workspace, "c.txt"))).toBe(false);
});

const git = (cwd: string, ...args: string[]) =>
  execFileSync("git", ["-c", "user.name=T", "-c", "user.email=t@t", ...args], { cwd, encoding: "utf8" });

test("fork from here into a new worktree: a new chat there, the files as they were before the message, this folder untouched", async ({
  page,
  scriptedDesk,
}, testInfo) => {
  const desk = await scriptedDesk([
    [runCommand("c1", "echo made > c.txt")],
    [say("done one")],
    [runCommand("c2", "echo more >> c.txt; echo x > later.txt")],
    [say("done two")],
  ]);
  git(desk.workspace, "init", "-q", "-b", "main");
  writeFileSync(join(desk.workspace, "a.txt"), SEED["a.txt"]);
  git(desk.workspace, "add", "-A");
  git(desk.workspace, "commit", "-q", "-m", "first");
  await openDesk(page, desk);
  await whenRecording(page);

  await send(page, "first");
  await approve(page, "c1");
  await expect(page.getByTestId("assistant-message").filter({ hasText: "done one" })).toBeVisible();
  await send(page, "second");
  await approve(page, "c2");
  await expect(page.getByTestId("assistant-message").filter({ hasText: "done two" })).toBeVisible();

  const second = page.getByTestId("user-message").filter({ hasText: "second" });
  await second.getByTestId("fork-button").click();
  await expect(second.getByTestId("fork-choice")).toBeVisible();
  await shot(page, testInfo, "fork: this folder or a new worktree");
  await second.getByTestId("fork-worktree").click();

  const forked = page.locator('[data-testid="chat-item"][data-worktree="true"]');
  await expect(forked).toHaveCount(1);
  await expect(page.getByTestId("prompt-input")).toHaveValue("second");
  await expect(page.getByTestId("user-message")).toHaveText([/first/]);
  const branch = ((await forked.getByTestId("chat-item-branch").textContent()) ?? "").replace(
    /^.*(pi-desk\/\S+).*$/,
    "$1",
  );
  const block = git(desk.workspace, "worktree", "list", "--porcelain")
    .split("\n\n")
    .find((lines) => lines.includes(`branch refs/heads/${branch}`));
  const folder = block?.split("\n")[0]?.replace(/^worktree /, "") as string;
  expect(folder).toBeTruthy();
  expect(readFileSync(join(folder, "c.txt"), "utf8")).toBe("made\n");
  expect(existsSync(join(folder, "later.txt"))).toBe(false);
  expect(readFileSync(join(desk.workspace, "c.txt"), "utf8")).toBe("made\nmore\n");
  expect(existsSync(join(desk.workspace, "later.txt"))).toBe(true);
});
