import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, isAbsolute, join, resolve } from "node:path";
import type { ChatWorktree } from "./worktree-create";

/** Where a worktree's git keeps its state: its own folder in the repository's `.git`, and that `.git`. */
export interface WorktreeGitDirs {
  /** `<repository>/.git/worktrees/<name>`: its index, HEAD, logs. */
  gitDir: string;
  /** `<repository>/.git`: objects, refs, config, hooks, shared by every worktree. */
  commonDir: string;
}

/** Reads where the worktree's git state is, from its `.git` file and the `commondir` beside it (no git run). */
export function worktreeGitDirs(worktree: ChatWorktree): WorktreeGitDirs {
  const pointer = readFileSync(join(worktree.path, ".git"), "utf8").trim();
  const named = /^gitdir: (.+)$/.exec(pointer)?.[1];
  if (!named) throw new Error(`"${worktree.path}/.git" does not name its git folder: is it a worktree?`);
  const gitDir = isAbsolute(named) ? named : resolve(worktree.path, named);
  const common = readFileSync(join(gitDir, "commondir"), "utf8").trim();
  return { gitDir, commonDir: isAbsolute(common) ? common : resolve(gitDir, common) };
}

/**
 * What a worktree chat's sandboxed commands may write besides the worktree, so `git add` and `git commit` work
 * there, and what stays read-only. Writable: its own git folder, new objects, its branch's ref folder and its
 * reflog. Read-only: the rest of `.git` (hooks and config, which git runs later outside the sandbox; other
 * branches), and inside the writable parts, what would let a command steer the host's own git runs in the
 * worktree: `commondir` and `gitdir` (which repository it is), `config.worktree` (a worktree's own config,
 * which can name programs). Other branches' refs beside its own are bound read-only file by file: git writes a
 * ref by renaming a lock file onto it, which a read-only mount refuses.
 * Read at each command: branches made since are covered.
 */
export function worktreeSandboxPaths(
  worktree: ChatWorktree,
  dirs: WorktreeGitDirs,
): { readOnlyPaths: string[]; writablePaths: string[] } {
  const { gitDir, commonDir } = dirs;
  const ref = join(commonDir, "refs", "heads", ...worktree.branch.split("/"));
  const refFolder = dirname(ref);
  const config = join(gitDir, "config.worktree");
  // An empty one, so there is a file to bind read-only: one made later would be read by git in the worktree.
  if (!existsSync(config)) writeFileSync(config, "");
  const others = listEntries(refFolder).filter((path) => path !== ref);
  const reflog = join(commonDir, "logs", "refs", "heads", ...worktree.branch.split("/"));
  return {
    readOnlyPaths: [commonDir, join(gitDir, "commondir"), join(gitDir, "gitdir"), config, ...others],
    writablePaths: [gitDir, join(commonDir, "objects"), refFolder, ...(existsSync(reflog) ? [reflog] : [])],
  };
}

/** The entries of a folder, as paths (none when it is gone). */
function listEntries(folder: string): string[] {
  try {
    return readdirSync(folder).map((name) => join(folder, name));
  } catch {
    return [];
  }
}
