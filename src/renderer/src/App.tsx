import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { bindChat } from "./client/chat-api";
import type { DeskClient } from "./client/desk-client";
import { focusCommandCard, useWaitingNotifications } from "./features/attention/waiting-notifications";
import { BackgroundPanel, backgroundCommands } from "./features/background/BackgroundPanel";
import { OpenRunningPanelContext } from "./features/background/running-panel";
import { ChatView } from "./features/chat/ChatView";
import { ApprovalTray } from "./features/commands/ApprovalTray";
import { HistoryView } from "./features/history/HistoryView";
import { SettingsView } from "./features/settings/SettingsView";
import { ChatList } from "./features/workspace/ChatList";
import { ConnectionBadge } from "./features/workspace/ConnectionBadge";
import { WorkspacePanel } from "./features/workspace/WorkspacePanel";
import type { Messages } from "./i18n/en";
import { useT } from "./i18n/i18n";
import { useDesk } from "./use-desk";

/** The views the header switches between. */
type ViewName = "chat" | "history" | "settings";
const VIEWS: ViewName[] = ["chat", "history", "settings"];

/** The window title: how many commands wait, then the workspace, then the app. */
export function windowTitle(t: Messages, workspace: string | undefined, waiting: number): string {
  const base = workspace ? `${workspace} — ${t.title.base}` : t.title.base;
  return waiting > 0 ? `${t.title.waiting(waiting)}${base}` : base;
}

/**
 * The whole window: the header (workspace, views, connection), the workspace and its chats on the side,
 * the tray of commands waiting for approval, and the view in use.
 */
