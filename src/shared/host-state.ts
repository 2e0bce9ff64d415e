import type { BranchPoint } from "./branches";
import type { ChangesState } from "./changes";
import type { CommandView, ResourceLimitsLayer } from "./commands";
import type { EditView } from "./edits";
import type { McpCallView, McpServersState } from "./mcp";
import type { ModelsState } from "./models";
import type { RewoundState } from "./rewind";
import type { CommandRule } from "./rules";
import type { TranscriptItem } from "./transcript";

/** A folder the person works in: a repository, with its rules, audit log, settings and chats. */
export interface WorkspaceInfo {
  /** The id the host issued when it opened the workspace; workspace calls name it. */
  id: string;
  /** Absolute path of the folder. */
  path: string;
  /** The folder's own name, for titles and labels. */
  name: string;
}

/** Which shell hosts the core: the Electron app, or the loopback browser host. */
export type ShellKind = "electron" | "browser";

/**
 * Everything the UI needs to draw itself from nothing: after a reload or a reconnect it starts here. Every
 * chat is listed as a summary; one chat, the one the page shows, is held in full (`chatId`, and `session`,
 * `workspace`, `limits`, `models` and `rules` are that chat's).
 */
export interface HostState {
  /** The last event of the host's stream this state holds (0 before any). */
  seq: number;
  /** Every open workspace, in the order they were opened. */
  workspaces: WorkspaceInfo[];
  /** Every open chat of every workspace, in the order they were opened. */
  chats: ChatSummary[];
  /** Every command and file edit waiting for the person, in every chat, oldest first. */
  inbox: InboxEntry[];
  /** The chat held in full (the one asked for, else the newest); null when no chat is open. */
  chatId: string | null;
  /** The workspace of the chat held in full, or null before one is open. */
  workspace: WorkspaceInfo | null;
  /** The shell the host runs in. */
  shell: ShellKind;
  /** Whether `chooseWorkspace` can ask the person for a folder (the browser host has no folder dialog). */
  canChooseWorkspace: boolean;
  /** Pi Desk's version, shown in the UI and in bug reports. */
  version: string;
  /**
   * The host's clock when it made this state (ms since the epoch). Times in the state are the host's (a
   * command's start, a retry's moment); the page measures its own clock against this, so a countdown is
   * right even when the browser runs on a machine whose clock differs from the host's.
   */
  hostTime: number;
  /** The conversation with the agent, once a workspace is open. */
  session: SessionState | null;
  /** The limits every command runs under, once a workspace is open. */
  limits: CommandLimits | null;
  /** The models and the one in use. */
  models: ModelsState;
  /** The rules in force: this session's and the workspace's. */
  rules: CommandRule[];
  /** Why the workspace's rules file could not be read (its rules are then not in force), when it could not. */
  rulesProblem?: string;
  /** Whether a command that starts waiting while the window is not in front raises an OS notification. */
  notifications: boolean;
}

/** How a chat is doing, as its sidebar entry says. */
export type ChatActivity = "working" | "waiting" | "idle" | "failed";

/** One open chat as the sidebar lists it. */
export interface ChatSummary {
  /** The id the host issued when the chat opened; every chat call and event names it. */
  id: string;
  /** The workspace the chat belongs to. */
  workspaceId: string;
  /** The folder its commands run in (the workspace's, or a worktree's). */
  folder: string;
  /** Whether the folder is a git worktree of its own rather than the workspace's. */
  worktree: boolean;
  /** A worktree chat's branch (`pi-desk/<name>`, or the branch of a worktree made outside Pi Desk). */
  branch?: string;
  /** Its name (Pi's session name), else the start of its first message; empty for a new chat. */
  title: string;
  /** Working, waiting for the person, idle, or failed (its last turn ended in an error). */
  activity: ChatActivity;
  /** How many of its commands and edits wait for the person. */
  waiting: number;
  /** The start of its last message or entry, for the sidebar. */
  lastLine: string;
  /** When it was opened (ms since the epoch, host's clock). */
  openedAt: number;
  /** Pi's session file of the chat (Pi writes it once the chat has a message). */
  file?: string;
}

