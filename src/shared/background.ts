/** What a background command is, apart from the rest of the command contract (the page words its notices from it). */

/** Who or what ended a background command. */
export type BackgroundStopper =
  /** The person, with Stop. */
  | "person"
  /** The agent, with `stop_command`. */
  | "agent"
  /** The host's cap on how long a background command may run. */
  | "cap"
  /** Its chat was closed (another chat opened, the workspace closed). */
  | "chat-closed"
  /** The app quit. */
  | "quit";

/** A command that keeps running after `run_command` returned: a dev server, a watcher. */
export interface BackgroundState {
  /** Running; stopped (by `stoppedBy`); or exited on its own (with `exitCode`). */
  status: "running" | "stopped" | "exited";
  /** TCP ports its processes listen on, as last read from the OS. */
  ports: number[];
  /** The most it may run, in seconds (the host's cap for background commands). */
  capSeconds: number;
  /** When it started (ms since the epoch). */
  startedAt: number;
  /** When it ended, once it has. */
  endedAt?: number;
  /** Who or what stopped it, when it was stopped. */
  stoppedBy?: BackgroundStopper;
  /** Its exit code, when it exited on its own. */
  exitCode?: number | null;
  /**
   * The resource limit that stopped it, when one did: its own, or its workspace's total for background
   * commands (the figure is the total's then). A `LimitStop` (commands.ts, which imports this file).
   */
  limit?: { kind: "memory" | "processes"; limit: number };
}
