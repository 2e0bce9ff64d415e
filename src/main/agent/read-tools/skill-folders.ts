import { homedir } from "node:os";
import type { Skill } from "@earendil-works/pi-coding-agent";
import { isInside } from "../../base/paths";
import { realExisting } from "./pi-paths";

/**
 * The folders of the session's skills that its read tools and sandboxed commands may read, though they are
 * outside the workspace or in Pi's agent folder: Pi lists each skill's SKILL.md in the system prompt and tells
 * the model to read it (and the files beside it), so a skill the person installed would otherwise never be
 * usable. A folder that holds a hidden folder (Pi's agent folder itself, the home folder) is left out: a
 * skill there would open `auth.json` and the host's data with it.
 */
export function skillFolders(skills: readonly Skill[], hiddenPaths: readonly string[]): string[] {
  const hidden = [...hiddenPaths, homedir()].map(realExisting);
  const folders = new Set<string>();
  for (const skill of skills) {
    const folder = realExisting(skill.baseDir);
    if (!hidden.some((path) => isInside(folder, path))) folders.add(folder);
  }
  return [...folders];
}
