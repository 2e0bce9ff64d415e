import type { ChangesState } from "./changes";
import type { CommandView } from "./commands";
import type { EditView } from "./edits";
import type {
  ChatSummary,
  CommandLimits,
  ContextState,
  QueuedMessage,
  SavedOutputsState,
  SessionState,
  WorkspaceInfo,
} from "./host-state";
import type { McpCallView, McpServersState } from "./mcp";
import type { ModelsState } from "./models";
import type { CommandRule } from "./rules";
import type { TranscriptItem } from "./transcript";

/** The agent started or finished working. */
export interface SessionStatusEvent {
  type: "session-status";
  /** Whether it is working now. */
  running: boolean;
}

/** A new entry at the end of the conversation. */
export interface TranscriptAddEvent {
  type: "transcript-add";
  /** The entry. */
  item: TranscriptItem;
}

/** An entry changed (a message finished, a tool ended): replace the entry with this id. */
export interface TranscriptUpdateEvent {
  type: "transcript-update";
  /** The entry as it is now. */
  item: TranscriptItem;
}

/** Streamed text of an assistant message, to append. */
export interface AssistantDeltaEvent {
  type: "assistant-delta";
  /** The assistant entry's id. */
  id: string;
  /** Text to append to the answer. */
  text?: string;
  /** Text to append to the thinking. */
  thinking?: string;
}

/** A command was asked for, decided, started or ended: replace the command with this id. */
export interface CommandUpdateEvent {
  type: "command-update";
  /** The command as it is now. */
  command: CommandView;
}

/** A file edit was asked for, decided or ended: replace the edit with this id. */
export interface EditUpdateEvent {
  type: "edit-update";
  /** The edit as it is now. */
  edit: EditView;
}

/** A chat's MCP servers changed: one connected, failed or ended (replaces `SessionState.mcp`). */
export interface McpServersChangedEvent {
  type: "mcp-servers-changed";
  /** The servers as they are now. */
  mcp: McpServersState;
}

/** A call to an MCP tool was asked for, decided, started or ended: replace the call with this id. */
export interface McpCallUpdateEvent {
  type: "mcp-call-update";
  /** The call as it is now. */
  call: McpCallView;
}

/** A running command's output so far (at most about ten a second per command). */
export interface CommandOutputEvent {
  type: "command-output";
  /** The command's id. */
  id: string;
  /** The tail of its output (replaces the previous tail). */
  output: string;
  /** Bytes printed so far. */
  totalBytes: number;
  /** Lines printed so far. */
  totalLines: number;
}

/** The rules in force changed. */
export interface RulesChangedEvent {
  type: "rules-changed";
  /** All of them, as they are now. */
  rules: CommandRule[];
  /** Why the workspace's rules file could not be read, when it could not (see `HostState.rulesProblem`). */
  problem?: string;
}

/** The models or the choice in force changed. */
export interface ModelsChangedEvent {
  type: "models-changed";
  /** The models as they are now. */
  models: ModelsState;
}

/**
 * A setting of the chat's workspace changed (the sandbox, its network, the allowed hosts, the background
 * cap, the resource limits): the limits the chat's commands run under from its next command on. Sent to
 * each chat of the workspace.
 */
export interface LimitsChangedEvent {
  type: "limits-changed";
  /** The limits as they are now (they replace `HostState.limits`). */
  limits: CommandLimits;
}

/** The messages waiting to reach the model changed: one was sent while the agent works, delivered, or taken back. */
export interface QueueChangedEvent {
  type: "queue-changed";
  /** Those waiting now, in order (they replace `SessionState.queued`). */
  queued: QueuedMessage[];
}

/** The context's fill or the chat's cost changed: after an answer, a compaction, another model. */
export interface ContextChangedEvent {
  type: "context-changed";
  /** The figures now (they replace `SessionState.context`). */
  context: ContextState;
}

/** A command's saved output was completed, or old ones were removed to make room: the new figures. */
export interface SavedOutputsEvent {
  type: "saved-outputs";
  /** The figures as they are now (they replace `HostState.limits.savedOutputs`). */
  savedOutputs: SavedOutputsState;
}

