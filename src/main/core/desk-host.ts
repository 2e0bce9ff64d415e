import { randomUUID } from "node:crypto";
import { join } from "node:path";
import type { AgentSession } from "@earendil-works/pi-coding-agent";
import type { CommandView } from "../../shared/commands";
import type { Unsubscribe } from "../../shared/desk-api";
import type { ChatEventBody, HostEvent, HostEventBody } from "../../shared/host-events";
import type { ChatSummary, HostState, SessionState, WorkspaceInfo } from "../../shared/host-state";
import type { WorktreeChoice } from "../../shared/worktrees";
import type { SessionChoice } from "../agent/agent-session-factory";
import { DeskModels } from "../agent/model-runtime";
import { modelsStateOf } from "../agent/models-state";
import { openWorkspaceSession } from "../agent/workspace-session-factory";
import { checkSandbox, RunRegistry, type SandboxCheck } from "../run-command";
import { loadPreferences, type Preferences, preferencesFile, savePreferences } from "../storage/preferences";
import { WorktreeChats } from "../worktrees/worktree-chats";
import { chatCalls } from "./chat-calls";
import { chatOpenCalls } from "./chat-open-calls";
import { chatSummary } from "./chat-summary";
import { type DeskChat, placeOf } from "./desk-chat";
import type { DeskHandlers } from "./desk-handlers";
import { type DeskHostOptions, dataRootOf } from "./desk-host-options";
import { DeskWorkspace } from "./desk-workspace";
import { HostInbox } from "./host-inbox";
import { endLastRunsLeftovers } from "./last-run-leftovers";
import { modelCalls } from "./model-calls";
import { resolveWorkspace, type WorkspaceFolder } from "./workspace";
import { workspaceCalls } from "./workspace-calls";
import { worktreeCalls } from "./worktree-calls";

export type { DeskHandlers } from "./desk-handlers";
export type { DeskHostOptions, SecretStore } from "./desk-host-options";
export type { WorkspaceChangesOptions } from "./desk-workspace";

/**
 * The host core both shells share. It holds the open workspaces and their chats, does what the calls ask,
 * and tells every subscriber what changed, each event numbered in one stream (`seq`). It imports nothing
 * from Electron, so it runs and is tested under plain Node.
 */
export class DeskHost {
  private readonly workspaces = new Map<string, DeskWorkspace>();
  private readonly chats = new Map<string, DeskChat>();
  /** Every chat's requests waiting for the person, oldest first. */
  private readonly inbox = new HostInbox();
  private readonly listeners = new Set<(event: HostEvent) => void>();
  private readonly dataRoot: string;
  private readonly runRegistry: RunRegistry;
  /** The chat a state holds when none is asked for: the one last opened (or reopened). */
  private lastOpened: string | undefined;
  private seq = 0;
  private reach: string;
  /** Worktree chats' folders: made, reviewed, brought back, kept or discarded (src/main/worktrees). */
  private readonly worktrees: WorktreeChats<DeskChat>;

  private constructor(
    private readonly options: DeskHostOptions,
    private readonly models: DeskModels,
    private readonly sandbox: SandboxCheck,
    private preferences: Preferences,
  ) {
    this.dataRoot = dataRootOf(options);
    this.runRegistry = new RunRegistry(join(this.dataRoot, "running"));
    this.reach = options.reach ?? (options.shell === "electron" ? "desktop app" : "browser host");
    this.worktrees = new WorktreeChats({
      dataRoot: this.dataRoot,
      changes: options.changes,
      chats: () => this.chats.values(),
      closeChat: (chat) => this.closeChat(chat),
    });
  }

  /** Sets up the models and opens the start workspaces, if any, each with a new chat. */
  static async create(options: DeskHostOptions): Promise<DeskHost> {
    await endLastRunsLeftovers(join(dataRootOf(options), "running"));
    // Once per start, at the same time as the models: a sandboxed `true` tells whether this machine can
    // sandbox commands at all.
    const [models, sandbox] = await Promise.all([DeskModels.create(), checkSandbox()]);
    for (const [provider, key] of Object.entries((await options.secrets?.load()) ?? {})) {
      await models.setApiKey(provider, key);
    }
    const preferences = await loadPreferences(preferencesFile(dataRootOf(options)));
    const host = new DeskHost(options, models, sandbox, preferences);
    const start = [...(options.workspace ? [options.workspace] : []), ...(options.workspaces ?? [])];
    try {
      for (const folder of start) await host.openFolder(folder);
    } catch (error) {
      await host.dispose();
      throw error;
    }
    return host;
  }