/** A command or file edit waiting for the person, with the chat it belongs to. */
export type InboxEntry =
  | {
      /** A command. */
      kind: "command";
      /** The chat it belongs to. */
      chatId: string;
      /** The command as its card shows it. */
      command: CommandView;
    }
  | {
      /** A file edit. */
      kind: "edit";
      /** The chat it belongs to. */
      chatId: string;
      /** The edit as its card shows it. */
      edit: EditView;
    }
  | {
      /** A call to an MCP tool. */
      kind: "mcp-call";
      /** The chat it belongs to. */
      chatId: string;
      /** The call as its card shows it. */
      call: McpCallView;
    };

/** The open conversation. */
export interface SessionState {
  /** Pi's session id. */
  id: string;
  /** The session file (continue it with the `pi` command line tool), once written. */
  file?: string;
  /** Whether the agent is working (a Stop button shows while it is). */
  running: boolean;
  /** The conversation, in order. */
  transcript: TranscriptItem[];
  /** Every `run_command` call of the session, by id. */
  commands: Record<string, CommandView>;
  /** Every `edit` and `write` call of the session, by id. */
  edits: Record<string, EditView>;
  /** The person's messages sent while the agent worked, waiting to reach the model, in order; absent: none. */
  queued?: QueuedMessage[];
  /** How full the model's context window is and what the chat has cost, as Pi counts them; absent: no model. */
  context?: ContextState;
  /** The person's MCP servers in this chat; absent: none configured. */
  mcp?: McpServersState;
  /** Every call to an MCP tool of the session, by id; absent: none. */
  mcpCalls?: Record<string, McpCallView>;
  /** The chat's last rewind, while "Back to where I was" can take it back; absent: none. */
  rewound?: RewoundState;
  /** Where the conversation shown branched on Pi's tree, and the other ways from there; absent: none. */
  branches?: BranchPoint[];
  /**
   * The project's folders of prompt templates and skills (`.pi/prompts`, `.pi/skills`, `.agents/skills`) not
   * loaded because the project is not trusted in Pi; absent: none skipped.
   */
  projectSkipped?: string[];
}

/** How full the model's context window is, and what the chat has cost, as Pi reports them. */
export interface ContextState {
  /** Tokens the context holds now; null while unknown (after a compaction, until the next answer). */
  usedTokens: number | null;
  /** The model's context window, in tokens. */
  window: number;
  /** What the chat has cost so far, in US dollars, where the provider reports it (0 where it does not). */
  costUsd: number;
}

/**
 * How a message sent while the agent works reaches it: `steer` after the tool call under way (Pi's
 * `steer`), `follow-up` once the agent is done with everything else (Pi's `followUp`).
 */
export type QueueMode = "steer" | "follow-up";

/** A message the person sent while the agent worked, not yet delivered to the model. */
export interface QueuedMessage {
  mode: QueueMode;
  text: string;
}

/**
 * A command the composer's `/` menu offers: one of Pi's prompt templates (`/name args`, expanded by Pi as
 * the `pi` command line expands it), one of Pi's skills (`/skill:name args`), or Pi Desk's own.
 */
export interface SlashCommand {
  /** What follows the slash: `review`, `skill:pdf-tools`, `compact`. */
  name: string;
  /** What it does, as its file (or Pi Desk) says. */
  description: string;
  /** What arguments it takes, when its file says (`[focus]`, `<file>`). */
  argumentHint?: string;
  kind: "template" | "skill" | "desk";
}

/** What the composer's `@` finder found in the chat's folder. */
export interface FoundFiles {
  /** The best matches, best first: paths relative to the chat's folder, a folder's ending in "/". */
  paths: string[];
  /** How many files and folders were searched. */
  searched: number;
  /** Whether the folder had more files than the finder lists (`searched` is its cap): it was searched in part. */
  capped: boolean;
}

/** What a Stop left: the messages that were waiting and were not sent (the page gives them back to edit). */
export interface StopOutcome {
  unsent: QueuedMessage[];
}

