import { relative, sep } from "node:path";
import type { EditRefusalText } from "../../../shared/host-text";
import { isInside } from "../../base/paths";
import { realWriteTarget } from "../read-tools/pi-paths";

/** Why a target may not be edited: the English sentence as the message, and the same as a kind in `say`. */
export class EditTargetRefused extends Error {
  constructor(
    message: string,
    /** The refusal as a kind and its parameters, for the page to word. */
    readonly say: Extract<EditRefusalText, { id: "target" }>,
  ) {
    super(message);
  }
}

/** The phrase for each rule a target breaks, completing "it …". */
const TARGET_WHY: Record<Extract<EditRefusalText, { id: "target" }>["why"], string> = {
  "dangling-link": "is reached through a symbolic link that points nowhere",
  outside: "is outside the workspace",
  private: "is in a folder Pi Desk keeps private",
  "workspace-itself": "is the workspace folder itself",
  git: "is inside a .git folder (git's own data)",
};

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
  const real = realWriteTarget(asked);
  const refuse = (why: keyof typeof TARGET_WHY): never => {
    throw new EditTargetRefused(
      `Pi Desk does not let the agent edit ${asked}: it ${TARGET_WHY[why]}. Edit files inside the workspace (${root}) only; ` +
        "for anything else, ask the user.",
      { id: "target", asked, root, why },
    );
  };
  if (real === undefined) return refuse("dangling-link");
  if (!isInside(root, real)) return refuse("outside");
  if (hidden.contains(real)) return refuse("private");
  const path = relative(root, real).split(sep).join("/");
  if (path === "" && what === "file") return refuse("workspace-itself");
  if (path.split("/").includes(".git")) return refuse("git");
  return { absolute: real, path, protected: PROTECTED_EDIT_PATHS.some((pattern) => pattern.test(path)) };
}
