import { accessSync, constants, realpathSync, statSync } from "node:fs";
import { isAbsolute, join, resolve } from "node:path";
import { isInside } from "../../base/paths";

/** Where a command name leads on a PATH, as execvp and bash would look it up. */
export type BinaryResolution =
  /** The first executable file named so on PATH. */
  | { kind: "found"; path: string; realPath: string }
  /** No PATH entry holds an executable file of that name. */
  | { kind: "not-found" }
  /** The name resolves to a file inside the workspace, which the agent can write. */
  | { kind: "in-workspace"; path: string }
  /** A relative PATH entry (".", "", "bin") is searched first, and the line changes directory. */
  | { kind: "relative-entry"; entry: string };

/** What the lookup needs to know about where the command will run. */
export interface ResolveOptions {
  /** The PATH the command will run with (":"-separated). */
  pathEnv: string;
  /** The workspace root: the command's working directory, and files the agent can write. */
  workspaceRoot: string;
  /** True when the line runs `cd`, `pushd` or `popd`, so relative PATH entries may point anywhere. */
  changesDirectory: boolean;
}

/** Looks a command name up on PATH the way the shell will, and says whether the file is one an allowlist may mean. */
export function resolveBinary(name: string, options: ResolveOptions): BinaryResolution {
  const root = realOrSelf(resolve(options.workspaceRoot));
  // An empty PATH entry means the current directory, like ".".
  for (const entry of options.pathEnv.split(":")) {
    const relativeEntry = !isAbsolute(entry);
    if (relativeEntry && options.changesDirectory) return { kind: "relative-entry", entry };
    const directory = resolve(options.workspaceRoot, entry || ".");
    const candidate = join(directory, name);
    if (!isExecutableFile(candidate)) continue;
    const realPath = realOrSelf(candidate);
    if (isInside(root, realOrSelf(directory)) || isInside(root, realPath)) {
      return { kind: "in-workspace", path: candidate };
    }
    return { kind: "found", path: candidate, realPath };
  }
  return { kind: "not-found" };
}

function isExecutableFile(path: string): boolean {
  try {
    if (!statSync(path).isFile()) return false;
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function realOrSelf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}
