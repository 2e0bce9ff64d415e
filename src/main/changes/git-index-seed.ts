import { execFile } from "node:child_process";
import type { Stats } from "node:fs";
import { join } from "node:path";
import { type GitIndex, readGitIndex } from "./git-index";
import { racyWindow } from "./racy-times";
import { emptyFolder, type FolderNode, SEEDED_STAT_MODE, storedNode } from "./scan-nodes";
import { SYMLINK_MODE } from "./workspace-files";

/** The git checkout a workspace is, for its first snapshot (see `seedFromGitIndex`). */
export interface GitCheckout {
  /** The checkout's own git folder: its index is `<gitDir>/index` (a worktree's `.git/worktrees/<name>`). */
  gitDir: string;
  /** The repository's shared git folder (objects, config): the records borrow `<commonDir>/objects`. */
  commonDir: string;
}

/** The id of git's empty blob. */
const EMPTY_BLOB = "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391";

/** Attributes under which the bytes git wrote at checkout may differ from the blob (line endings, filters). */
const CONVERTING_ATTRIBUTES = ["text", "eol", "crlf", "filter", "ident", "working-tree-encoding"];

/**
 * A folder tree to seed a checkout's first scan with, from git's index: each file git wrote with the stat
 * data git took of it and git's blob id, so the scan takes a file whose stat data still matches as that
 * blob without reading and hashing it (git just wrote it from that blob). Undefined when git's index
 * cannot vouch for the bytes on disk: it is missing or unreadable, `core.autocrlf` converts line endings
 * at checkout, or the repository is not SHA-1.
 *
 * Left out (hashed as before): entries git itself would not trust by stat (conflicts, assume-valid,
 * skip-worktree, intent-to-add, those git "smudged" to size 0), submodules, paths whose attributes convert
 * content at checkout (`text`, `eol`, a `filter` such as git-lfs: the blob then is not the bytes), and racy
 * entries, written as late as the index itself (git's "racily clean" rule, widened to the engine's window of racy-times.ts): a
 * second write in the same timestamp tick would leave their stat data unchanged.
 *
 * The index is trusted as git trusts it: only for a scan with no stat cache of its own (a new worktree).
 */
export async function seedFromGitIndex(
  workspace: string,
  checkout: GitCheckout,
  gitBinary = "git",
): Promise<{ root: FolderNode; files: number } | undefined> {
  const config = gitText(gitBinary, workspace, [
    "config",
    "-z",
    "--get-regexp",
    "^(core\\.autocrlf|extensions\\.objectformat)$",
  ]);
  const index = await readGitIndex(join(checkout.gitDir, "index"));
  if (!index) return undefined;
  // Both git processes at once: on a busy machine each costs tens of ms before it does anything.
  const [said, converted] = await Promise.all([config, convertedPaths(gitBinary, workspace, index)]);
  if (said === undefined || !conversionFree(said) || !converted) return undefined;
  const root = emptyFolder();
  let files = 0;
  for (const entry of index.entries) {
    if (entry.special || entry.mode === "160000" || converted.has(entry.path)) continue;
    // Size 0 with content: an entry git "smudged" when it found it racy (git treats it as changed too).
    if (entry.size === 0 && entry.oid !== EMPTY_BLOB) continue;
    // A name that is not UTF-8 reads lossily here and in `git check-attr`'s answer: not vouched for.
    if (entry.path.includes("\uFFFD")) continue;
    const names = entry.path.split("/");
    let folder = root;
    for (const name of names.slice(0, -1)) {
      let next = folder.children.get(name);
      if (next?.type !== "folder") {
        next = emptyFolder(SEEDED_FOLDER_INO);
        folder.children.set(name, next);
      }
      folder = next;
    }
    const racy = Math.max(entry.mtimeMs, entry.ctimeMs) >= index.mtimeMs - racyWindow(entry.mtimeMs);
    const stat = { size: entry.size, mtimeMs: entry.mtimeMs, ctimeMs: entry.ctimeMs, ino: entry.ino };
    const node = storedNode(entry.mode, entry.oid, { ...stat, statMode: SEEDED_STAT_MODE }, racy);
    folder.children.set(names[names.length - 1] as string, node);
    files++;
  }
  return { root, files };
}

