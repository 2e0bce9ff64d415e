import { lstatSync, realpathSync } from "node:fs";
import { basename, dirname, join, relative, sep } from "node:path";
import { isInside } from "../../base/paths";

/** A file an edit may write: where it really is, and how the card names it. */
export interface EditTarget {
  /** The real absolute path (symbolic links resolved). */
  absolute: string;
  /** Relative to the workspace, `/` separators. */
  path: string;
  /** Always asks, whatever the rules: environment files, Pi's settings, CI and hook folders. */
  protected: boolean;
}

/** The folders the agent may not touch even inside the workspace (the read tools' `HiddenFolders`). */
export interface HiddenPaths {
  /** Whether a real path is one of them or inside one. */
  contains(realPath: string): boolean;
}

/** Paths an "always allow" rule never covers (relative to the workspace), with why, for Settings and SECURITY.md. */
export const PROTECTED_EDIT_PATHS = [
  /** Secrets and settings a program reads at start. */
  /(^|\/)\.env[^/]*$/,
  /** Pi's own settings, extensions and skills for the project. */
  /(^|\/)\.pi(\/|$)/,
  /** CI: runs on the next push, with the repository's secrets. */
  /^\.github\/workflows\//,
  /** Git hooks managed in the tree: run on the person's next commit. */
  /^\.husky\//,
] as const;

/**
 * Where an edit of `asked` (an absolute path, as Pi's tools resolve it) really lands, checked the way the
 * read tools check theirs, and then some: a write is worse than a read. Refused, with what to do instead,
 * when it is outside the workspace (after `..` and symbolic links), inside any `.git` folder, inside a folder
 * the host keeps private (its data, Pi's agent folder), or reached through a dangling symbolic link (which a
 * write would follow wherever it points).
 */
export function editTarget(
  root: string,
  hidden: HiddenPaths,
  asked: string,
  what: "file" | "folder" = "file",
): EditTarget {
  const real = realTarget(asked);
  const refuse = (why: string): never => {
    throw new Error(
      `Pi Desk does not let the agent edit ${asked}: it ${why}. Edit files inside the workspace (${root}) only; ` +
        "for anything else, ask the user.",
    );
  };
  if (real === undefined) return refuse("is reached through a symbolic link that points nowhere");
  if (!isInside(root, real)) return refuse("is outside the workspace");
  if (hidden.contains(real)) return refuse("is in a folder Pi Desk keeps private");
  const path = relative(root, real).split(sep).join("/");
  if (path === "" && what === "file") return refuse("is the workspace folder itself");
  if (path.split("/").includes(".git")) return refuse("is inside a .git folder (git's own data)");
  return { absolute: real, path, protected: PROTECTED_EDIT_PATHS.some((pattern) => pattern.test(path)) };
}

/**
 * The real path of `path`, or of its deepest existing folder with the rest appended; undefined when a part
 * of it is a symbolic link to nothing (a write through it would create its target, wherever that is).
 */
function realTarget(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch {
    if (isLink(path)) return undefined;
    const parent = dirname(path);
    if (parent === path) return path;
    const above = realTarget(parent);
    return above === undefined ? undefined : join(above, basename(path));
  }
}

function isLink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}
