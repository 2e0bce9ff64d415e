import { isAbsolute, resolve } from "node:path";
import type { WorktreeSettings } from "../../shared/worktrees";
import { isInside } from "../base/paths";
import type { WorkspaceSettings } from "../storage/workspace-settings";
import { DEFAULT_CLEANUP } from "./worktree-cleanup";

/** A workspace's worktree settings as Settings shows them, the defaults filled in. */
export function worktreeSettingsOf(stored: WorkspaceSettings): WorktreeSettings {
  return {
    ...(stored.worktreesFolder ? { folder: stored.worktreesFolder } : {}),
    ...(stored.worktreeSetup ? { setup: stored.worktreeSetup } : {}),
    keep: stored.worktreeCleanup?.keep ?? DEFAULT_CLEANUP.keep,
    olderThanDays: stored.worktreeCleanup?.olderThanDays ?? DEFAULT_CLEANUP.olderThanMs / 86_400_000,
    first: stored.worktreeFirst ?? "here",
  };
}

/**
 * The settings file's fields for what Settings chose, checked: the worktrees' folder must be absolute and
 * lie neither inside the workspace (its worktrees would be its files) nor inside Pi's agent folder (the read
 * tools hide it). Throws, saying what to do.
 */
export function worktreeSettingsToSave(
  chosen: WorktreeSettings,
  workspace: string,
  agentDir: string,
): Pick<WorkspaceSettings, "worktreesFolder" | "worktreeSetup" | "worktreeCleanup" | "worktreeFirst"> {
  const folder = chosen.folder?.trim();
  if (folder) {
    if (!isAbsolute(folder)) {
      throw new Error(`"${folder}" is not a full path: give the worktrees' folder from the root (/…).`);
    }
    for (const [inside, what] of [
      [workspace, "the workspace"],
      [agentDir, "Pi's agent folder, which the agent's read tools hide"],
    ] as const) {
      if (isInside(resolve(inside), resolve(folder))) {
        throw new Error(`The worktrees' folder cannot be inside ${what}: pick one outside it.`);
      }
    }
  }
  return {
    worktreesFolder: folder || undefined,
    worktreeSetup: chosen.setup?.trim() || undefined,
    worktreeCleanup: { keep: chosen.keep, olderThanDays: chosen.olderThanDays },
    worktreeFirst: chosen.first === "worktree" ? "worktree" : undefined,
  };
}
