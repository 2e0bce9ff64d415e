import { access, glob } from "node:fs/promises";
import { isAbsolute, resolve } from "node:path";
import { createFindToolDefinition, defineTool, type FindOperations } from "@earendil-works/pi-coding-agent";
import { errorMessage } from "../../base/errors";
import { isInside } from "../../base/paths";

/**
 * Pi's errors when fd cannot do the search: none installed and none downloadable (offline), or one before
 * 8.7 (Debian 12, Ubuntu 22.04) refusing the `--no-require-git` Pi passes outside a git repository.
 */
const FD_UNUSABLE = /fd is not available|--no-require-git' which wasn't expected/;

/** Folders Pi's own non-fd search skips too. */
const SKIPPED = /(^|\/)(node_modules|\.git)$/;

/**
 * Pi's `find` tool, with a way around a missing or too old fd. Without fd (and offline) every search
 * failed; with fd before 8.7 every search outside a git repository did, where Pi passes fd
 * `--no-require-git` (so .gitignore files still count there). Only then does the same search run on
 * Node's glob instead: a bare name matches at any depth as with fd, node_modules and .git are skipped as
 * in Pi's own glob path, but matching is case-sensitive and dot-folders are not searched.
 */
export function createDeskFindTool(cwd: string): ReturnType<typeof createFindToolDefinition> {
  const withFd = createFindToolDefinition(cwd);
  const withGlob = createFindToolDefinition(cwd, { operations: globOperations });
  return defineTool({
    ...withFd,
    async execute(toolCallId, params, signal, onUpdate, ctx) {
      try {
        return await withFd.execute(toolCallId, params, signal, onUpdate, ctx);
      } catch (error) {
        if (!FD_UNUSABLE.test(errorMessage(error))) throw error;
        return withGlob.execute(toolCallId, params, signal, onUpdate, ctx);
      }
    },
  });
}

const globOperations: FindOperations = {
  exists: (path) =>
    access(path).then(
      () => true,
      () => false,
    ),
  async glob(pattern, cwd, { limit }) {
    // fd matches a pattern without a slash against names at any depth; a path pattern is anchored at `cwd`.
    const anchored = pattern.replace(/^(?:\.\/)+/, "");
    const full = anchored.includes("/") || isAbsolute(anchored) ? anchored : `**/${anchored}`;
    const found: string[] = [];
    const entries = glob(full, {
      cwd,
      exclude: (entry: unknown) =>
        SKIPPED.test(typeof entry === "string" ? entry : String((entry as { name?: string }).name)),
    });
    for await (const entry of entries) {
      // fd searches only below `cwd`, whatever the pattern; an absolute pattern must not reach past it here.
      const path = resolve(cwd, entry);
      if (!isInside(cwd, path)) continue;
      found.push(entry);
      if (found.length >= limit) break;
    }
    return found;
  },
};
