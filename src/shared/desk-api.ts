import type { BranchPreview, BranchSwitchResult, ForkWhere } from "./branches";
import type { FileDiff, RestorePreview, RevertResult } from "./changes";
import type { ApprovalDecision, CommandOutputReply } from "./commands";
import type { EditDecision } from "./edits";
import type { HostEvent } from "./host-events";
import type {
  ChatSummary,
  FoundFiles,
  HostState,
  QueueMode,
  SessionSummary,
  SlashCommand,
  StopOutcome,
  WorkspaceInfo,
} from "./host-state";
import type { PromptImage } from "./images";
import type { McpDecision } from "./mcp";
import type { ThinkingLevel } from "./models";
import type { AllowedHostsSaved } from "./network";
import type { RewindPreview, RewindResult, RewindUndoResult } from "./rewind";
import type { AuditEntry, CommandRule, RuleDraft } from "./rules";
import type {
  BringResult,
  KeptBranch,
  WorktreeChoice,
  WorktreeEntry,
  WorktreeReview,
  WorktreeSettings,
  WorktreeSettingsState,
} from "./worktrees";

/** Stops a subscription. */
export type Unsubscribe = () => void;

/**
 * Every call the UI may make to the host. Both shells implement it: Electron through the preload bridge,
 * the browser host over its WebSocket. Each call carries at most one parameter object, validated by the
 * host against `requestSchemas` before anything happens.
 */