export function App({ client }: { client: DeskClient }) {
  const t = useT();
  const { view, show } = useDesk(client);
  const [current, setCurrent] = useState<ViewName>("chat");
  const host = view.host;
  const workspace = host?.workspace;
  const session = host?.session;
  const chatId = host?.chatId ?? undefined;
  const workspaceId = workspace?.id;
  // The calls of the chat shown, and of each chat a tray card waits in: each names its own chat.
  const api = useMemo(() => bindChat(client.api, { chatId, workspaceId }), [client, chatId, workspaceId]);
  const chatsById = useMemo(() => new Map((host?.chats ?? []).map((chat) => [chat.id, chat])), [host?.chats]);
  const apiFor = useCallback(
    (id: string) => bindChat(client.api, { chatId: id, workspaceId: chatsById.get(id)?.workspaceId }),
    [client, chatsById],
  );
  const waiting = host?.inbox ?? [];
  const background = useMemo(() => backgroundCommands(session), [session]);
  const runningInBackground = background.filter((command) => command.background?.status === "running").length;
  const [panelOpen, setPanelOpen] = useState(false);
  const openPanel = useCallback(() => setPanelOpen(true), []);
  // What makes the history worth reading again; only while it is shown (session changes every frame).
  const historyKey = useMemo(
    () =>
      session && current === "history"
        ? Object.values(session.commands)
            .map((c) => c.phase)
            .join()
        : "",
    [session, current],
  );

  useEffect(() => {
    document.title = windowTitle(t, workspace?.name, waiting.length);
  }, [t, workspace?.name, waiting.length]);

  // A click on a notification of a waiting command: raised here (browser host), or by the desktop app's
  // main process, which asks with a focus-command event; its menu asks for a view with show-view.
  // A click on one opens the card's chat and focuses the card (it is in the tray, whichever chat shows).
  const reveal = useCallback(
    (id: string, inChat?: string) => {
      if (inChat && inChat !== chatId) show(inChat);
      setCurrent("chat");
      focusCommandCard(id);
    },
    [chatId, show],
  );
  useWaitingNotifications(host, reveal);
  useEffect(
    () =>
      client.api.onHostEvent((event) => {
        if (event.type === "focus-command") reveal(event.id, event.chatId);
        if (event.type === "show-view" && event.view === "settings") setCurrent("settings");
        if (event.type === "show-view" && event.view === "running") {
          setCurrent("chat");
          setPanelOpen(true);
        }
        if (event.type === "show-view" && event.view === "new-chat" && workspaceId) {
          void client.api.newSession({ workspaceId }).then((chat) => show(chat.id));
        }
      }),
    [client, reveal, workspaceId, show],
  );

  // A decided card stops asking, and the focus it held is lost to the page. Hand it to the next command
  // waiting, or back to the prompt, so a keyboard user can go on deciding (Enter, Esc) without a mouse.
  const waitingBefore = useRef(waiting.length);
  useEffect(() => {
    const focusLost = document.activeElement === null || document.activeElement === document.body;
    if (waiting.length < waitingBefore.current && focusLost) {
      const next = document.querySelector<HTMLElement>(".approval-tray .command-card");
      (next ?? document.querySelector<HTMLElement>(".prompt-input"))?.focus();
    }
    waitingBefore.current = waiting.length;
  }, [waiting.length]);

  return (
    <div className="app">
      <header className="app-header">
        <div className="app-title">
          <h1>{t.appName}</h1>
          {workspace && <span className="header-workspace">{workspace.name}</span>}
        </div>
        <nav aria-label={t.nav.label} className="app-nav">
          {VIEWS.map((name) => (
            <button
              key={name}
              type="button"
              className="nav-button"
              aria-current={current === name ? "page" : undefined}
              onClick={() => setCurrent(name)}
              data-testid={`nav-${name}`}
            >
              {t.nav[name]}
            </button>
          ))}
        </nav>
        {/* Reachable whenever the chat has background commands, so nothing it started runs unseen. */}
        {background.length > 0 && (
          <button
            type="button"
            className={runningInBackground > 0 ? "background-button active" : "background-button"}
            aria-expanded={panelOpen}
            onClick={() => setPanelOpen((open) => !open)}
            data-testid="background-panel-button"
          >
            {t.background.panelButton(runningInBackground)}
          </button>
        )}
        <ConnectionBadge status={view.connection} />
      </header>
      {view.connection.kind === "disconnected" && (
        <p role="alert" className="banner" data-testid="connection-problem">
          {view.connection.reason}
        </p>
      )}
      {/* Said once per change, for screen readers: the tray appears without moving focus. */}
      <p className="visually-hidden" aria-live="polite" data-testid="approval-announcement">
        {waiting.length > 0 ? t.command.trayHeading(waiting.length) : ""}
      </p>
      {host ? (
        <div className="app-body">
          <aside className="sidebar">
            <WorkspacePanel
              workspace={host.workspace}
              changes={host.limits?.changes}
              canChooseWorkspace={host.canChooseWorkspace}
              api={api}
            />
            <ChatList
              workspaces={host.workspaces}
              chats={host.chats}
              shownChat={host.chatId}
              api={client.api}
              onShow={show}
            />
            <p className="muted app-version">
              {t.appName} {host.version}
            </p>
          </aside>
          <main className="app-main">
            {panelOpen && (
              <BackgroundPanel commands={background} api={api} onClose={() => setPanelOpen(false)} />
            )}
            <ApprovalTray entries={waiting} chats={host.chats} apiFor={apiFor} onShowChat={show} />
            {/* Kept while another view shows: drawing a long chat again took half a second (300 commands). */}
            <div className="chat-view" hidden={current !== "chat"}>
              <OpenRunningPanelContext.Provider value={openPanel}>
                <ChatView host={host} api={api} onShowChat={show} />
              </OpenRunningPanelContext.Provider>
            </div>
            {current === "history" && <HistoryView api={api} refreshKey={historyKey} />}
            {current === "settings" && <SettingsView host={host} api={api} />}
          </main>
        </div>
      ) : (
        <main className="app-main">
          <p className="muted">{t.loading}</p>
        </main>
      )}
    </div>
  );
}
