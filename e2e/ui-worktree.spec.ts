import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Locator, Page } from "@playwright/test";
import {
  expect,
  expectPending,
  openDesk,
  runCommand,
  say,
  send,
  shot,
  UI_TEST_TIMEOUT_MS,
} from "../harness/desk-page";
import type { DeskServer } from "../harness/desk-server";
import { test } from "./support/desk-test";

test.describe.configure({ timeout: UI_TEST_TIMEOUT_MS });

const git = (cwd: string, ...args: string[]) =>
  execFileSync("git", ["-c", "user.name=T", "-c", "user.email=t@t", ...args], { cwd, encoding: "utf8" });

/** Makes the (empty) workspace a repository with one commit: shared.txt. */
function makeRepository(workspace: string): void {
  git(workspace, "init", "-q", "-b", "main");
  writeFileSync(join(workspace, "shared.txt"), "base line\n");
  git(workspace, "add", "-A");
  git(workspace, "commit", "-q", "-m", "first");
}

/** The sidebar's worktree chat (the one shown). */
function worktreeChat(page: Page): Locator {
  return page.locator('[data-testid="chat-item"][data-worktree="true"]');
}

/**
 * Starts a chat in a new worktree, sends its first message and approves the command its script runs;
 * returns the chat's worktree folder and branch as the host reports them.
 */
async function worktreeChatThatRan(page: Page, desk: DeskServer, first: string): Promise<{ branch: string }> {
  await openDesk(page, desk);
  await page.getByTestId("new-chat-button").click();
  await page.getByTestId("new-chat-worktree").click();
  await expect(worktreeChat(page)).toHaveCount(1);
  await expect(worktreeChat(page).getByTestId("chat-item-branch")).toContainText("pi-desk/");
  const branch = ((await worktreeChat(page).getByTestId("chat-item-branch").textContent()) ?? "").replace(
    /^.*(pi-desk\/\S+).*$/,
    "$1",
  );
  await send(page, first);
  await (await expectPending(page, "call-1")).getByTestId("tray-approve-button").click();
  await expect(page.getByTestId("assistant-message").filter({ hasText: "Written." })).toBeVisible();
  return { branch };
}

/** The folder of a branch's worktree, from git's own list. */
function worktreeOf(workspace: string, branch: string): string | undefined {
  const blocks = git(workspace, "worktree", "list", "--porcelain").split("\n\n");
  const block = blocks.find((lines) => lines.includes(`branch refs/heads/${branch}`));
  return block?.split("\n")[0]?.replace(/^worktree /, "");
}

test("a worktree chat's file reaches the workspace only when brought in; a conflicting bring applies nothing and lists the conflict", async ({
  page,
  scriptedDesk,
}, testInfo) => {
  const desk = await scriptedDesk({
    write: [
      [
        say("Writing."),
        runCommand(
          "call-1",
          "printf 'from the chat\\n' > made.txt && printf 'chat line\\n' > shared.txt",
          10,
        ),
      ],
      [say("Written.")],
    ],
  });
  makeRepository(desk.workspace);
  const { branch } = await worktreeChatThatRan(page, desk, "write: two files");
  const folder = worktreeOf(desk.workspace, branch) as string;
  expect(readFileSync(join(folder, "made.txt"), "utf8")).toBe("from the chat\n");
  // The workspace does not see the chat's work.
  expect(existsSync(join(desk.workspace, "made.txt"))).toBe(false);
  expect(readFileSync(join(desk.workspace, "shared.txt"), "utf8")).toBe("base line\n");

  await page.getByTestId("review-button").click();
  const review = page.getByTestId("review-view");
  await expect(review.getByTestId("review-file")).toHaveCount(2);
  await expect(review.locator('[data-testid="review-file"][data-path="made.txt"]')).toHaveAttribute(
    "data-status",
    "added",
  );

  // The person edited shared.txt in the workspace meanwhile: nothing is applied, not even made.txt.
  writeFileSync(join(desk.workspace, "shared.txt"), "the person's line\n");
  await review.getByTestId("bring-into-workspace-button").click();
  await expect(review.getByTestId("bring-conflict")).toHaveCount(1);
  await expect(review.getByTestId("bring-conflict")).toHaveAttribute("data-path", "shared.txt");
  await shot(page, testInfo, "a bring that conflicts applies nothing");
  expect(existsSync(join(desk.workspace, "made.txt"))).toBe(false);
  expect(readFileSync(join(desk.workspace, "shared.txt"), "utf8")).toBe("the person's line\n");

  // Once the person's edit is gone, the whole change comes in, uncommitted.
  git(desk.workspace, "checkout", "--", "shared.txt");
  await review.getByTestId("bring-into-workspace-button").click();
  await expect(review.getByTestId("bring-result")).toHaveAttribute("data-applied", "true");
  await expect(review.getByTestId("bring-conflict")).toHaveCount(0);
  expect(readFileSync(join(desk.workspace, "made.txt"), "utf8")).toBe("from the chat\n");
  expect(readFileSync(join(desk.workspace, "shared.txt"), "utf8")).toBe("chat line\n");
  expect(git(desk.workspace, "log", "--oneline").trim().split("\n")).toHaveLength(1);
});