export interface DeskApi {
  /**
   * The host's whole state now, holding `chatId`'s chat in full (else the newest); the UI rebuilds itself
   * from it after a reload, a reconnect, a gap in the events, or to show another chat.
   */
  getState(params?: { chatId?: string }): Promise<HostState>;
  /** Ask the person for a folder and open it; null when they cancel. Only where `canChooseWorkspace`. */
  chooseWorkspace(): Promise<WorkspaceInfo | null>;
  /**
   * Open the folder at an absolute path as a workspace, beside those open, with a new chat in it (a workspace
   * already open is returned as it is).
   */
  openWorkspace(params: { path: string }): Promise<WorkspaceInfo>;
  /** The workspace's past conversations, newest first. */
  listSessions(params: { workspaceId: string }): Promise<SessionSummary[]>;
  /**
   * Start a new chat beside the chats already open: in the workspace's folder, or with `worktree` in a git
   * worktree of its own (a new one on a `pi-desk/` branch from `base`, or an existing one by `path`).
   */
  newSession(params: { workspaceId: string; worktree?: WorktreeChoice }): Promise<ChatSummary>;
  /** Every worktree of the workspace's repository (`git worktree list`), the open chat of each named. */
  listWorktrees(params: { workspaceId: string }): Promise<WorktreeEntry[]>;
  /** The workspace's worktree settings, with the finished chats' worktrees cleanup left for the person. */
  worktreeSettings(params: { workspaceId: string }): Promise<WorktreeSettingsState>;
  /**
   * Change the workspace's worktree settings (kept for the workspace; from the next worktree chat on). Refused,
   * saying what to do, for a folder that is not absolute or lies inside the workspace or Pi's agent folder.
   */
  setWorktreeSettings(params: {
    workspaceId: string;
    settings: WorktreeSettings;
  }): Promise<WorktreeSettingsState>;
  /** Everything a worktree chat changed against its base, file by file with the diff. */
  reviewWorktree(params: { chatId: string }): Promise<WorktreeReview>;
  /**
   * Apply a worktree chat's whole change to the workspace's checkout as uncommitted changes, all or nothing:
   * when any file conflicts with the workspace's own state, nothing is applied and each such file is listed.
   */
  bringIntoWorkspace(params: { chatId: string }): Promise<BringResult>;
  /** Commit a worktree chat's uncommitted work on its branch, remove its worktree, keep the branch; the chat closes. */
  keepBranch(params: { chatId: string; message?: string }): Promise<KeptBranch>;
  /** Remove a worktree chat's worktree and its branch, with all their work (the page confirms first); the chat closes. */
  discardWorktree(params: { chatId: string }): Promise<void>;
  /** Reopen a past conversation of the workspace by its session file (the open chat when it is open already). */
  openSession(params: { workspaceId: string; path: string }): Promise<ChatSummary>;
  /** Close a chat: what it runs is stopped, what waits is cancelled; its conversation stays in its session file. */
  closeChat(params: { chatId: string }): Promise<void>;
  /**
   * Close a workspace: each of its chats is closed as `closeChat` closes one, and the folder is given up (its
   * lock released, so another Pi Desk may open it). Its rules, audit log and chats stay on disk.
   */
  closeWorkspace(params: { workspaceId: string }): Promise<void>;
  /**
   * Send the person's message; resolves once the agent has it (the answer streams as events). While the
   * agent works, the message waits (`HostState.session.queued`): `mode` "steer" (the default) reaches the
   * model after the tool call under way, "follow-up" once the agent is done. `images` go with a message
   * sent while the agent is idle, to a model that reads images; otherwise the call is refused, saying why.
   */
  prompt(params: { chatId: string; text: string; mode?: QueueMode; images?: PromptImage[] }): Promise<void>;
  /** The images of one of the person's messages, by its entry in Pi's session, as the model got them. */
  messageImages(params: { chatId: string; entryId: string }): Promise<PromptImage[]>;
  /**
   * Compact the chat's conversation with Pi's compaction: the model is given a summary of what came before
   * (following `instructions`, when given) instead of the messages. Refused while the agent works.
   */
  compact(params: { chatId: string; instructions?: string }): Promise<void>;
  /**
   * The composer's `/` commands for the chat: Pi's prompt templates and skills where Pi loads them (the
   * workspace's own only where it is trusted), then Pi Desk's own.
   */
  listSlashCommands(params: { chatId: string }): Promise<SlashCommand[]>;
  /**
   * Connect one of the chat's MCP servers again (after fixing its mcp.json entry, or a server that ended);
   * its state comes as `mcp-servers-changed`. Refused for a name the chat has no server of.
   */
  reconnectMcpServer(params: { chatId: string; name: string }): Promise<void>;
  /**
   * Sign in to one of the chat's OAuth MCP servers with Pi's own flow. Resolves once the authorization page's
   * URL is in the server's `signingIn` (the desktop app opens it in the system browser), or at once when Pi
   * signed in with stored credentials. The browser's redirect reaches Pi's loopback callback, or the person
   * pastes it (`pasteMcpRedirectUrl`); then the server connects in this chat. One sign-in at a time per chat.
   */
  signInMcpServer(params: { chatId: string; name: string }): Promise<void>;
  /** The URL the browser was redirected to at the end of a sign-in, pasted where it could not reach Pi's callback. */
  pasteMcpRedirectUrl(params: { chatId: string; name: string; url: string }): Promise<void>;
  /** Gives up a sign-in under way. */
  cancelMcpSignIn(params: { chatId: string; name: string }): Promise<void>;
  /** Signs out of an OAuth MCP server: Pi deletes its stored credentials, and the server needs sign-in again. */
  signOutMcpServer(params: { chatId: string; name: string }): Promise<void>;
  /**
   * The composer's `@` finder: the chat folder's files and folders best matching `query` (its characters in
   * order, ignoring case), as Pi's read tools see the folder. The folder is listed at the first call and
   * matched in memory after; `fresh` (the menu just opened) lists it again unless it was just listed.
   */
  findFiles(params: { chatId: string; query: string; fresh?: boolean }): Promise<FoundFiles>;
  /** Name the chat (Pi's session name, as `/name` in the pi command line): the sidebar and past chats show it. */
  renameChat(params: { chatId: string; name: string }): Promise<void>;
  /** Take back a message still waiting to reach the model: the `index`-th of its mode in `queued`. */
  removeQueued(params: { chatId: string; mode: QueueMode; index: number }): Promise<void>;
  /**
   * Stop the chat's turn: every pending command is cancelled and every running one killed; messages still
   * waiting are not sent, and come back in the outcome.
   */
  stop(params: { chatId: string }): Promise<StopOutcome>;
  /**
   * Decide a pending command or file edit by the id the host issued (a command takes an `ApprovalDecision`,
   * an edit an `EditDecision`). `rule` also makes an "always allow" (or deny) rule. An unknown, already
   * decided or expired id is refused, and so is a decision that carries another kind's fields.
   */
  decide(params: {
    approvalId: string;
    decision: ApprovalDecision | EditDecision | McpDecision;
    rule?: RuleDraft;
  }): Promise<void>;
  /** Cancel one running (or pending) command, and only that one; a background command is stopped. */
  cancelCommand(params: { chatId: string; commandId: string }): Promise<void>;
  /**
   * A command's output as its card shows it, for a card whose state left it out (`deferredOutput`); refused
   * when the chat is not open (it was closed meanwhile) or it has no such command.
   */
  commandOutput(params: { chatId: string; commandId: string }): Promise<CommandOutputReply>;
  /** A piece of a command's saved full output, from `offset` (bytes). */
  readFullOutput(params: { chatId: string; commandId: string; offset?: number }): Promise<FullOutputChunk>;
  /** Use this model in the chat from its next message on. */
  setModel(params: { chatId: string; provider: string; id: string }): Promise<void>;
  /** Set how hard the chat's model thinks. */
  setThinkingLevel(params: { chatId: string; level: ThinkingLevel }): Promise<void>;
  /** Give a provider's API key; kept by the OS keychain in the desktop app, in memory in the browser host. */
  setApiKey(params: { provider: string; key: string }): Promise<void>;
  /** Make a rule: for the chat (scope "session"), or for every chat of its workspace (scope "workspace"). */
  addRule(params: RuleDraft & { chatId: string }): Promise<CommandRule>;
  /** Change one of the chat's rules or its workspace's. */
  updateRule(params: { chatId: string; id: string; rule: RuleDraft }): Promise<CommandRule>;
  /** Remove one of the chat's rules or its workspace's. */
  removeRule(params: { chatId: string; id: string }): Promise<void>;
  /** Turn the sandbox on or off for this workspace, and its network (kept for the workspace). */
  setSandbox(params: { workspaceId: string; enabled: boolean; network: boolean }): Promise<void>;
  /**
   * Set the hosts this workspace's sandboxed commands may reach by name (kept for the workspace); the whole
   * list is refused, with each bad entry's problem, when any entry is not valid. From the next command on.
   */
  setAllowedHosts(params: { workspaceId: string; hosts: string[] }): Promise<AllowedHostsSaved>;
  /** Add hosts to the workspace's allowed hosts (a card's "Allow for this workspace"), checked as `setAllowedHosts`. */
  addAllowedHosts(params: { workspaceId: string; hosts: string[] }): Promise<AllowedHostsSaved>;
  /** Move a running command to the background: it is not stopped at its timeout but runs on to the cap. */
  keepRunning(params: { chatId: string; commandId: string }): Promise<void>;
  /** How long a background command may run in this workspace, in seconds (kept for the workspace). */
  setBackgroundCap(params: { workspaceId: string; seconds: number }): Promise<void>;
  /**
   * Turn one of the person's MCP servers off (or on again) in this workspace, kept in its settings.json: the
   * workspace's chats opened from then on do not start it (on: they do).
   */
  setMcpServerEnabled(params: { workspaceId: string; name: string; enabled: boolean }): Promise<void>;
  /**
   * Turn Pi's codemode and tool_search on (or off) in this workspace, kept in its settings.json; off by
   * default. From each chat's next start: on, a script or a search is a request at the gate and each tool
   * call a script makes waits too; the servers' configured exposure holds. Off: every MCP tool is direct.
   */
  setScriptsEnabled(params: { workspaceId: string; enabled: boolean }): Promise<void>;
  /**
   * Set the most memory (bytes) and processes each command of this workspace may use (kept for the
   * workspace); an absent one goes back to the host's. Refused, saying what to do, below the smallest
   * (`MIN_RESOURCE_LIMITS`). From the next command on; a `limits-changed` event tells the new limits.
   */
  setResourceLimits(params: {
    workspaceId: string;
    memoryBytes?: number;
    processes?: number;
    /** The most the workspace's background commands may use together, memory in bytes; absent: the host's. */
    backgroundMemoryBytes?: number;
    /** The most processes and threads they may have together; absent: the host's. */
    backgroundProcesses?: number;
  }): Promise<void>;
  /** The workspace's command decisions from the audit log, newest first, optionally filtered by text. */
  getHistory(params: { workspaceId: string; query?: string; limit?: number }): Promise<AuditEntry[]>;
  /** Turn notifications of commands waiting for approval on or off (kept across restarts). */
  setNotifications(params: { enabled: boolean }): Promise<void>;
  /** The unified diff of one file a finished command changed (bounded: `truncated` says when it was cut). */
  commandDiff(params: { chatId: string; commandId: string; path: string }): Promise<FileDiff>;
  /**
   * Put back every file a finished command changed. Files changed again since are conflicts, left alone
   * unless named in `undoAnyway`. Refused while a command runs.
   */
  undoCommand(params: { chatId: string; commandId: string; undoAnyway?: string[] }): Promise<RevertResult>;
  /** Every file that putting the whole workspace back to its state before a command would change. */
  previewRestore(params: { chatId: string; commandId: string }): Promise<RestorePreview>;
  /** Apply a restore preview; files changed since the preview are conflicts unless named in `undoAnyway`. */
  restoreWorkspace(params: {
    chatId: string;
    previewId: string;
    undoAnyway?: string[];
  }): Promise<RevertResult>;
  /**
   * What rewinding the chat to before the person's message `entryId` would do: each file a later command or
   * edit of the chat changed (restored, kept, not recorded) and the commands of that part still running.
   */
  rewindPreview(params: { chatId: string; entryId: string }): Promise<RewindPreview>;
  /**
   * Rewind the chat to before the person's message `entryId`: stops that part's commands, records the files as
   * they are, puts back what the part changed (files changed since are kept), moves the conversation (Pi's
   * `navigateTree`). With `text`, sends it as the message in its place (edit and resend).
   */
  rewind(params: { chatId: string; entryId: string; text?: string }): Promise<RewindResult>;
  /** "Back to where I was": takes the chat's last rewind back, files (unless changed since) and conversation. */
  rewindUndo(params: { chatId: string }): Promise<RewindUndoResult>;
  /**
   * "Fork from here": a new chat in the same folder from Pi's fork of this chat's session, standing before the
   * person's message `entryId` (the files are not touched); the message's text comes back for its composer.
   */
  forkChat(params: {
    chatId: string;
    entryId: string;
    /** Where the new chat's files are: the same folder (the default), or a new worktree as they were before the message. */
    where?: ForkWhere;
  }): Promise<ForkResult>;
  /**
   * What switching the chat to another branch (`entryId`: the branch's first message of the person, from
   * `SessionState.branches`) would do to the files, and the commands of this branch stopped first.
   */
  branchPreview(params: { chatId: string; entryId: string }): Promise<BranchPreview>;
  /**
   * Switch the chat to another branch: stops this branch's commands, brings the files to how that branch left
   * them (files changed since are kept), and moves the conversation to the branch's last entry (Pi's `navigateTree`).
   */
  switchBranch(params: { chatId: string; entryId: string }): Promise<BranchSwitchResult>;
  /** Receive every event the host pushes, in order. */
  onHostEvent(listener: (event: HostEvent) => void): Unsubscribe;
}