  /** One command as the host holds it, its output whole (the state may leave it out): of the chat named, else the newest. */
  command(commandId: string, chatId?: string): CommandView | undefined {
    return this.shownChat(chatId)?.session.command(commandId);
  }

  /** Every open chat's conversation, commands and edits (what a quit would stop). */
  openChats(): SessionState[] {
    return [...this.chats.values()].map((chat) => chat.session.state());
  }

  /** Pi's session of a chat (the one named, else the newest): what the model was told, for tests and logs. */
  agentOf(chatId?: string): AgentSession | undefined {
    return this.shownChat(chatId)?.session.agent;
  }

  /** The state a newly connected UI starts from, holding `chatId`'s chat in full (else the newest). */
  state(chatId?: string): HostState {
    const chat = this.shownChat(chatId);
    const session = chat?.session;
    return {
      seq: this.seq,
      workspaces: this.workspaceList(),
      chats: [...this.chats.values()].map((open) => this.summaryOf(open)),
      inbox: this.inbox.entries(this.chats.values()),
      chatId: chat?.id ?? null,
      workspace: chat?.workspace.info ?? this.workspaces.values().next().value?.info ?? null,
      shell: this.options.shell,
      canChooseWorkspace: this.options.pickFolder !== undefined,
      version: this.options.version,
      hostTime: Date.now(),
      session: session?.state() ?? null,
      limits: session?.limits ?? null,
      models: modelsStateOf(this.models, chat?.session),
      ...(session?.gate.ruleState() ?? { rules: [] }),
      notifications: this.preferences.notifications,
    };
  }

  /** Says how to reach this host from now on, in the owner lock of every workspace it has open (the browser host's URL). */
  setReach(reach: string): void {
    this.reach = reach;
    for (const workspace of this.workspaces.values()) workspace.setReach(reach);
  }

