import { accessSync, constants, statSync } from "node:fs";
import { delimiter, join } from "node:path";
import { getAgentDir } from "@earendil-works/pi-coding-agent";

/**
 * Where the first of `names` can be run from, looked up as Pi 1.6 looks up its search tools (its agent
 * folder's `bin/`, where it downloads them, then PATH), or undefined. Pi's own lookup is not exported.
 */
export function localProgram(names: readonly string[]): string | undefined {
  const dirs = [join(getAgentDir(), "bin"), ...(process.env.PATH ?? "").split(delimiter).filter(Boolean)];
  for (const name of names) {
    for (const dir of dirs) {
      const path = join(dir, name);
      try {
        accessSync(path, constants.X_OK);
        if (statSync(path).isFile()) return path;
      } catch {
        // Not there; the next folder.
      }
    }
  }
  return undefined;
}
