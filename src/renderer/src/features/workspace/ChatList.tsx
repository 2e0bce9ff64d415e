import { memo, useId, useState } from "react";
import type { DeskApi } from "../../../../shared/desk-api";
import type { ChatSummary, WorkspaceInfo } from "../../../../shared/host-state";
import type { WorktreeChoice } from "../../../../shared/worktrees";
import { useT } from "../../i18n/i18n";
import { useAction } from "../../lib/use-action";
import { NewChatChoice } from "../worktrees/NewChatChoice";
import { PastChats } from "./PastChats";

/**
 * Every open workspace and, under each, its open chats: name, how each is doing, how much waits for the
 * person, its last line; then its past chats. A click shows a chat; switching never stops one. "New chat"
 * offers where to start one: in a workspace's folder, or in a git worktree of its own (the host says plainly
 * when the folder is not a repository); each workspace's "+" starts one in its folder at once. A worktree
 * chat is marked with its branch.
 */
export const ChatList = memo(function ChatList({
  workspaces,
  chats,
  shownChat,
  api,
  onShow,
}: {
  workspaces: WorkspaceInfo[];
  chats: ChatSummary[];
  /** The chat the page shows. */
  shownChat: string | null;
  api: DeskApi;
  onShow: (chatId: string) => void;
}) {
  const t = useT();
  const headingId = useId();
  const action = useAction();
  const [choosing, setChoosing] = useState(false);
  const newChat = (workspaceId: string, worktree?: WorktreeChoice) => {
    setChoosing(false);
    action.run(async () =>
      onShow((await api.newSession({ workspaceId, ...(worktree ? { worktree } : {}) })).id),
    );
  };
  const close = (chat: ChatSummary) => {
    if (isBusy(chat) && !window.confirm(t.chats.closeWorking(chat.title || t.chats.untitled))) return;
    action.run(() => api.closeChat({ chatId: chat.id }));
  };
  const closeWorkspace = (workspace: WorkspaceInfo) => {
    const busy = chats.filter((chat) => chat.workspaceId === workspace.id && isBusy(chat)).length;
    if (busy > 0 && !window.confirm(t.chats.closeWorkspaceBusy(workspace.name, busy))) return;
    action.run(() => api.closeWorkspace({ workspaceId: workspace.id }));
  };
  if (workspaces.length === 0) return null;
  const openFiles = new Set(chats.flatMap((chat) => (chat.file ? [chat.file] : [])));
  return (
    <section className="chat-list" aria-labelledby={headingId} data-testid="chat-list">
      <div className="section-head">
        <h2 id={headingId}>{t.chats.heading}</h2>
        <button
          type="button"
          className="primary small"
          aria-expanded={choosing}
          disabled={action.busy}
          onClick={() => setChoosing((open) => !open)}
          data-testid="new-chat-button"
        >
          {t.chats.newChat}
        </button>
      </div>
      {choosing && (
        <div className="new-chat-choices">
          {workspaces.map((workspace) => (
            <NewChatChoice
              key={workspace.id}
              workspace={workspace}
              api={api}
              onChoose={(worktree) => newChat(workspace.id, worktree)}
            />
          ))}
        </div>
      )}
      {action.error && (
        <p className="error" role="alert">
          {action.error}
        </p>
      )}
      {workspaces.map((workspace) => (
        <div
          key={workspace.id}
          className="workspace-item"
          data-testid="workspace-item"
          data-path={workspace.path}
        >
          <div className="workspace-item-head">
            <h3 className="workspace-item-name" title={workspace.path}>
              {workspace.name}
            </h3>
            <button
              type="button"
              className="link workspace-item-action"
              aria-label={t.chats.newChatIn(workspace.name)}
              title={t.chats.newChatIn(workspace.name)}
              disabled={action.busy}
              onClick={() => newChat(workspace.id)}
              data-testid="new-session"
            >
              +
            </button>
            {workspaces.length > 1 && (
              <button
                type="button"
                className="link workspace-item-action"
                aria-label={t.chats.closeWorkspace(workspace.name)}
                title={t.chats.closeWorkspace(workspace.name)}
                disabled={action.busy}
                onClick={() => closeWorkspace(workspace)}
                data-testid="close-workspace-button"
              >
                ×
              </button>
            )}
          </div>
          <ul className="chats">
            {chats
              .filter((chat) => chat.workspaceId === workspace.id)
              .map((chat) => (
                <ChatItem
                  key={chat.id}
                  chat={chat}
                  shown={chat.id === shownChat}
                  onShow={() => onShow(chat.id)}
                  onClose={() => close(chat)}
                />
              ))}
          </ul>
          <PastChats
            workspace={workspace}
            openFiles={openFiles}
            refreshKey={refreshKey(chats, workspace.id)}
            api={api}
            onShow={onShow}
          />
        </div>
      ))}
    </section>
  );
});

function ChatItem({
  chat,
  shown,
  onShow,
  onClose,
}: {
  chat: ChatSummary;
  shown: boolean;
  onShow: () => void;
  onClose: () => void;
}) {
  const t = useT();
  const title = chat.title || t.chats.untitled;
  return (
    <li
      className={`chat-item activity-${chat.activity}`}
      data-testid="chat-item"
      data-chat-id={chat.id}
      data-state={chat.activity}
      data-waiting={chat.waiting}
      data-worktree={String(chat.worktree)}
    >
      <button
        type="button"
        className="chat-item-open"
        aria-current={shown ? "true" : undefined}
        aria-label={t.chats.open(title)}
        title={chat.file}
        onClick={onShow}
      >
        <span className="chat-item-title">{title}</span>
        <span className="chat-item-state">
          {chat.waiting > 0 ? (
            <span className="chat-item-waiting">{t.chats.waiting(chat.waiting)}</span>
          ) : (
            <span className="muted">
              {chat.activity === "idle" && !chat.lastLine
                ? t.chats.notStarted
                : t.chats.activity[chat.activity]}
            </span>
          )}
        </span>
        {chat.worktree && chat.branch && (
          <span className="chat-item-branch" title={chat.folder} data-testid="chat-item-branch">
            {t.worktrees.branch(chat.branch)}
          </span>
        )}
        {chat.lastLine && <span className="muted chat-item-line">{chat.lastLine}</span>}
      </button>
      <button
        type="button"
        className="link chat-item-close"
        aria-label={t.chats.close}
        title={t.chats.close}
        onClick={onClose}
      >
        ×
      </button>
    </li>
  );
}

/**
 * What changes a workspace's past chats: a chat opened or closed, and a turn's end (Pi writes a new chat's
 * file once it has a message, and a file's count and time change with each turn).
 */
function refreshKey(chats: readonly ChatSummary[], workspaceId: string): string {
  return chats
    .filter((chat) => chat.workspaceId === workspaceId)
    .map((chat) => `${chat.id}:${chat.file ?? ""}:${chat.activity === "working" ? "w" : "-"}`)
    .join();
}

/** A chat that closing would interrupt: the person is asked first. */
const isBusy = (chat: ChatSummary) => chat.activity === "working" || chat.activity === "waiting";