/** What "Fork from here" made. */
export interface ForkResult {
  /** The new chat (open, and the one the host's state now holds). */
  chat: ChatSummary;
  /** The message's text, for the new chat's composer. */
  text: string;
}

/** A piece of a saved full output. */
export interface FullOutputChunk {
  /** The text of this piece (invalid UTF-8 replaced). */
  text: string;
  /** Where the next piece starts, in bytes. */
  nextOffset: number;
  /** The file's size in bytes. */
  totalBytes: number;
  /** The file's path, to open it elsewhere. */
  path: string;
}

/** The request-response calls of `DeskApi` (everything but the event subscription). */
export type DeskMethod = Exclude<keyof DeskApi, "onHostEvent">;

/** Every call by name, for the shells that pass them on one by one (the preload, the WebSocket client). */
export const DESK_METHODS = [
  "getState",
  "chooseWorkspace",
  "openWorkspace",
  "listSessions",
  "newSession",
  "listWorktrees",
  "worktreeSettings",
  "setWorktreeSettings",
  "reviewWorktree",
  "bringIntoWorkspace",
  "keepBranch",
  "discardWorktree",
  "openSession",
  "closeChat",
  "closeWorkspace",
  "prompt",
  "removeQueued",
  "compact",
  "listSlashCommands",
  "reconnectMcpServer",
  "signInMcpServer",
  "pasteMcpRedirectUrl",
  "cancelMcpSignIn",
  "signOutMcpServer",
  "findFiles",
  "messageImages",
  "renameChat",
  "stop",
  "decide",
  "cancelCommand",
  "commandOutput",
  "readFullOutput",
  "setModel",
  "setThinkingLevel",
  "setApiKey",
  "addRule",
  "updateRule",
  "removeRule",
  "setSandbox",
  "setAllowedHosts",
  "addAllowedHosts",
  "keepRunning",
  "setBackgroundCap",
  "setMcpServerEnabled",
  "setScriptsEnabled",
  "setResourceLimits",
  "getHistory",
  "setNotifications",
  "commandDiff",
  "undoCommand",
  "previewRestore",
  "restoreWorkspace",
  "rewindPreview",
  "rewind",
  "rewindUndo",
  "forkChat",
  "branchPreview",
  "switchBranch",
] as const satisfies readonly DeskMethod[];

