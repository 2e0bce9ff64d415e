import { realpathSync } from "node:fs";
import { access, readdir, stat } from "node:fs/promises";
import {
  createLsToolDefinition,
  createReadToolDefinition,
  defineTool,
} from "@earendil-works/pi-coding-agent";
import { isInside } from "../../base/paths";
import { createDeskFindTool } from "./find-tool";
import { createDeskGrepTool } from "./grep-tool";
import { HiddenFolders } from "./hidden-folders";
import { readTarget, realExisting, resolveLikePi } from "./pi-paths";

/**
 * Pi's read-only tools, kept to the workspace. They run in the host, unsandboxed and without asking the
 * person, so left alone `read ~/.ssh/id_ed25519` or `read ~/.pi/agent/auth.json` would hand a key to the
 * model. A path outside the workspace (after `~`, `..` and symlinks), or inside a folder the host hides
 * (its data, Pi's agent folder), is refused with what to do instead: a command, which the person approves.
 * A hidden folder below the path asked is left out of what grep, find and ls show. The one way out: the
 * folders of the skills the session loaded and Pi's own docs, which Pi's system prompt tells the model to read.
 */
export function createWorkspaceReadTools(
  workspace: string,
  hiddenPaths: readonly string[] = [],
  /** Folders and files outside it the model is told to read: the loaded skills' folders, Pi's own docs. */
  readable: () => readonly string[] = () => [],
) {
  const root = realpathSync(workspace);
  const hidden = new HiddenFolders(hiddenPaths);
  const check = (tool: string, asked: string | undefined, target: string) => {
    const real = realExisting(target);
    if (readable().some((place) => isInside(realExisting(place), real))) return;
    const why = !isInside(root, real)
      ? "is outside the workspace"
      : hidden.contains(real)
        ? "is in a folder Pi Desk keeps private"
        : undefined;
    if (why) {
      throw new Error(
        `${tool} works inside the workspace (${root}) only, and ${asked ?? "."} ${why}. To look at it, ask the ` +
          "user, or propose a run_command (for example cat or ls) that they can approve.",
      );
    }
  };
  const scope = `Works inside the workspace (${root}) only.`;
  // The same tools with the path checked first (read's as it opens it, the others' as they resolve it).
  const keep = <T extends PathTool>(
    tool: T,
    target: (path: string | undefined) => Promise<string> | string,
  ): T => ({
    ...tool,
    description: `${tool.description} ${scope}`,
    async execute(...args: Parameters<T["execute"]>) {
      const { path } = args[1] as { path?: string };
      check(tool.name, path, await target(path));
      return tool.execute(...args);
    },
  });
  const resolved = (path: string | undefined) => resolveLikePi(path ?? ".", root);
  return [
    defineTool(keep(createReadToolDefinition(root), (path) => readTarget(path ?? "", root))),
    defineTool(keep(createDeskGrepTool(root, hidden), resolved)),
    defineTool(keep(createDeskFindTool(root, hidden), resolved)),
    defineTool(keep(createLsToolDefinition(root, { operations: lsOperations(hidden) }), resolved)),
  ];
}

/** What `keep` needs of a tool: its name, description and `execute(id, params, ...)`. */
type PathTool = {
  name: string;
  description: string;
  // biome-ignore lint/suspicious/noExplicitAny: each Pi tool's execute takes its own parameter types.
  execute: (...args: any[]) => Promise<unknown>;
};

/** The file system as Pi's `ls` reads it, without the entries that are hidden folders. */
function lsOperations(hidden: HiddenFolders) {
  return {
    exists: (path: string) =>
      access(path).then(
        () => true,
        () => false,
      ),
    stat: (path: string) => stat(path),
    readdir: async (path: string) =>
      (await readdir(path)).filter((name) => !hidden.isEntryHidden(path, name)),
  };
}
