import { copyFile, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { isAbsolute, join } from "node:path";
import type { ReviewFile, ReviewFileStatus, WorktreeReview } from "../../shared/worktrees";
import { gitOk } from "./git-run";
import type { ChatWorktree } from "./worktree-create";

/** The most of one file's diff a review carries; the rest is left out (`truncated`). */
const MAX_DIFF_CHARS = 200_000;
/** The most files a review shows a diff for; past it files are listed without one. */
const MAX_DIFFED_FILES = 300;

/**
 * The tree of everything in the worktree now, committed or not (ignored files left out, as git would).
 * Built in a temporary index (a copy of the worktree's, so unchanged files are not read again): the
 * worktree's own index, what the person or the agent staged, is never touched. git rather than a walk of
 * our own: it knows .gitignore, modes, symlinks and renames already, and the tree is what `git diff` and
 * `git apply` take.
 */
export async function snapshotTree(worktree: ChatWorktree): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "pi-desk-review-"));
  try {
    const indexPath = (
      await gitOk(worktree.path, ["rev-parse", "--git-path", "index"], "Finding the index")
    ).trim();
    const index = join(dir, "index");
    await copyFile(isAbsolute(indexPath) ? indexPath : join(worktree.path, indexPath), index).catch(() => {});
    const env = { GIT_INDEX_FILE: index };
    await gitOk(worktree.path, ["add", "--all", "--", "."], "Reading the worktree's files", { env });
    return (await gitOk(worktree.path, ["write-tree"], "Reading the worktree's files", { env })).trim();
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Everything the chat changed against its base, file by file with the diff. */
export async function reviewWorktree(worktree: ChatWorktree): Promise<WorktreeReview> {
  const tree = await snapshotTree(worktree);
  const { path, base, branch } = worktree;
  const [nameStatus, numstat, log, status] = await Promise.all([
    gitOk(path, ["diff", "--name-status", "-M", "-z", base, tree], "Listing the changed files"),
    gitOk(path, ["diff", "--numstat", "-M", "-z", base, tree], "Counting the changed lines"),
    gitOk(path, ["log", "-z", "--format=%H %s", `${base}..HEAD`], "Listing the branch's commits"),
    gitOk(path, ["status", "--porcelain", "-z", "--untracked-files=all"], "Reading the worktree's status"),
  ]);
  const counts = parseNumstat(numstat);
  const files = parseNameStatus(nameStatus).map((file) => {
    const count = counts.get(file.path);
    return {
      ...file,
      binary: count?.binary ?? false,
      added: count?.added ?? 0,
      removed: count?.removed ?? 0,
    };
  });
  const diffed: ReviewFile[] = [];
  for (const [index, file] of files.entries()) {
    let diff = "";
    if (!file.binary && index < MAX_DIFFED_FILES) {
      const paths = file.oldPath ? [file.oldPath, file.path] : [file.path];
      diff = await gitOk(
        path,
        ["diff", "--no-ext-diff", "--no-textconv", "-M", base, tree, "--", ...paths],
        `Diffing ${file.path}`,
      );
    }
    const truncated = diff.length > MAX_DIFF_CHARS || (!file.binary && index >= MAX_DIFFED_FILES);
    diffed.push({ ...file, diff: diff.slice(0, MAX_DIFF_CHARS), truncated });
  }
  const commits = log
    .split("\0")
    .filter(Boolean)
    .map((line) => ({ sha: line.slice(0, line.indexOf(" ")), subject: line.slice(line.indexOf(" ") + 1) }));
  return { branch, base, path, commits, uncommitted: countStatus(status), files: diffed };
}

const STATUS: Record<string, ReviewFileStatus> = {
  A: "added",
  M: "modified",
  D: "deleted",
  R: "renamed",
  C: "copied",
  T: "type-changed",
};

type Listed = Pick<ReviewFile, "path" | "oldPath" | "status">;

/** `git diff --name-status -z`: a status field, then one path (two for a rename or copy). */
function parseNameStatus(text: string): Listed[] {
  const fields = text.split("\0");
  const files: Listed[] = [];
  for (let i = 0; i < fields.length; ) {
    const code = fields[i++] ?? "";
    if (!code) continue;
    const status = STATUS[code[0] ?? ""] ?? "modified";
    if (status === "renamed" || status === "copied") {
      const oldPath = fields[i++] ?? "";
      files.push({ path: fields[i++] ?? "", oldPath, status });
    } else {
      files.push({ path: fields[i++] ?? "", status });
    }
  }
  return files;
}

/** `git diff --numstat -z`: "added<TAB>removed<TAB>path", or for a rename an empty path then old and new. */
function parseNumstat(text: string): Map<string, { added: number; removed: number; binary: boolean }> {
  const fields = text.split("\0");
  const counts = new Map<string, { added: number; removed: number; binary: boolean }>();
  for (let i = 0; i < fields.length; ) {
    const field = fields[i++] ?? "";
    if (!field) continue;
    const [added = "", removed = "", ...rest] = field.split("\t");
    let path = rest.join("\t");
    if (path === "") {
      i++; // the old path
      path = fields[i++] ?? "";
    }
    const binary = added === "-" && removed === "-";
    counts.set(path, { added: binary ? 0 : Number(added), removed: binary ? 0 : Number(removed), binary });
  }
  return counts;
}

/** How many entries `git status --porcelain -z` lists (a rename's second path is not one of its own). */
function countStatus(text: string): number {
  const fields = text.split("\0");
  let count = 0;
  for (let i = 0; i < fields.length; i++) {
    const field = fields[i] ?? "";
    if (!field) continue;
    count++;
    if (field[0] === "R" || field[0] === "C") i++;
  }
  return count;
}