// A method added to DeskApi but not to DESK_METHODS fails to compile here.
const everyMethodListed: Exclude<DeskMethod, (typeof DESK_METHODS)[number]> extends never ? true : false =
  true;
void everyMethodListed;

/** The parameter a call takes (undefined for calls without one). */
export type DeskParams<M extends DeskMethod> = Parameters<DeskApi[M]>[0];
/** What a call resolves to. */
export type DeskResult<M extends DeskMethod> = Awaited<ReturnType<DeskApi[M]>>;

/** Why the host refused or failed a call. */
export type DeskErrorCode = "unknown-method" | "invalid-params" | "unavailable" | "failed";

/** An error the host sends back instead of a result: a sentence for the person, and a code for the UI. */
export interface DeskError {
  /** What kind of failure it was. */
  code: DeskErrorCode;
  /** What happened and what to do, in words a person can act on. */
  message: string;
}

/** Electron IPC: every channel starts with this prefix; the main process refuses any other. */
export const IPC_PREFIX = "pi-desk:";
/** Electron IPC: the channel a call travels on. */
export const requestChannel = (method: DeskMethod): string => `${IPC_PREFIX}${method}`;
/** Electron IPC: the channel host events travel on. */
export const HOST_EVENT_CHANNEL = `${IPC_PREFIX}host-event`;
