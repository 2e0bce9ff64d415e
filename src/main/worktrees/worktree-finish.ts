import type { KeptBranch } from "../../shared/worktrees";
import { git, gitOk } from "./git-run";
import type { ChatWorktree } from "./worktree-create";

/** Who the commit is by when the person's git has no identity set (a fresh machine, a CI runner). */
const FALLBACK_IDENTITY = ["-c", "user.name=Pi Desk", "-c", "user.email=pi-desk@localhost"];

/** The message Keep the branch commits with when the person gives none. */
export const DEFAULT_KEEP_MESSAGE = "Work from a Pi Desk chat";

/**
 * Keep the branch, first half: what is not committed yet is committed on the chat's branch (the worktree is
 * removed after, once its chat is closed, and the branch kept for a pull request or to open again).
 */
export async function commitWork(worktree: ChatWorktree, message?: string): Promise<KeptBranch> {
  const { path } = worktree;
  // The commit goes where the worktree's HEAD points: only on the chat's own branch (a command may have
  // switched it to another, whose history the person did not mean to add to).
  const head = await git(path, ["symbolic-ref", "--quiet", "HEAD"]);
  if (head.stdout.trim() !== `refs/heads/${worktree.branch}`) {
    const on = head.stdout.trim().replace(/^refs\/heads\//, "") || "a detached HEAD";
    throw new Error(
      `The worktree is on ${on}, not on its branch ${worktree.branch}, so nothing was committed. ` +
        `Switch it back (git switch ${worktree.branch}) in the chat, then keep the branch.`,
    );
  }
  await gitOk(path, ["add", "--all", "--", "."], "Staging the chat's files");
  const staged = await git(path, ["diff", "--cached", "--quiet"]);
  const committed = staged.code === 1;
  if (committed) {
    const identity = (await git(path, ["config", "user.email"])).code === 0 ? [] : FALLBACK_IDENTITY;
    // --no-verify: this commit is made on the person's click, by the host, outside the sandbox; the
    // repository's hooks are code the agent may have written, and must not run unapproved here.
    await gitOk(
      path,
      [...identity, "commit", "--quiet", "--no-verify", "-m", message?.trim() || DEFAULT_KEEP_MESSAGE],
      "Committing the chat's work",
    );
  }
  const commit = (await gitOk(path, ["rev-parse", "HEAD"], "Reading the branch")).trim();
  return { branch: worktree.branch, commit, committed };
}

/** Discard: the worktree and its branch are removed, with everything in them (the page confirmed first). */
export async function discardWorktree(worktree: ChatWorktree): Promise<void> {
  await removeWorktree(worktree);
  const deleted = await git(worktree.workspace, ["branch", "-D", "--", worktree.branch]);
  if (deleted.code !== 0 && !/not found/.test(deleted.stderr)) {
    throw new Error(
      `The worktree was removed, but its branch "${worktree.branch}" was not: git said "${deleted.stderr.trim()}". ` +
        `Delete it with git branch -D ${worktree.branch}.`,
    );
  }
}

/** Removes the worktree's folder and git's record of it (--force: its files were committed or are to go). */
export async function removeWorktree(worktree: ChatWorktree): Promise<void> {
  await gitOk(
    worktree.workspace,
    ["worktree", "remove", "--force", "--", worktree.path],
    "Removing the worktree",
  );
}