  /** Receive every event from now on. */
  subscribe(listener: (event: HostEvent) => void): Unsubscribe {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The calls, bound to this host; the shells route validated requests here. */
  readonly handlers: DeskHandlers = {
    ...chatCalls((chatId) => this.requireChat(chatId).session),
    ...workspaceCalls({
      workspaceOf: (workspaceId) => this.requireWorkspace(workspaceId),
      chatsOf: (workspace) =>
        [...this.chats.values()].filter((chat) => chat.workspace === workspace).map((chat) => chat.session),
      sandbox: () => this.sandbox,
      limitsChanged: (workspace) => this.emitLimits(workspace),
    }),
    ...worktreeCalls({
      worktrees: () => this.worktrees,
      workspaceOf: (workspaceId) => this.requireWorkspace(workspaceId),
      chatOf: (chatId) => this.requireChat(chatId),
      agentDir: () => this.models.agentDir,
    }),
    ...modelCalls({
      models: () => this.models,
      chatOf: (chatId) => this.requireChat(chatId),
      chats: () => this.chats.values(),
      emitChat: (chat, event) => this.emitChat(chat, event),
      saveKey: async (provider, key) => this.options.secrets?.save(provider, key),
    }),
    getState: async (params) => this.state(params?.chatId),
    chooseWorkspace: async () => {
      const pick = this.options.pickFolder;
      if (!pick) {
        throw new Error("This host has no folder dialog: start it with --workspace <folder> to choose one.");
      }
      const path = await pick();
      return path === null ? null : this.openFolder(await resolveWorkspace(path));
    },
    openWorkspace: async ({ path }) => this.openFolder(await resolveWorkspace(path)),
    ...chatOpenCalls({
      workspaceOf: (workspaceId) => this.requireWorkspace(workspaceId),
      chatOf: (chatId) => this.requireChat(chatId),
      showOpen: (sessionFile) => {
        const open = [...this.chats.values()].find((chat) => chat.session.agent.sessionFile === sessionFile);
        if (open) this.lastOpened = open.id;
        return open;
      },
      open: (workspace, choice, worktree) => this.openChat(workspace, choice, worktree),
      summaryOf: (chat) => this.summaryOf(chat),
    }),
    closeChat: async ({ chatId }) => this.closeChat(this.requireChat(chatId)),
    closeWorkspace: async ({ workspaceId }) => this.closeWorkspace(this.requireWorkspace(workspaceId)),
    decide: async ({ approvalId, decision, rule }) => {
      const chat = [...this.chats.values()].find((open) => open.session.gate.isWaiting(approvalId));
      if (chat) return chat.session.gate.decide(approvalId, decision, rule);
      throw new Error(this.inbox.refusal(approvalId));
    },
    setNotifications: async ({ enabled }) => {
      const next = { ...this.preferences, notifications: enabled };
      await savePreferences(preferencesFile(this.dataRoot), next);
      this.preferences = next;
      this.emit({ type: "notifications-changed", enabled });
    },
  };

  /** Releases everything: every chat is disposed and every running command's tree killed, every workspace given up. */
  async dispose(): Promise<void> {
    const chats = [...this.chats.values()];
    this.chats.clear();
    await Promise.all(chats.map((chat) => chat.session.dispose("quit")));
    await Promise.all(chats.map((chat) => chat.folder?.close()));
    const workspaces = [...this.workspaces.values()];
    this.workspaces.clear();
    for (const workspace of workspaces) await workspace.close();
    this.listeners.clear();
  }

  /** Opens a folder as a workspace with a new chat in it; one already open is returned as it is. */
  private async openFolder(folder: WorkspaceFolder): Promise<WorkspaceInfo> {
    const open = [...this.workspaces.values()].find((workspace) => workspace.info.path === folder.path);
    if (open) return open.info;
    let workspace: DeskWorkspace | undefined;
    workspace = await DeskWorkspace.open({
      folder,
      dataRoot: this.dataRoot,
      reach: this.reach,
      commands: this.options.commands,
      sandbox: this.sandbox,
      changes: this.options.changes,
      emit: (event) => {
        if (workspace && this.workspaces.has(workspace.id))
          this.emit({ ...event, workspaceId: workspace.id });
      },
      onChangesDropped: (commandIds) => {
        for (const chat of this.chats.values()) {
          if (chat.workspace === workspace) chat.session.changesDropped(commandIds);
        }
      },
    });
    try {
      this.workspaces.set(workspace.id, workspace);
      this.emitWorkspaces();
      await this.openChat(workspace, { kind: "new" });
      void this.worktrees.cleanup(workspace);
    } catch (error) {
      this.workspaces.delete(workspace.id);
      await workspace.close();
      this.emitWorkspaces();
      throw error;
    }
    return workspace.info;
  }

  /** Opens a chat in the workspace (or a worktree of it) beside those open; the page is told with its summary. */
  private async openChat(
    workspace: DeskWorkspace,
    /** The session to open; or made once the chat's folder is there (a fork into a new worktree). */
    choice: SessionChoice | ((folder: string) => Promise<SessionChoice>),
    worktree?: WorktreeChoice,
  ): Promise<DeskChat> {
    const id = randomUUID();
    let chat: DeskChat | undefined;
    const folder = worktree ? await this.worktrees.open(workspace, worktree, () => chat) : undefined;
    const open =
      typeof choice === "function"
        ? await choice(folder?.worktree.path ?? workspace.info.path).catch(async (error: unknown) => {
            if (folder) await this.worktrees.abandon(workspace, folder);
            throw error;
          })
        : choice;
    const session = await openWorkspaceSession({
      ...(folder ? { folder: folder.chatFolder() } : {}),
      workspace: workspace.info,
      parts: workspace.parts,
      models: this.models,
      open,
      sandbox: this.sandbox,
      hiddenPaths: [this.models.agentDir, this.dataRoot],
      runRegistry: this.runRegistry,
      ...(this.options.openExternal ? { openExternal: this.options.openExternal } : {}),
      mcpSignedIn: (server) => {
        for (const other of this.chats.values())
          if (other.id !== id) void other.session.mcpServers.signedInElsewhere(server);
      },
      // Events of a chat still opening, or closed, reach no page: its state is sent whole once it is open.
      emit: (event) => {
        if (chat && this.chats.get(id) === chat) this.emitChat(chat, event);
      },
    }).catch(async (error: unknown) => {
      if (folder) await this.worktrees.abandon(workspace, folder);
      throw error;
    });
    chat = { id, workspace, session, openedAt: Date.now(), sentSummary: "", ...(folder ? { folder } : {}) };
    this.chats.set(id, chat);
    this.lastOpened = id;
    this.sendSummary(chat);
    this.worktrees.started(chat);
    return chat;
  }

  /** Closes a chat: what waits is cancelled, what runs is stopped, and late decisions are told why. */
  private async closeChat(chat: DeskChat): Promise<void> {
    this.inbox.chatClosed(chat.id, this.summaryOf(chat).title || "new chat", this.inbox.entries([chat]));
    this.chats.delete(chat.id);
    this.emit({ type: "chat-closed", chatId: chat.id });
    await chat.session.dispose("chat-closed");
    await chat.folder?.close();
  }

  /** Closes a workspace: its chats first, as each is closed alone, then the folder is given up. */
  private async closeWorkspace(workspace: DeskWorkspace): Promise<void> {
    for (const chat of [...this.chats.values()]) {
      if (chat.workspace === workspace) await this.closeChat(chat);
    }
    this.workspaces.delete(workspace.id);
    this.emitWorkspaces();
    await workspace.close();
  }

  /** Sends a chat's event, then its summary when the event changed it. */
  private emitChat(chat: DeskChat, event: ChatEventBody): void {
    this.inbox.follow(chat.id, event);
    this.emit({ ...event, chatId: chat.id });
    // Deltas and output change only the last line, many times a second: the summary follows at the entry's end.
    if (event.type !== "assistant-delta" && event.type !== "command-output") this.sendSummary(chat);
  }

  private sendSummary(chat: DeskChat): void {
    const summary = this.summaryOf(chat);
    const text = JSON.stringify(summary);
    if (text === chat.sentSummary) return;
    chat.sentSummary = text;
    this.emit({ type: "chat-summary", summary });
  }

  private summaryOf(chat: DeskChat): ChatSummary {
    return chatSummary(placeOf(chat), chat.session);
  }

  /** The chat a state holds in full: the one asked for, else the one last opened, else the newest. */
  private shownChat(chatId: string | undefined): DeskChat | undefined {
    const asked = chatId === undefined ? undefined : this.chats.get(chatId);
    const last = this.lastOpened === undefined ? undefined : this.chats.get(this.lastOpened);
    return asked ?? last ?? [...this.chats.values()].at(-1);
  }

  /** The open workspaces changed: the list, as the state has it. */
  private emitWorkspaces(): void {
    this.emit({ type: "workspaces-changed", workspaces: this.workspaceList() });
  }

  private workspaceList(): WorkspaceInfo[] {
    return [...this.workspaces.values()].map((workspace) => workspace.info);
  }

  /** A workspace setting changed: each of its chats is told the limits its commands run under now. */
  private emitLimits(workspace: DeskWorkspace): void {
    for (const chat of this.chats.values()) {
      if (chat.workspace === workspace)
        this.emitChat(chat, { type: "limits-changed", limits: chat.session.limits });
    }
  }

  private requireWorkspace(workspaceId: string): DeskWorkspace {
    const workspace = this.workspaces.get(workspaceId);
    if (!workspace) {
      throw new Error(
        `No workspace is open under id "${workspaceId}": it was closed, or the host restarted. Open the folder again.`,
      );
    }
    return workspace;
  }

  private requireChat(chatId: string): DeskChat {
    const chat = this.chats.get(chatId);
    if (!chat) {
      throw new Error(
        `No chat is open under id "${chatId}": it was closed, or the host restarted. Pick a chat from the list, or start a new one.`,
      );
    }
    return chat;
  }

  private emit(body: HostEventBody): void {
    const event = { ...body, seq: ++this.seq } as HostEvent;
    for (const listener of this.listeners) listener(event);
  }
}
