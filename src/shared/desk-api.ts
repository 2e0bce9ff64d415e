import type { FileDiff, RestorePreview, RevertResult } from "./changes";
import type { ApprovalDecision, CommandOutputReply } from "./commands";
import type { EditDecision } from "./edits";
import type { HostEvent } from "./host-events";
import type { HostState, SessionSummary, WorkspaceInfo } from "./host-state";
import type { ThinkingLevel } from "./models";
import type { AllowedHostsSaved } from "./network";
import type { AuditEntry, CommandRule, RuleDraft } from "./rules";

/** Stops a subscription. */
export type Unsubscribe = () => void;

/**
 * Every call the UI may make to the host. Both shells implement it: Electron through the preload bridge,
 * the browser host over its WebSocket. Each call carries at most one parameter object, validated by the
 * host against `requestSchemas` before anything happens.
 */
export interface DeskApi {
  /** The host's whole state now; the UI rebuilds itself from it after a reload or a reconnect. */
  getState(): Promise<HostState>;
  /** Ask the person for a folder and open it; null when they cancel. Only where `canChooseWorkspace`. */
  chooseWorkspace(): Promise<WorkspaceInfo | null>;
  /** Open the folder at an absolute path as the workspace. */
  openWorkspace(params: { path: string }): Promise<WorkspaceInfo>;
  /** The workspace's past conversations, newest first. */
  listSessions(): Promise<SessionSummary[]>;
  /** Start a new conversation in the workspace. */
  newSession(): Promise<void>;
  /** Reopen a past conversation of the workspace by its session file. */
  openSession(params: { path: string }): Promise<void>;
  /** Send the person's message; resolves once the agent has it (the answer streams as events). */
  prompt(params: { text: string }): Promise<void>;
  /** Stop the agent's turn: every pending command is cancelled and every running one killed. */
  stop(): Promise<void>;
  /**
   * Decide a pending command or file edit by the id the host issued (a command takes an `ApprovalDecision`,
   * an edit an `EditDecision`). `rule` also makes an "always allow" (or deny) rule. An unknown, already
   * decided or expired id is refused, and so is a decision that carries another kind's fields.
   */
  decide(params: {
    approvalId: string;
    decision: ApprovalDecision | EditDecision;
    rule?: RuleDraft;
  }): Promise<void>;
  /** Cancel one running (or pending) command, and only that one; a background command is stopped. */
  cancelCommand(params: { commandId: string }): Promise<void>;
  /**
   * A command's output as its card shows it, for a card whose state left it out (`deferredOutput`); refused
   * when `sessionId` is not the open chat (it was replaced meanwhile) or it has no such command.
   */
  commandOutput(params: { sessionId: string; commandId: string }): Promise<CommandOutputReply>;
  /** A piece of a command's saved full output, from `offset` (bytes). */
  readFullOutput(params: { commandId: string; offset?: number }): Promise<FullOutputChunk>;
  /** Use this model from the next message on. */
  setModel(params: { provider: string; id: string }): Promise<void>;
  /** Set how hard the model thinks. */
  setThinkingLevel(params: { level: ThinkingLevel }): Promise<void>;
  /** Give a provider's API key; kept by the OS keychain in the desktop app, in memory in the browser host. */
  setApiKey(params: { provider: string; key: string }): Promise<void>;
  /** Make a rule. */
  addRule(params: RuleDraft): Promise<CommandRule>;
  /** Change a rule. */
  updateRule(params: { id: string; rule: RuleDraft }): Promise<CommandRule>;
  /** Remove a rule. */
  removeRule(params: { id: string }): Promise<void>;
  /** Turn the sandbox on or off for this workspace, and its network (kept for the workspace). */
  setSandbox(params: { enabled: boolean; network: boolean }): Promise<void>;
  /**
   * Set the hosts this workspace's sandboxed commands may reach by name (kept for the workspace); the whole
   * list is refused, with each bad entry's problem, when any entry is not valid. From the next command on.
   */
  setAllowedHosts(params: { hosts: string[] }): Promise<AllowedHostsSaved>;
  /** Add hosts to the workspace's allowed hosts (a card's "Allow for this workspace"), checked as `setAllowedHosts`. */
  addAllowedHosts(params: { hosts: string[] }): Promise<AllowedHostsSaved>;
  /** Move a running command to the background: it is not stopped at its timeout but runs on to the cap. */
  keepRunning(params: { commandId: string }): Promise<void>;
  /** How long a background command may run in this workspace, in seconds (kept for the workspace). */
  setBackgroundCap(params: { seconds: number }): Promise<void>;
  /** The workspace's command decisions from the audit log, newest first, optionally filtered by text. */
  getHistory(params: { query?: string; limit?: number }): Promise<AuditEntry[]>;
  /** Turn notifications of commands waiting for approval on or off (kept across restarts). */
  setNotifications(params: { enabled: boolean }): Promise<void>;
  /** The unified diff of one file a finished command changed (bounded: `truncated` says when it was cut). */
  commandDiff(params: { commandId: string; path: string }): Promise<FileDiff>;
  /**
   * Put back every file a finished command changed. Files changed again since are conflicts, left alone
   * unless named in `undoAnyway`. Refused while a command runs.
   */
  undoCommand(params: { commandId: string; undoAnyway?: string[] }): Promise<RevertResult>;
  /** Every file that putting the whole workspace back to its state before a command would change. */
  previewRestore(params: { commandId: string }): Promise<RestorePreview>;
  /** Apply a restore preview; files changed since the preview are conflicts unless named in `undoAnyway`. */
  restoreWorkspace(params: { previewId: string; undoAnyway?: string[] }): Promise<RevertResult>;
  /** Receive every event the host pushes, in order. */
  onHostEvent(listener: (event: HostEvent) => void): Unsubscribe;
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
  "openSession",
  "prompt",
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
  "getHistory",
  "setNotifications",
  "commandDiff",
  "undoCommand",
  "previewRestore",
  "restoreWorkspace",
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
