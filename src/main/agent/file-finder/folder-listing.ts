import { glob } from "node:fs/promises";
import { resolve } from "node:path";
import { insideGitRepository, SKIPPED } from "../read-tools/find-tool";
import type { HiddenFolders } from "../read-tools/hidden-folders";
import { localProgram } from "../read-tools/local-program";
import { realExisting } from "../read-tools/pi-paths";
import { runFd } from "../read-tools/run-fd";

/** A folder's files and the folders holding them, relative to it (a folder's path ends in "/"). */
export interface FolderListing {
  paths: string[];
  /** Whether the walk stopped at the cap. */
  capped: boolean;
}

/**
 * Every file below `root` that Pi's `find` would list (fd, as Pi runs it: hidden files in, .gitignore
 * honoured, `.git` and Pi Desk's hidden folders out), or Node's glob where fd is missing, as the find
 * tool falls back; then each folder on the way to a file, so `@src/` can be picked too.
 */
export async function listFolder(root: string, hidden: HiddenFolders, cap: number): Promise<FolderListing> {
  const fd = localProgram(["fd", "fdfind"]);
  const files = fd ? await fdFiles(fd, root, hidden, cap + 1) : await globFiles(root, hidden, cap + 1);
  const capped = files.length > cap;
  if (capped) files.length = cap;
  return { paths: withFolders(files), capped };
}

/**
 * fd's listing of the files below `root`, relative to it, at most `limit`. Outside a git repository fd
 * needs `--no-require-git` to honour .gitignore files; an fd before 8.7 (Debian 12) refuses the flag, and
 * then lists without it.
 */
async function fdFiles(fd: string, root: string, hidden: HiddenFolders, limit: number): Promise<string[]> {
  const args = ["--type", "f", "--hidden", "--color=never", "--exclude", ".git"];
  for (const folder of hidden.globsUnder(root)) args.push("--exclude", folder);
  args.push("--max-results", String(limit), "--base-directory", root);
  if (await insideGitRepository(root)) return withoutDot(await runFd(fd, args));
  const lines = await runFd(fd, ["--no-require-git", ...args]).catch((error: Error) => {
    if (!error.message.includes("--no-require-git")) throw error;
    return runFd(fd, args);
  });
  return withoutDot(lines);
}

/** fd's lines without the `./` some versions put before a relative path. */
const withoutDot = (lines: string[]) => lines.map((line) => (line.startsWith("./") ? line.slice(2) : line));

/** The same on Node's glob (no .gitignore; node_modules and .git skipped, as Pi's own glob path does). */
async function globFiles(root: string, hidden: HiddenFolders, limit: number): Promise<string[]> {
  const found: string[] = [];
  const entries = glob("**", {
    cwd: root,
    withFileTypes: true,
    exclude: (entry) =>
      SKIPPED.test(entry.name) || hidden.contains(realExisting(resolve(entry.parentPath, entry.name))),
  });
  for await (const entry of entries) {
    if (!entry.isFile()) continue;
    found.push(resolve(entry.parentPath, entry.name).slice(root.length + 1));
    if (found.length >= limit) break;
  }
  return found;
}

/** The files, each preceded by the folders on its way not listed yet. */
function withFolders(files: readonly string[]): string[] {
  const seen = new Set<string>();
  const paths: string[] = [];
  for (const file of files) {
    const folders: string[] = [];
    for (let end = file.lastIndexOf("/"); end > 0; end = file.lastIndexOf("/", end - 1)) {
      const folder = file.slice(0, end + 1);
      if (seen.has(folder)) break;
      seen.add(folder);
      folders.push(folder);
    }
    paths.push(...folders.reverse(), file);
  }
  return paths;
}
