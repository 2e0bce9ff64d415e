import type { WorktreeChat, WorktreeChats } from "../worktrees/worktree-chats";
import type { DeskHandlers } from "./desk-handlers";

/** The calls on worktree chats and a workspace's worktrees. */
type WorktreeCall =
  | "listWorktrees"
  | "worktreeSettings"
  | "setWorktreeSettings"
  | "reviewWorktree"
  | "bringIntoWorkspace"
  | "keepBranch"
  | "discardWorktree";

/** What those calls need of the host. */
export interface WorktreeCallsHost<Chat extends WorktreeChat> {
  /** The host's worktree chats (src/main/worktrees). */
  worktrees(): WorktreeChats<Chat>;
  /** The open workspace of that id; refuses one that is not open, saying what to do. */
  workspaceOf(workspaceId: string): Chat["workspace"];
  /** The open chat of that id; refuses one that is not open, saying what to do. */
  chatOf(chatId: string): Chat;
  /** Pi's agent folder (a worktree's setup step is checked against its settings). */
  agentDir(): string;
}

/** Those calls: each finds its workspace or chat and hands it to the worktree chats. */
export function worktreeCalls<Chat extends WorktreeChat>(
  host: WorktreeCallsHost<Chat>,
): Pick<DeskHandlers, WorktreeCall> {
  const worktrees = () => host.worktrees();
  return {
    listWorktrees: async ({ workspaceId }) => worktrees().list(host.workspaceOf(workspaceId)),
    worktreeSettings: async ({ workspaceId }) => worktrees().settings(host.workspaceOf(workspaceId)),
    setWorktreeSettings: async ({ workspaceId, settings }) =>
      worktrees().setSettings(host.workspaceOf(workspaceId), settings, host.agentDir()),
    reviewWorktree: async ({ chatId }) => worktrees().review(host.chatOf(chatId)),
    bringIntoWorkspace: async ({ chatId }) => worktrees().bring(host.chatOf(chatId)),
    keepBranch: async ({ chatId, message }) => worktrees().keep(host.chatOf(chatId), message),
    discardWorktree: async ({ chatId }) => worktrees().discard(host.chatOf(chatId)),
  };
}