/** What the host enforces on every command, shown in settings. */
export interface CommandLimits {
  /** The binaries commands may run; empty means unrestricted. */
  allowedBinaries: string[];
  /** The timeout when the agent gives none, in seconds. */
  defaultTimeoutSeconds: number;
  /** The cap on any timeout, in seconds. */
  maxTimeoutSeconds: number;
  /** The names of the variables a command's environment holds (values are not shown). */
  environment: string[];
  /** How long a background command may run, in seconds (the workspace's choice, default 4 hours). */
  backgroundCapSeconds: number;
  /** How many commands may run in the background at once. */
  maxBackgroundCommands: number;
  /** The OS sandbox commands run in. */
  sandbox: SandboxState;
  /** The disk saved full outputs may take, and what they take now. */
  savedOutputs: SavedOutputsState;
  /** Whether what commands change is recorded (for undo), and the disk the records take. */
  changes: ChangesState;
  /** Each command's memory, processes and CPU share, and the layer that holds them (absent: an older host). */
  resources?: ResourceLimitsState;
}

/**
 * Why nothing limits commands: the host was started with limits off, Windows (no Job Object yet), or a system
 * without cgroups whose per-process memory limit is not enforced (macOS).
 */
export type NotLimitedCause = "off" | "windows" | "no-cgroups";

/** The memory and process limits of each command of a workspace, and what holds them on this machine. */
export interface ResourceLimitsState {
  /** The layer that holds them here. */
  layer: ResourceLimitsLayer;
  /** The host's words for the layer ("limits: cgroup v1", or what per-process limits leave open, or why none). */
  description: string;
  /** Where the layer is "none": why, for the page to word in its language (`description` says it in English). */
  notLimited?: NotLimitedCause;
  /** The most memory a command (every process it starts, together) may use, in bytes. */
  memoryBytes: number;
  /** The most processes and threads a command may have at once. */
  processes: number;
  /** Commands' CPU weight on cgroup v2's scale, where the app has 100; null where no weight holds. */
  cpuWeight: number | null;
  /** The host's limits, which hold where the workspace sets none. */
  defaults: { memoryBytes: number; processes: number };
  /** Whether the workspace set its own memory limit and process limit (else the host's hold), and its own total. */
  fromWorkspace: {
    memoryBytes: boolean;
    processes: boolean;
    backgroundMemoryBytes?: boolean;
    backgroundProcesses?: boolean;
  };
  /**
   * The most memory and processes the workspace's background commands may use together (all its chats');
   * absent where no layer can hold a total (per-process limits, or none).
   */
  backgroundTotal?: { memoryBytes: number; processes: number };
}

/**
 * Saved full outputs of the workspace's commands (kept in Pi Desk's data folder): each within a budget,
 * all of them within a quota, the oldest removed first to make room.
 */
export interface SavedOutputsState {
  /** The most one command's saved output takes, in bytes; past it the middle of the output is left out. */
  budgetBytes: number;
  /** The most the workspace's saved outputs take together, in bytes. */
  quotaBytes: number;
  /** Bytes they take now, outputs still being written included. */
  usedBytes: number;
  /** How many files that is. */
  files: number;
}

/** Which sandbox a platform uses: bubblewrap on Linux, Seatbelt on macOS, none elsewhere. */
export type SandboxKind = "bubblewrap" | "seatbelt" | "none";

/** The OS sandbox: whether this machine has one, and whether the workspace uses it. */
export interface SandboxState {
  /** Which sandbox this platform uses. */
  kind: SandboxKind;
  /** Whether it works here (the start-up check ran a sandboxed command). */
  available: boolean;
  /** What is missing and how to fix it, when it is not available. */
  problem?: string;
  /** Whether this workspace's commands run in it (on by default where available). */
  enabled: boolean;
  /** Whether they may use the network (otherwise only a command the person allows it for). */
  network: boolean;
  /** Hosts sandboxed commands may reach by name through Pi Desk's proxy (bubblewrap only); empty: none. */
  allowedHosts: string[];
}

/** A past conversation of the workspace. */
export interface SessionSummary {
  /** The session file. */
  path: string;
  /** Pi's session id. */
  id: string;
  /** Its name, or the first thing asked. */
  title: string;
  /** When it last changed (ms since the epoch). */
  modified: number;
  /** How many messages it holds. */
  messageCount: number;
  /** The worktree it ran in, for a worktree chat's conversation (it reopens there). */
  worktree?: string;
  /** That worktree's branch. */
  branch?: string;
}