/** Recording changes turned on or off, or its records grew or were pruned: the new figures. */
export interface ChangesStateEvent {
  type: "changes-state";
  /** The figures as they are now (they replace `HostState.limits.changes`). */
  changes: ChangesState;
}

/** Notifications of waiting commands were turned on or off. */
export interface NotificationsChangedEvent {
  type: "notifications-changed";
  /** Whether they are on now. */
  enabled: boolean;
}

/**
 * Show and focus a command's card: the person clicked the OS notification about it. Only the shell that
 * raised the notification sends it, to its own window; it changes no state.
 */
export interface FocusCommandEvent {
  type: "focus-command";
  /** The chat the command belongs to (the page shows it first). */
  chatId: string;
  /** The command's id. */
  id: string;
}

/**
 * Show a view: the person chose it in the desktop app's menu (Settings, Running commands). Only the Electron
 * shell sends it, to its own window; it changes no state.
 */
export interface ShowViewEvent {
  type: "show-view";
  /**
   * "settings": the Settings view; "running": the panel of the chat's background commands; "new-chat": a new
   * chat in the workspace the page shows.
   */
  view: "settings" | "running" | "new-chat";
}

/** A chat opened, or its name, state, waiting count or last line changed: replace its summary. */
export interface ChatSummaryEvent {
  type: "chat-summary";
  /** The chat as the sidebar shows it now. */
  summary: ChatSummary;
}

/** A chat was closed: it leaves the sidebar, and its cards leave the inbox. */
export interface ChatClosedEvent {
  type: "chat-closed";
  /** The closed chat's id. */
  chatId: string;
}

/** A workspace was opened or closed: the open ones now. */
export interface WorkspacesChangedEvent {
  type: "workspaces-changed";
  /** Every open workspace, in the order they were opened. */
  workspaces: WorkspaceInfo[];
}

/**
 * The chat's conversation moved on Pi's session tree (a rewind, or back from one): its state whole, which
 * replaces `HostState.session`.
 */
export interface SessionReplacedEvent {
  type: "session-replaced";
  /** The conversation as it stands now. */
  session: SessionState;
}

/** What happens in one chat; the host stamps the chat's id on it (`chatId`). */
export type ChatEventBody =
  | SessionStatusEvent
  | TranscriptAddEvent
  | TranscriptUpdateEvent
  | AssistantDeltaEvent
  | CommandUpdateEvent
  | CommandOutputEvent
  | EditUpdateEvent
  | RulesChangedEvent
  | ModelsChangedEvent
  | LimitsChangedEvent
  | QueueChangedEvent
  | ContextChangedEvent
  | McpServersChangedEvent
  | McpCallUpdateEvent
  | SessionReplacedEvent;

/** What happens to one workspace, whichever chat caused it; the host stamps its id on it (`workspaceId`). */
export type WorkspaceEventBody = SavedOutputsEvent | ChangesStateEvent;

/** The host's own events, about no single chat or workspace. */
export type HostWideEventBody =
  | NotificationsChangedEvent
  | ChatSummaryEvent
  | ChatClosedEvent
  | WorkspacesChangedEvent;

/** A chat event as it leaves the host: it names its chat. */
export type ChatEvent = ChatEventBody & {
  /** The chat it happened in: the id the host issued when the chat opened. */
  chatId: string;
};
/** A workspace event as it leaves the host: it names its workspace. */
export type WorkspaceEvent = WorkspaceEventBody & {
  /** The workspace it happened to. */
  workspaceId: string;
};

/** An event before the host numbers it. */
export type HostEventBody = ChatEvent | WorkspaceEvent | HostWideEventBody;

/**
 * Sent by a shell to its own window only, never through the host's numbered stream: they change no state
 * (a click on an OS notification, a menu item).
 */
export type ShellEvent = FocusCommandEvent | ShowViewEvent;

/**
 * Everything the host pushes to the UI, discriminated by `type`. Each event of the host's stream carries
 * `seq`, one more than the one before; the state carries the last one it holds, so the page drops what the
 * state already holds and asks again when it sees a gap.
 */
export type HostEvent =
  | (HostEventBody & { /** Its place in the host's stream, from 1. */ seq: number })
  | ShellEvent;
