import type { ChangeSet, CommandWindow, RevertResult } from "../../shared/changes";
import type { GitCheckout } from "./git-index-seed";
import type { ScanProgress } from "./snapshot";

/** How to record one workspace. */
export interface ChangeRecorderOptions {
  /** The workspace folder. */
  workspace: string;
  /** The engine's folder for this workspace, outside it, e.g. `<data>/workspaces/<id>/changes`. */
  dataDir: string;
  /** Files larger than this are listed by size and time only; `DEFAULT_MAX_FILE_BYTES` (16 MiB) by default. */
  maxFileBytes?: number;
  /** More files than this and recording turns off; `DEFAULT_MAX_FILES` (500,000) by default. */
  maxFiles?: number;
  /** Ignore patterns on top of the workspace's `.gitignore` files; `DEFAULT_EXCLUDES` by default. */
  excludes?: readonly string[];
  /** The first snapshot may take this long before recording turns off; 20 minutes by default. */
  firstSnapshotTimeoutMs?: number;
  /** Any other git call is stopped after this long; 60 s by default. */
  gitTimeoutMs?: number;
  /** The git program; `git` from PATH by default. */
  gitBinary?: string;
  /** Told how far the first snapshot has come (files scanned of the total), at most every 250 ms. */
  onProgress?: (progress: ScanProgress) => void;
  /** Most folders the watcher watches; by default half the user's inotify watches (at least 4,096). */
  maxWatchedFolders?: number;
  /** How long after the last command the idle full scan runs (see `RecorderScans`); 10 s by default. */
  idleFullScanMs?: number;
  /**
   * The workspace is a git worktree just made (or opened): its records borrow the repository's objects, and a
   * first snapshot without a stat cache takes unchanged files' blob ids from its index (see `seedFromGitIndex`).
   */
  gitCheckout?: GitCheckout;
}

/** Whether the engine records, and if not, why not (shown to the person; commands run either way). */
export type RecorderState =
  | { /** Recording. */ type: "on" }
  | {
      /** Not recording; commands run unrecorded. */
      type: "off";
      /** Why, and what would turn it on. */
      reason: string;
    };

/** What `before` did. */
export type BeforeResult =
  | {
      /** The before-state is kept. */
      recorded: true;
      /** When its scan began (ms since the epoch). */
      startedAt: number;
    }
  | NotRecorded;

/** A call that recorded nothing, and why (recording is off, or git failed). */
export interface NotRecorded {
  /** Nothing was recorded. */
  recorded: false;
  /** Why, for the person (and the model, if the caller passes it on). */
  reason: string;
}

/** What `after` found: the command's changes and the line for the model, or why there are none. */
export type AfterResult =
  | {
      /** The after-state is kept. */
      recorded: true;
      /** Every file the command changed. */
      changes: ChangeSet;
      /** The bounded line for the model: `Files changed: M a.ts (+3 -1), ...`. */
      summary: string;
      /** Other commands that ran at the same time: their changes may be mixed into these. */
      overlapping: CommandWindow[];
    }
  | NotRecorded;

/** A command that goes unrecorded, and why. */
export function notRecorded(reason: string): NotRecorded {
  return { recorded: false, reason };
}

/** A revert that put back nothing, and why (the whole call was refused). */
export function refusedAll(reason: string): RevertResult {
  return { restored: [], conflicts: [], refused: [{ path: "", reason }] };
}
