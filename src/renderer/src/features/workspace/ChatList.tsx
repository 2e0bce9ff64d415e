import { useId, useState } from "react";
import type { DeskApi } from "../../../../shared/desk-api";
import type { ChatSummary, HostState } from "../../../../shared/host-state";
import type { WorktreeChoice } from "../../../../shared/worktrees";
import { useT } from "../../i18n/i18n";
import { useAction } from "../../lib/use-action";
import { NewChatChoice } from "../worktrees/NewChatChoice";

/**
 * Every open workspace and, under each, its open chats: name, how each is doing, how much waits for the
 * person, its last line. A click shows a chat; switching never stops one. "New chat" offers where to start
 * one: in a workspace's folder, or in a git worktree of its own (the host says plainly when the folder is not
 * a repository). A worktree chat is marked with its branch.
 */
export function ChatList({
  host,
  api,
  onShow,
}: {
  host: HostState;
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
    const busy = chat.activity === "working" || chat.activity === "waiting";
    if (busy && !window.confirm(t.chats.closeWorking(chat.title || t.chats.untitled))) return;
    action.run(() => api.closeChat({ chatId: chat.id }));
  };
  if (host.workspaces.length === 0) return null;
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
          {host.workspaces.map((workspace) => (
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
      {host.workspaces.map((workspace) => (
        <div
          key={workspace.id}
          className="workspace-item"
          data-testid="workspace-item"
          data-path={workspace.path}
        >
          {host.workspaces.length > 1 && (
            <h3 className="workspace-item-name" title={workspace.path}>
              {workspace.name}
            </h3>
          )}
          <ul className="chats">
            {host.chats
              .filter((chat) => chat.workspaceId === workspace.id)
              .map((chat) => (
                <ChatItem
                  key={chat.id}
                  chat={chat}
                  shown={chat.id === host.chatId}
                  onShow={() => onShow(chat.id)}
                  onClose={() => close(chat)}
                />
              ))}
          </ul>
        </div>
      ))}
    </section>
  );
}

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
