import type { BringConflictReason, BringResult } from "../../shared/worktrees";
import { git, gitOk } from "./git-run";
import type { ChatWorktree } from "./worktree-create";
import { snapshotTree } from "./worktree-review";

/** What `git apply --check` says about a file that does not fit, by the reason the page names. */
const CONFLICT_LINES: [RegExp, BringConflictReason][] = [
  [/^error: (.+): patch does not apply$/, "changed-in-workspace"],
  [/^error: (.+): already exists in working directory$/, "exists-in-workspace"],
  [/^error: (.+): does not exist in working directory$/, "missing-in-workspace"],
  [/^error: (.+): does not match index$/, "changed-in-workspace"],
];

/**
 * Brings a worktree chat's whole change (commits on its branch and uncommitted files, against its base) into
 * the workspace's checkout as uncommitted changes, all or nothing.
 *
 * git does the work: `git diff --binary -M` writes the change with renames, deletions and binary files byte
 * for byte, and `git apply` checks every file against what is on disk before it writes any (it is atomic
 * without `--reject`). `--check` first, to list every file that does not fit: the person's own edit there,
 * a file in the way, a file gone. `--3way` is not used: it would leave conflict markers in the person's
 * files, and the rule here is that nothing of theirs is ever touched when the change does not fit.
 */
export async function bringIntoWorkspace(worktree: ChatWorktree): Promise<BringResult> {
  const tree = await snapshotTree(worktree);
  const patch = await gitOk(
    worktree.path,
    ["diff", "--binary", "-M", "--no-color", "--no-ext-diff", "--no-textconv", worktree.base, tree],
    "Writing the chat's change",
  );
  if (patch.trim() === "") return { applied: true, files: [] };
  const files = await changedPaths(worktree, tree);
  const check = await git(
    worktree.workspace,
    ["-c", "core.quotePath=false", "apply", "--check", "--binary", "-"],
    { input: patch },
  );
  if (check.code !== 0) {
    const conflicts = parseConflicts(check.stderr, new Set(files));
    return conflicts.length > 0
      ? { applied: false, conflicts }
      : { applied: false, conflicts: [], detail: check.stderr.trim().slice(0, 2000) };
  }
  await gitOk(worktree.workspace, ["apply", "--binary", "-"], "Applying the change to the workspace", {
    input: patch,
  });
  return { applied: true, files };
}

/** The paths the change touches (both sides of a rename). */
async function changedPaths(worktree: ChatWorktree, tree: string): Promise<string[]> {
  const text = await gitOk(
    worktree.path,
    ["diff", "--name-only", "--no-renames", "-z", worktree.base, tree],
    "Listing the changed files",
  );
  return text.split("\0").filter(Boolean);
}

/** Each file git named as not fitting, once, in git's order; only paths of the change (git's words are parsed). */
function parseConflicts(
  stderr: string,
  known: ReadonlySet<string>,
): { path: string; reason: BringConflictReason }[] {
  const found = new Map<string, BringConflictReason>();
  for (const line of stderr.split("\n")) {
    for (const [pattern, reason] of CONFLICT_LINES) {
      const path = pattern.exec(line.trim())?.[1];
      if (path && known.has(path) && !found.has(path)) found.set(path, reason);
    }
  }
  return [...found].map(([path, reason]) => ({ path, reason }));
}