/** A folder of the seed: its inode is not known, and the scan adopts it whatever the inode it finds. */
export const SEEDED_FOLDER_INO = -2;

/**
 * Whether a seeded entry's stat data matches `stat`: git keeps the low 32 bits of the inode and size and the
 * kind of file, not `st_mode`, so those are compared as git compares them.
 */
export function seededMatch(
  entry: { mode: string; size: number; mtimeMs: number; ctimeMs: number; ino: number },
  stat: Stats,
): boolean {
  const kindMatches =
    entry.mode === SYMLINK_MODE
      ? stat.isSymbolicLink()
      : stat.isFile() && (entry.mode === "100755") === ((stat.mode & 0o100) !== 0);
  return (
    kindMatches &&
    entry.size === stat.size % 2 ** 32 &&
    entry.mtimeMs === stat.mtimeMs &&
    entry.ctimeMs === stat.ctimeMs &&
    entry.ino === stat.ino % 2 ** 32
  );
}

/** No checkout-wide conversion (`core.autocrlf` true) and SHA-1 objects, from `git config -z --get-regexp`. */
function conversionFree(config: string): boolean {
  for (const item of config.split("\0")) {
    const [key, value = ""] = item.split("\n");
    if (key === "core.autocrlf" && value.toLowerCase() !== "false" && value.toLowerCase() !== "input")
      return false;
    if (key === "extensions.objectformat" && value.toLowerCase() !== "sha1") return false;
  }
  return true;
}

/**
 * The paths whose attributes convert content at checkout, from one `git check-attr` over all of them (the
 * workspace's, the repository's and the person's attribute files as git reads them); undefined when git fails.
 */
async function convertedPaths(
  gitBinary: string,
  workspace: string,
  index: GitIndex,
): Promise<Set<string> | undefined> {
  const input = `${index.entries.map((entry) => entry.path).join("\0")}\0`;
  const out = await gitText(
    gitBinary,
    workspace,
    ["check-attr", "-z", "--stdin", ...CONVERTING_ATTRIBUTES],
    input,
  );
  if (out === undefined) return undefined;
  const converted = new Set<string>();
  const fields = out.split("\0");
  // Triples: path, attribute, value ("unspecified", "unset", "set" or a value).
  for (let i = 0; i + 2 < fields.length; i += 3) {
    const value = fields[i + 2];
    if (value !== "unspecified" && value !== "unset") converted.add(fields[i] as string);
  }
  return converted;
}

/**
 * Runs the workspace's own git (its config is what decides checkout's conversions) read-only; its stdout,
 * or undefined when it fails. `git config --get-regexp` with nothing found exits 1: that is "".
 */
function gitText(
  gitBinary: string,
  cwd: string,
  args: string[],
  input?: string,
): Promise<string | undefined> {
  return new Promise((resolve) => {
    const child = execFile(
      gitBinary,
      ["-c", "core.fsmonitor=false", "-c", "core.hooksPath=/dev/null", ...args],
      {
        cwd,
        encoding: "utf8",
        maxBuffer: 512 * 1024 * 1024,
        timeout: 60_000,
        env: gitEnv(),
        windowsHide: true,
      },
      (error, stdout) => {
        if (!error) return resolve(stdout);
        resolve(args[0] === "config" && (error as { code?: unknown }).code === 1 ? "" : undefined);
      },
    );
    child.stdin?.on("error", () => {});
    child.stdin?.end(input ?? "");
  });
}

/** The host's environment without what would point git at another repository or index than the workspace's. */
function gitEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, GIT_OPTIONAL_LOCKS: "0", LC_ALL: "C" };
  for (const name of ["GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_COMMON_DIR", "GIT_OBJECT_DIRECTORY"])
    delete env[name];
  return env;
}
