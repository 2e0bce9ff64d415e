import type { ChangesState } from "./changes";
import type { CommandView } from "./commands";
import type { EditView } from "./edits";
import type { ModelsState } from "./models";
import type { CommandRule } from "./rules";
import type { TranscriptItem } from "./transcript";

/** The folder the person works in; every command runs here. */
export interface WorkspaceInfo {
  /** Absolute path of the folder. */
  path: string;
  /** The folder's own name, for titles and labels. */
  name: string;
}

/** Which shell hosts the core: the Electron app, or the loopback browser host. */
export type ShellKind = "electron" | "browser";

/** Everything the UI needs to draw itself from nothing: after a reload or a reconnect it starts here. */
export interface HostState {
  /** The open workspace, or null before one is chosen. */
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
}
