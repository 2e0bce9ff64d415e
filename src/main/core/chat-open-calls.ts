import type { ChatSummary } from "../../shared/host-state";
import type { WorktreeChoice } from "../../shared/worktrees";
import type { SessionChoice } from "../agent/agent-session-factory";
import { forkSession } from "../agent/rewind/fork-session";
import { worktreeFork } from "../agent/rewind/fork-worktree";
import type { WorkspaceSession } from "../agent/workspace-session";
import type { DeskHandlers } from "./desk-handlers";
import { reopenedIn } from "./past-chats";

/** The calls that open a chat: a new one, a past one, a fork of one. */
type ChatOpenCall = "newSession" | "openSession" | "forkChat";

/** A chat as those calls need it. */
interface OpenedChat<Workspace> {
  workspace: Workspace;
  session: WorkspaceSession;
  /** Its own worktree, when it has one. */
  folder?: unknown;
}

/** What those calls need of the host. */
export interface ChatOpenHost<
  Workspace extends { info: { path: string } },
  Chat extends OpenedChat<Workspace>,
> {
  workspaceOf(workspaceId: string): Workspace;
  chatOf(chatId: string): Chat;
  /** The open chat of that session file, made the one a state shows; undefined when none is open. */
  showOpen(sessionFile: string): Chat | undefined;
  /** Opens a chat beside those open (in a worktree when `worktree` says so). */
  open(
    workspace: Workspace,
    choice: SessionChoice | ((folder: string) => Promise<SessionChoice>),
    worktree?: WorktreeChoice,
  ): Promise<Chat>;
  summaryOf(chat: Chat): ChatSummary;
}

/** Those calls: each opens a chat (or finds it open) and answers with its summary. */
export function chatOpenCalls<
  Workspace extends { info: { path: string } },
  Chat extends OpenedChat<Workspace>,
>(host: ChatOpenHost<Workspace, Chat>): Pick<DeskHandlers, ChatOpenCall> {
  return {
    newSession: async ({ workspaceId, worktree }) =>
      host.summaryOf(await host.open(host.workspaceOf(workspaceId), { kind: "new" }, worktree)),
    openSession: async ({ workspaceId, path }) => {
      const workspace = host.workspaceOf(workspaceId);
      const open = host.showOpen(path);
      if (open) return host.summaryOf(open);
      // A worktree chat's conversation reopens in its worktree.
      const worktree = await reopenedIn(workspace.info.path, path);
      return host.summaryOf(await host.open(workspace, { kind: "open", path }, worktree));
    },
    forkChat: async ({ chatId, entryId, where }) => {
      const chat = host.chatOf(chatId);
      if (chat.folder)
        throw new Error("Fork from here works in the workspace's own folder only: fork a chat there.");
      if (where === "worktree") {
        // A new worktree from the chat's base, the session forked into it once it is there.
        const fork = worktreeFork(chat.workspace.info.path, chat.session, entryId);
        return { chat: host.summaryOf(await host.open(chat.workspace, fork.open, {})), text: fork.text };
      }
      const { path, text } = forkSession(chat.session.agent, entryId);
      return { chat: host.summaryOf(await host.open(chat.workspace, { kind: "open", path })), text };
    },
  };
}
