import { realpath } from "node:fs/promises";
import { SessionManager } from "@earendil-works/pi-coding-agent";
import type { SessionSummary } from "../../shared/host-state";
import type { WorktreeChoice } from "../../shared/worktrees";
import { listWorkspaceSessions } from "../agent/agent-session-factory";
import { listWorktrees } from "../worktrees/worktree-create";

/**
 * The workspace's past conversations, newest first: those held in its folder, then those of each of its
 * repository's worktrees (a worktree chat's conversation is filed under the worktree's folder, as Pi files
 * a session under its working folder), each naming its worktree and branch.
 */
export async function pastChats(workspace: string): Promise<SessionSummary[]> {
  const worktrees = (await listWorktrees(workspace).catch(() => [])).filter((entry) => !entry.main);
  const lists = await Promise.all([
    summaries(workspace),
    ...worktrees.map(async (entry) =>
      (await summaries(entry.path)).map((past) => ({
        ...past,
        worktree: entry.path,
        ...(entry.branch ? { branch: entry.branch } : {}),
      })),
    ),
  ]);
  return lists.flat().sort((a, b) => b.modified - a.modified);
}

/** The conversations Pi filed under one folder. */
async function summaries(folder: string): Promise<SessionSummary[]> {
  return (await listWorkspaceSessions(folder)).map((past) => ({
    path: past.path,
    id: past.id,
    title: past.name ?? (past.firstMessage.trim().slice(0, 120) || "(empty conversation)"),
    modified: past.modified.getTime(),
    messageCount: past.messageCount,
  }));
}

/**
 * Where a past conversation of the workspace reopens: in the workspace's folder, or in the worktree it ran
 * in (by its session file's working folder). Refused, saying where the conversation is, when that worktree
 * is gone.
 */
export async function reopenedIn(
  workspace: string,
  sessionFile: string,
): Promise<WorktreeChoice | undefined> {
  const cwd = SessionManager.open(sessionFile).getCwd();
  const real = async (path: string) => realpath(path).catch(() => path);
  const folder = await real(cwd);
  if (folder === (await real(workspace))) return undefined;
  const worktrees = (await listWorktrees(workspace).catch(() => [])).filter((entry) => !entry.main);
  for (const entry of worktrees) {
    if ((await real(entry.path)) === folder) return { path: entry.path };
  }
  throw new Error(
    `This chat ran in ${cwd}, which is no longer a worktree of this repository (it was removed). Its conversation is still in ${sessionFile}; start a new chat to go on.`,
  );
}
