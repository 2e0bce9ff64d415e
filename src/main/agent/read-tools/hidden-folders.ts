import { join, relative, sep } from "node:path";
import { isInside } from "../../base/paths";
import { realExisting } from "./pi-paths";

/**
 * The folders the read tools keep out of sight (Pi Desk's data, Pi's agent folder), by their real paths.
 * Resolved at each look, so a folder made after the tools were built is hidden all the same.
 */
export class HiddenFolders {
  constructor(private readonly paths: readonly string[]) {}

  /** The real paths of the hidden folders. */
  private real(): string[] {
    return this.paths.map(realExisting);
  }

  /** Whether `realPath` (already resolved through symlinks) is a hidden folder or inside one. */
  contains(realPath: string): boolean {
    return this.real().some((folder) => isInside(folder, realPath));
  }

  /** Whether `name` in the folder `dir` is itself a hidden folder (what `ls` must not list). */
  isEntryHidden(dir: string, name: string): boolean {
    const entry = join(realExisting(dir), name);
    return this.real().some((folder) => folder === entry);
  }

  /**
   * The hidden folders strictly below `searchPath`, as globs anchored at it with every glob character
   * escaped (`/sub/\.data` style), the form both ripgrep's `--glob !…` and fd's `--exclude` take. A
   * walker rooted at `searchPath` that skips these never enters a hidden folder (neither follows symlinks).
   */
  globsUnder(searchPath: string): string[] {
    const root = realExisting(searchPath);
    return this.real()
      .filter((folder) => folder !== root && isInside(root, folder))
      .map((folder) => `/${relative(root, folder).split(sep).map(escapeGlob).join("/")}`);
  }
}

/** Escapes what ripgrep's and fd's gitignore-style globs read as special (spaces too: trailing ones are cut). */
function escapeGlob(name: string): string {
  return name.replace(/[\\*?[\]{}!# ]/g, "\\$&");
}
