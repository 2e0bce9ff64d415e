import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { isInside } from "../base/paths";
import { git } from "./git-run";
import { BRANCH_PREFIX, listWorktrees, worktreesFolderOf } from "./worktree-create";

/** How many finished chats' worktrees stay, and for how long, before cleanup removes the clean ones. */
export interface CleanupPolicy {
  /** The newest this many stay whatever their age. */
  keep: number;
  /** Older than this (ms since their last change) they may go. */
  olderThanMs: number;
}

/** The default: the five newest stay, the others go after a week, when they hold nothing to lose. */
export const DEFAULT_CLEANUP: CleanupPolicy = { keep: 5, olderThanMs: 7 * 24 * 3600_000 };

/** What cleanup did with each worktree it looked at. */
export interface CleanupOutcome {
  /** Removed (their branch too when it held nothing the workspace's HEAD does not). */
  removed: { path: string; branch: string; branchDeleted: boolean }[];
  /** Left for the person to decide, with why. */
  kept: { path: string; branch: string; reason: "uncommitted" | "recent" | "unreadable" }[];
}

/**
 * Removes the worktrees Pi Desk made for finished chats (in its worktrees folder, on a `pi-desk/` branch, open
 * in no chat) past the policy's count and age, and only those that hold nothing uncommitted (untracked files
 * count). A worktree is on a branch, so its commits stay on it; the branch goes too only when the workspace's
 * HEAD holds every commit of it (an untouched or merged branch). Worktrees made elsewhere are never touched.
 */
export async function cleanupWorktrees(options: {
  workspace: string;
  worktreesRoot: string;
  openPaths: ReadonlySet<string>;
  policy?: CleanupPolicy;
  now?: number;
}): Promise<CleanupOutcome> {
  const policy = options.policy ?? DEFAULT_CLEANUP;
  const now = options.now ?? Date.now();
  const ours = worktreesFolderOf(options.workspace, options.worktreesRoot);
  const candidates = (await listWorktrees(options.workspace))
    .filter(
      (entry) =>
        !entry.main &&
        entry.branch?.startsWith(BRANCH_PREFIX) &&
        isInside(ours, entry.path) &&
        !options.openPaths.has(entry.path),
    )
    .map((entry) => ({ path: entry.path, branch: entry.branch as string, changed: lastChange(entry.path) }))
    .sort((a, b) => b.changed - a.changed);
  const outcome: CleanupOutcome = { removed: [], kept: [] };
  for (const [index, tree] of candidates.entries()) {
    if (index < policy.keep || now - tree.changed < policy.olderThanMs) {
      outcome.kept.push({ path: tree.path, branch: tree.branch, reason: "recent" });
      continue;
    }
    const status = await git(tree.path, ["status", "--porcelain", "--untracked-files=all"]);
    if (status.code !== 0 || status.stdout.trim() !== "") {
      const reason = status.code !== 0 ? "unreadable" : "uncommitted";
      outcome.kept.push({ path: tree.path, branch: tree.branch, reason });
      continue;
    }
    const removed = await git(options.workspace, ["worktree", "remove", "--", tree.path]);
    if (removed.code !== 0) {
      outcome.kept.push({ path: tree.path, branch: tree.branch, reason: "unreadable" });
      continue;
    }
    const merged = await git(options.workspace, ["merge-base", "--is-ancestor", tree.branch, "HEAD"]);
    const branchDeleted =
      merged.code === 0 && (await git(options.workspace, ["branch", "-D", "--", tree.branch])).code === 0;
    outcome.removed.push({ path: tree.path, branch: tree.branch, branchDeleted });
  }
  return outcome;
}

/**
 * When a worktree last changed, as far as cheap looks tell: its folder, and its index and HEAD's log in git's
 * folder for it (a commit, a `git add`, a checkout). A file edited since shows in `git status`, which keeps it.
 */
function lastChange(path: string): number {
  let gitDir: string | undefined;
  try {
    gitDir = /^gitdir: (.+)$/m.exec(readFileSync(join(path, ".git"), "utf8"))?.[1]?.trim();
  } catch {}
  const looks = [path, ...(gitDir ? [join(gitDir, "index"), join(gitDir, "logs", "HEAD")] : [])];
  let newest = 0;
  for (const file of looks) {
    try {
      newest = Math.max(newest, statSync(file).mtimeMs);
    } catch {}
  }
  return newest;
}
