import { existsSync, realpathSync } from "node:fs";
import { homedir } from "node:os";
import { basename, dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import {
  createGrepToolDefinition,
  createLsToolDefinition,
  createReadToolDefinition,
  defineTool,
} from "@earendil-works/pi-coding-agent";
import { isInside } from "../../base/paths";
import { createDeskFindTool } from "./find-tool";

/**
 * Pi's read-only tools, kept to the workspace. They run in the host, unsandboxed and without asking the
 * person, so left alone `read ~/.ssh/id_ed25519` or `read ~/.pi/agent/auth.json` would hand a key to the
 * model. A path outside the workspace (after `~`, `..` and symlinks), or inside a folder the host hides
 * (its data, Pi's agent folder), is refused with what to do instead: a command, which the person approves.
 */
export function createWorkspaceReadTools(workspace: string, hiddenPaths: readonly string[] = []) {
  const root = realpathSync(workspace);
  const hidden = hiddenPaths.flatMap((path) => (existsSync(path) ? [realpathSync(path)] : []));
  const check = (tool: string, asked: string | undefined, target: string) => {
    const real = realExisting(target);
    const why = !isInside(root, real)
      ? "is outside the workspace"
      : hidden.some((folder) => isInside(folder, real))
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
    defineTool(keep(createGrepToolDefinition(root), resolved)),
    defineTool(keep(createDeskFindTool(root), resolved)),
    defineTool(keep(createLsToolDefinition(root), resolved)),
  ];
}

/** What `keep` needs of a tool: its name, description and `execute(id, params, ...)`. */
type PathTool = {
  name: string;
  description: string;
  // biome-ignore lint/suspicious/noExplicitAny: each Pi tool's execute takes its own parameter types.
  execute: (...args: any[]) => Promise<unknown>;
};

/** Pi's `UNICODE_SPACES`: typed paths may hold them where a plain space was meant. */
const UNICODE_SPACES = /[\u00A0\u2000-\u200A\u202F\u205F\u3000]/g;

/** A path as Pi's tools resolve it (`resolveToCwd` in Pi 1.6): spaces, `@` prefix, `~`, `file://`. */
function resolveLikePi(input: string, cwd: string): string {
  let path = input.replace(UNICODE_SPACES, " ");
  if (path.startsWith("@")) path = path.slice(1);
  if (path === "~") return homedir();
  if (path.startsWith("~/")) path = join(homedir(), path.slice(2));
  if (path.startsWith("file://")) path = fileURLToPath(path);
  return resolve(cwd, path);
}

/**
 * The file Pi's `read` opens (`resolveReadPathAsync` in Pi 1.6): the path, or the first of its macOS
 * spellings that exists (narrow space before AM/PM, NFD, curly apostrophe, both).
 */
async function readTarget(input: string, cwd: string): Promise<string> {
  const resolved = resolveLikePi(input, cwd);
  const nfd = resolved.normalize("NFD");
  const curly = (path: string) => path.replace(/'/g, "\u2019");
  const candidates = [
    resolved,
    resolved.replace(/ (AM|PM)\./gi, "\u202F$1."),
    nfd,
    curly(resolved),
    curly(nfd),
  ];
  return candidates.find((path) => existsSync(path)) ?? resolved;
}

/** The real path of `path`, or of its deepest existing folder with the rest appended. */
function realExisting(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    const parent = dirname(path);
    return parent === path ? path : join(realExisting(parent), basename(path));
  }
}