test("Keep the branch leaves the branch with the chat's work committed and no worktree", async ({
  page,
  scriptedDesk,
}) => {
  const desk = await scriptedDesk({
    keep: [
      [say("Writing."), runCommand("call-1", "printf 'kept work\\n' > kept.txt", 10)],
      [say("Written.")],
    ],
  });
  makeRepository(desk.workspace);
  const { branch } = await worktreeChatThatRan(page, desk, "keep: this");
  const folder = worktreeOf(desk.workspace, branch) as string;
  await page.getByTestId("review-button").click();
  const review = page.getByTestId("review-view");
  await expect(review.locator('[data-testid="review-file"][data-path="kept.txt"]')).toHaveCount(1);
  await review.getByTestId("keep-branch-message").fill("Kept from the chat");
  await review.getByTestId("keep-branch-button").click();
  await expect(worktreeChat(page)).toHaveCount(0);
  expect(existsSync(folder)).toBe(false);
  expect(worktreeOf(desk.workspace, branch)).toBeUndefined();
  expect(git(desk.workspace, "show", `${branch}:kept.txt`)).toBe("kept work\n");
  expect(git(desk.workspace, "log", "-1", "--format=%s", branch).trim()).toBe("Kept from the chat");
  expect(existsSync(join(desk.workspace, "kept.txt"))).toBe(false);
});

test("Discard removes the worktree and its branch, after a confirmation naming what is lost", async ({
  page,
  scriptedDesk,
}) => {
  const desk = await scriptedDesk({
    drop: [[say("Writing."), runCommand("call-1", "printf 'lost\\n' > lost.txt", 10)], [say("Written.")]],
  });
  makeRepository(desk.workspace);
  const { branch } = await worktreeChatThatRan(page, desk, "drop: this");
  const folder = worktreeOf(desk.workspace, branch) as string;
  await page.getByTestId("review-button").click();
  const review = page.getByTestId("review-view");
  await expect(review.getByTestId("review-file")).toHaveCount(1);
  const asked: string[] = [];
  page.once("dialog", (dialog) => {
    asked.push(dialog.message());
    void dialog.accept();
  });
  await review.getByTestId("discard-worktree-button").click();
  await expect(worktreeChat(page)).toHaveCount(0);
  expect(asked[0]).toContain(branch);
  expect(asked[0]).toContain("1 uncommitted file");
  expect(existsSync(folder)).toBe(false);
  expect(git(desk.workspace, "branch", "--list", branch)).toBe("");
});

test("a worktree made outside Pi Desk is offered as a new chat's folder; a base that is not there is refused plainly", async ({
  page,
  scriptedDesk,
}) => {
  const desk = await scriptedDesk({});
  makeRepository(desk.workspace);
  const byHand = `${desk.workspace}-by-hand`;
  git(desk.workspace, "worktree", "add", "-q", "-b", "by-hand", byHand);
  try {
    await openDesk(page, desk);
    await page.getByTestId("new-chat-button").click();
    await page.getByTestId("new-chat-worktree-base").fill("no-such-base");
    await page.getByTestId("new-chat-worktree").click();
    await expect(page.getByTestId("chat-list").getByRole("alert")).toContainText(
      'The base "no-such-base" is not a commit, branch or tag',
    );
    await expect(worktreeChat(page)).toHaveCount(0);

    await page.getByTestId("new-chat-button").click();
    await page.locator(`[data-testid="open-worktree"][data-path="${byHand}"]`).click();
    await expect(worktreeChat(page)).toHaveCount(1);
    await expect(worktreeChat(page).getByTestId("chat-item-branch")).toContainText("by-hand");
    // Open in a chat now: no longer offered.
    await page.getByTestId("new-chat-button").click();
    await expect(page.getByTestId("new-chat-worktree")).toBeVisible();
    await expect(page.getByTestId("open-worktree")).toHaveCount(0);
  } finally {
    git(desk.workspace, "worktree", "remove", "--force", byHand);
  }
});

test("a workspace that is not a git repository offers new chats here only, and says why", async ({
  page,
  scriptedDesk,
}) => {
  const desk = await scriptedDesk({});
  await openDesk(page, desk);
  await page.getByTestId("new-chat-button").click();
  await expect(page.getByTestId("new-chat-here")).toBeVisible();
  await expect(page.getByTestId("chat-list")).toContainText("Not a git repository: chats start here.");
  await expect(page.getByTestId("new-chat-worktree")).toHaveCount(0);
});

test("Settings: new chats offered in a new worktree first, in a folder of the person's choosing; a folder inside the workspace is refused", async ({
  page,
  scriptedDesk,
}) => {
  const desk = await scriptedDesk({});
  makeRepository(desk.workspace);
  await openDesk(page, desk);
  await page.getByTestId("nav-settings").click();
  const form = page.getByTestId("worktree-settings");
  await form.getByTestId("worktree-folder").fill(join(desk.workspace, "trees"));
  await form.getByTestId("worktree-save").click();
  await expect(form.getByRole("alert")).toContainText("cannot be inside the workspace");
  const elsewhere = `${desk.workspace}-trees`;
  await form.getByTestId("worktree-folder").fill(elsewhere);
  await form.getByTestId("worktree-first").selectOption("worktree");
  await form.getByTestId("worktree-save").click();
  await expect(form.getByTestId("worktree-save")).toBeDisabled();
  await expect(form.getByRole("alert")).toHaveCount(0);

  await page.getByTestId("nav-chat").click();
  await page.getByTestId("new-chat-button").click();
  const choices = page.locator('[data-testid="new-chat-worktree"], [data-testid="new-chat-here"]');
  await expect(choices.first()).toHaveAttribute("data-testid", "new-chat-worktree");
  await choices.first().click();
  await expect(worktreeChat(page)).toHaveCount(1);
  expect(
    worktreeOf(
      desk.workspace,
      git(desk.workspace, "branch", "--list", "pi-desk/*")
        .trim()
        .replace(/^[*+ ]+/, ""),
    ),
  ).toMatch(new RegExp(`^${elsewhere}/`));
});
