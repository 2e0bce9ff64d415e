import { access, glob } from "node:fs/promises";
import { dirname, isAbsolute, join, resolve } from "node:path";
import { createFindToolDefinition, type FindOperations } from "@earendil-works/pi-coding-agent";
import { errorMessage } from "../../base/errors";
import { isInside } from "../../base/paths";
import { HiddenFolders } from "./hidden-folders";
import { localProgram } from "./local-program";
import { realExisting } from "./pi-paths";
import { runFd } from "./run-fd";

/**
 * Pi's errors when fd cannot do the search: none installed, or one before 8.7 (Debian 12, Ubuntu 22.04)
 * refusing the `--no-require-git` passed outside a git repository.
 */
const FD_UNUSABLE = /fd is not installed|--no-require-git' which wasn't expected/;

/** Folders Pi's own non-fd search skips too. */
export const SKIPPED = /(^|\/)(node_modules|\.git)$/;

/**
 * Pi's `find` tool, searching through operations of Pi Desk's own, for two reasons. Pi runs fd with
 * `--hidden` and no way to add arguments, so `find` listed Pi Desk's data folder where it lay inside the
 * workspace: here fd gets an `--exclude` per hidden folder below the path asked. And without fd, or with
 * fd before 8.7 outside a git repository (which refuses the `--no-require-git` Pi passes there so
 * .gitignore files still count), every search failed: only then does the search run on Node's glob
 * instead, where a bare name matches at any depth as with fd, node_modules and .git are skipped as in Pi's
 * own glob path, but matching is case-sensitive and dot-folders are not searched.
 */
export function createDeskFindTool(
  cwd: string,
  hidden: HiddenFolders = new HiddenFolders([]),
): ReturnType<typeof createFindToolDefinition> {
  const operations: FindOperations = {
    exists: (path) =>
      access(path).then(
        () => true,
        () => false,
      ),
    async glob(pattern, searchPath, { limit }) {
      try {
        return await fdGlob(pattern, searchPath, limit, hidden);
      } catch (error) {
        if (!FD_UNUSABLE.test(errorMessage(error))) throw error;
        return nodeGlob(pattern, searchPath, limit, hidden);
      }
    },
  };
  return createFindToolDefinition(cwd, { operations });
}

/** Pi 1.6's fd search (its arguments, outside Windows), with the hidden folders below `searchPath` excluded. */
async function fdGlob(
  pattern: string,
  searchPath: string,
  limit: number,
  hidden: HiddenFolders,
): Promise<string[]> {
  const fd = localProgram(["fd", "fdfind"]);
  if (!fd) throw new Error("fd is not installed");
  const args = ["--color=never", "--hidden"];
  if (!(await insideGitRepository(searchPath))) args.push("--no-require-git");
  let effective = pattern.replace(/^(?:\.\/)+/, "");
  const isPathPattern = effective.includes("/");
  args.push("--glob", "--max-results", String(limit));
  if (isPathPattern) args.push("--full-path");
  if (isPathPattern && !isAbsolute(effective)) {
    const escapedRoot = searchPath.replace(/\/+$/, "").replace(/[\\*?[\]{}]/g, "\\$&");
    effective = `${escapedRoot}/${effective}`;
    if (pattern === pattern.toLowerCase()) args.push("--ignore-case");
  }
  for (const folder of hidden.globsUnder(searchPath)) args.push("--exclude", folder);
  args.push("--", effective, searchPath);
  return runFd(fd, args);
}

/** Whether `path` or a folder above it holds `.git` (where Pi lets fd read .gitignore without a flag). */
export async function insideGitRepository(path: string): Promise<boolean> {
  for (let current = path; ; current = dirname(current)) {
    const isRepo = await access(join(current, ".git")).then(
      () => true,
      () => false,
    );
    if (isRepo) return true;
    if (dirname(current) === current) return false;
  }
}

/** The same search on Node's glob, for where fd is missing or too old. */
async function nodeGlob(
  pattern: string,
  cwd: string,
  limit: number,
  hidden: HiddenFolders,
): Promise<string[]> {
  // fd matches a pattern without a slash against names at any depth; a path pattern is anchored at `cwd`.
  const anchored = pattern.replace(/^(?:\.\/)+/, "");
  const full = anchored.includes("/") || isAbsolute(anchored) ? anchored : `**/${anchored}`;
  const found: string[] = [];
  const entries = glob(full, {
    cwd,
    exclude: (entry: unknown) => {
      const name = typeof entry === "string" ? entry : String((entry as { name?: string }).name);
      return SKIPPED.test(name) || hidden.contains(realExisting(resolve(cwd, name)));
    },
  });
  for await (const entry of entries) {
    const path = resolve(cwd, entry);
    // fd searches only below `cwd`, whatever the pattern; an absolute pattern must not reach past it here.
    if (!isInside(cwd, path)) continue;
    // Node's glob may follow a symlink into a hidden folder: judged by where the entry really is.
    if (hidden.contains(realExisting(path))) continue;
    found.push(entry);
    if (found.length >= limit) break;
  }
  return found;
}
