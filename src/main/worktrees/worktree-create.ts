import { createHash, randomBytes } from "node:crypto";
import { mkdirSync, realpathSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import type { WorktreeEntry } from "../../shared/worktrees";
import { git, gitOk } from "./git-run";

/** The prefix of every branch Pi Desk makes for a chat. */
export const BRANCH_PREFIX = "pi-desk/";

/** A worktree a chat works in. */
export interface ChatWorktree {
  /** Its folder (the chat's folder). */
  path: string;
  /** Its branch, without `refs/heads/`. */
  branch: string;
  /** The commit its work is measured against (where the branch started). */
  base: string;
  /** The workspace's checkout it belongs to (the main worktree). */
  workspace: string;
}

/** What making a worktree needs. */
export interface CreateWorktreeOptions {
  /** The workspace's folder: the top of a git repository's main checkout. */
  workspace: string;
  /** The folder worktrees go in (one folder per workspace below it). */
  worktreesRoot: string;
  /** The commit-ish to start from; absent: HEAD. */
  base?: string;
  /** The branch's short name; absent: one made up. */
  name?: string;
}

/**
 * Checks that the workspace is the top folder of a git repository with a commit, and returns HEAD's commit.
 * The errors say what to do: a worktree chat needs git, and the chat's folder maps onto the repository's top.
 */
export async function checkRepository(workspace: string): Promise<void> {
  const top = await git(workspace, ["rev-parse", "--show-toplevel"]);
  if (top.code !== 0) {
    throw new Error(
      `"${workspace}" is not a git repository, so a chat cannot have a worktree of its own there. ` +
        "Start the chat here instead, or make the folder a repository (git init, then a first commit).",
    );
  }
  if (realpathSync(top.stdout.trim()) !== realpathSync(workspace)) {
    throw new Error(
      `"${workspace}" is a folder inside the git repository "${top.stdout.trim()}", not its top. ` +
        "Open the repository's top folder as the workspace to start a chat in a worktree.",
    );
  }
}

/** The commit a commit-ish names, or an error saying it was not found. */
export async function resolveCommit(workspace: string, commitish: string): Promise<string> {
  const run = await git(workspace, [
    "rev-parse",
    "--verify",
    "--quiet",
    "--end-of-options",
    `${commitish}^{commit}`,
  ]);
  if (run.code !== 0) {
    throw new Error(
      commitish === "HEAD"
        ? `The repository "${workspace}" has no commit yet: make a first commit, then start a chat in a worktree.`
        : `The base "${commitish}" is not a commit, branch or tag of "${workspace}". Pick one that exists (git branch, git log).`,
    );
  }
  return run.stdout.trim();
}

/**
 * Makes a worktree on a new branch `pi-desk/<name>` from the base, in `<worktreesRoot>/<workspace>-<id>/<name>`:
 * outside the workspace, so the workspace's own tools, watchers and `git status` never see it.
 */
export async function createWorktree(options: CreateWorktreeOptions): Promise<ChatWorktree> {
  const { workspace } = options;
  await checkRepository(workspace);
  const base = await resolveCommit(workspace, options.base?.trim() || "HEAD");
  const name = options.name?.trim() || `chat-${randomBytes(4).toString("hex")}`;
  const branch = `${BRANCH_PREFIX}${name}`;
  const format = await git(workspace, ["check-ref-format", "--branch", branch]);
  if (format.code !== 0 || name.startsWith("-")) {
    throw new Error(
      `"${name}" cannot be a branch name. Use letters, digits, "-" and "_" (for example "fix-login").`,
    );
  }
  const exists = await git(workspace, ["show-ref", "--verify", "--quiet", `refs/heads/${branch}`]);
  if (exists.code === 0) {
    throw new Error(
      `The branch "${branch}" exists already in "${workspace}". Pick another name, or open its worktree from the list.`,
    );
  }
  const parent = worktreesFolderOf(workspace, options.worktreesRoot);
  mkdirSync(parent, { recursive: true, mode: 0o700 });
  const path = join(parent, name.replaceAll("/", "-"));
  await gitOk(
    workspace,
    ["worktree", "add", "--quiet", "-b", branch, "--", path, base],
    "Making the worktree",
  );
  return { path: realpathSync(path), branch, base, workspace };
}

/** Every worktree of the workspace's repository, the main checkout first (`git worktree list`). */
export async function listWorktrees(workspace: string): Promise<Omit<WorktreeEntry, "chatId">[]> {
  await checkRepository(workspace);
  const text = await gitOk(workspace, ["worktree", "list", "--porcelain", "-z"], "Listing the worktrees");
  const entries: Omit<WorktreeEntry, "chatId">[] = [];
  // Records are separated by an empty field; each field is "key value" or a bare key.
  let current: { path?: string; head?: string; branch?: string; bare?: boolean } = {};
  const flush = () => {
    if (current.path && !current.bare) {
      entries.push({
        path: current.path,
        head: current.head ?? "",
        ...(current.branch ? { branch: current.branch.replace(/^refs\/heads\//, "") } : {}),
        main: entries.length === 0,
      });
    }
    current = {};
  };
  for (const field of text.split("\0")) {
    if (field === "") {
      flush();
      continue;
    }
    const space = field.indexOf(" ");
    const key = space < 0 ? field : field.slice(0, space);
    const value = space < 0 ? "" : field.slice(space + 1);
    if (key === "worktree") current.path = value;
    else if (key === "HEAD") current.head = value;
    else if (key === "branch") current.branch = value;
    else if (key === "bare") current.bare = true;
  }
  flush();
  return entries;
}

/**
 * An existing worktree of the workspace's repository (one made outside Pi Desk too), to open as a chat's
 * folder; its base is where its HEAD and the workspace's HEAD meet, unless the caller knows better.
 */
export async function existingWorktree(workspace: string, path: string): Promise<ChatWorktree> {
  const wanted = realOrSelf(path);
  const entry = (await listWorktrees(workspace)).find((tree) => realOrSelf(tree.path) === wanted);
  if (!entry) {
    throw new Error(
      `"${path}" is not a worktree of "${workspace}". Pick one that git worktree list shows for this repository.`,
    );
  }
  if (entry.main) {
    throw new Error(`"${path}" is the workspace's own checkout: start a chat "here" to work in it.`);
  }
  if (!entry.branch) {
    throw new Error(
      `The worktree "${path}" has no branch (its HEAD is detached), so its work could not be kept. ` +
        "Check out a branch in it (git switch -c <name>), then open it.",
    );
  }
  const meet = await git(workspace, ["merge-base", entry.head, "HEAD"]);
  const base = meet.code === 0 ? meet.stdout.trim() : entry.head;
  return { path: wanted, branch: entry.branch, base, workspace };
}

/** The folder one workspace's worktrees go in, below the worktrees folder. */
export function worktreesFolderOf(workspace: string, worktreesRoot: string): string {
  return join(resolve(worktreesRoot), workspaceFolderName(workspace));
}

/** The folder one workspace's worktrees share: its name and a short hash of its path (two "app"s differ). */
function workspaceFolderName(workspace: string): string {
  const hash = createHash("sha256").update(resolve(workspace)).digest("hex").slice(0, 8);
  return `${basename(resolve(workspace)) || "workspace"}-${hash}`;
}

function realOrSelf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}
