import type { WorkspaceSession } from "../agent/workspace-session";
import type { WorktreeFolder } from "../worktrees/worktree-folder";
import type { ChatPlace } from "./chat-summary";
import type { DeskWorkspace } from "./desk-workspace";

/** An open chat as the host holds it. */
export interface DeskChat {
  /** The id the host issued. */
  id: string;
  /** Its workspace. */
  workspace: DeskWorkspace;
  /** Pi's session with the person between it and every command. */
  session: WorkspaceSession;
  /** When it opened. */
  openedAt: number;
  /** Its summary as last sent, to send one only when it changed. */
  sentSummary: string;
  /** Its own git worktree, when it works in one rather than in the workspace's folder. */
  folder?: WorktreeFolder;
}

/** Where a chat is, as its sidebar summary says. */
export function placeOf(chat: DeskChat): ChatPlace {
  return {
    id: chat.id,
    workspaceId: chat.workspace.id,
    folder: chat.folder?.worktree.path ?? chat.workspace.info.path,
    openedAt: chat.openedAt,
    ...(chat.folder ? { branch: chat.folder.worktree.branch } : {}),
  };
}
