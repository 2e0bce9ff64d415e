/**
 * What a command did to the workspace's files, and what taking it back did: the shapes the change
 * engine (src/main/changes) returns and the command card will show. Plain data, so they cross to the
 * renderer unchanged.
 */

/** How one file differs between two recorded states. */
export type FileChangeKind =
  /** It did not exist before. */
  | "added"
  /** Its content changed (its mode may have changed too: see `oldMode`/`newMode`). */
  | "modified"
  /** It existed before and is gone. */
  | "deleted"
  /** Moved (with at most small edits): `oldPath` is where it was. */
  | "renamed"
  /** Only its executable bit changed. */
  | "mode"
  /** It became another type of thing: a file became a symbolic link or the reverse. */
  | "type";

/** One file in a change set. */
export interface FileChange {
  /** What happened to it. */
  kind: FileChangeKind;
  /** Its path relative to the workspace, with `/` separators (the new path for a rename). */
  path: string;
  /** For `renamed`: the path it had before. */
  oldPath?: string;
  /** Lines added; 0 for binary, oversized and symbolic-link-only changes. */
  added: number;
  /** Lines removed; 0 for binary and oversized changes. */
  removed: number;
  /** Whether git takes either side for binary (no line counts, no text diff). */
  binary: boolean;
  /** Whether either side was over the size limit: listed by size and time only, never stored, diffed or undone. */
  oversized: boolean;
  /** Git's mode before (`100644`, `100755`, `120000` for a symbolic link); absent when added. */
  oldMode?: string;
  /** Git's mode after; absent when deleted. */
  newMode?: string;
  /** Size in bytes before; absent when added. */
  oldSize?: number;
  /** Size in bytes after; absent when deleted. */
  newSize?: number;
}

/** Every file one command changed (its state after against its state before), or a preview of a restore. */
export interface ChangeSet {
  /** The files, sorted by path. */
  files: FileChange[];
  /**
   * Sub-folders with their own `.git` (nested repositories) in the later state: their files are not
   * recorded, so changes inside them are not listed and cannot be undone here.
   */
  nestedRepositories: string[];
}

/** A unified diff of one file between two recorded states. */
export interface FileDiff {
  /** The file's path (the new one for a rename). */
  path: string;
  /** The unified diff (`git diff` format), at most `maxBytes` long; empty when there is none to show. */
  text: string;
  /** Whether `text` was cut at the byte cap. */
  truncated: boolean;
  /** Why there is no text, when there is none: binary, oversized, or not in this change set. */
  note?: string;
}

/** When a recorded command ran, as the engine saw it: for naming commands whose changes may mix. */
export interface CommandWindow {
  /** The caller's id of the command (the tool call id). */
  commandId: string;
  /** When its before-state was taken (ms since the epoch). */
  startedAt: number;
  /** When its after-state was taken; absent while it runs (or when the host stopped before it ended). */
  endedAt?: number;
}

/** Why one file was not put back. */
export interface FileRefusal {
  /** The file's path relative to the workspace. */
  path: string;
  /** What stopped it, in words for a person. */
  reason: string;
}

/** What an undo or a restore did, file by file. */
export interface RevertResult {
  /** Files put back as they were (written, re-created or deleted). */
  restored: string[];
  /**
   * Files changed again since (they no longer match the state the revert starts from): left alone.
   * Pass them in `undoAnyway` to put them back all the same.
   */
  conflicts: FileRefusal[];
  /** Files that cannot be put back safely or at all (a symbolic link on the way, over the size limit, ...). */
  refused: FileRefusal[];
}

/** A command whose run overlapped another's: its changes may be mixed into the other's change set. */
export interface OverlappingCommand {
  /** Its id (the tool call id). */
  commandId: string;
  /** The command, when the host still knows it. */
  command?: string;
}

/** The most files a command's record carries to the card; the rest are counted in `totalFiles`. */
export const MAX_FILES_ON_CARD = 200;

/** What a command changed, as its card shows it and its result keeps it (so a reopened chat shows it too). */
export type CommandChanges =
  | {
      /** The change set was recorded. */
      recorded: true;
      /** The files, sorted by path; at most `MAX_FILES_ON_CARD`. */
      files: FileChange[];
      /** How many files changed in all. */
      totalFiles: number;
      /** Lines added over all the files. */
      added: number;
      /** Lines removed over all the files. */
      removed: number;
      /** Nested repositories (not recorded), when there are any. */
      nestedRepositories: string[];
      /** Commands that ran at the same time: their changes may be among these, and these among theirs. */
      overlapping: OverlappingCommand[];
    }
  | {
      /** Nothing was recorded for this command. */
      recorded: false;
      /** Why (recording is off for the workspace, the first snapshot was still being taken, git failed). */
      reason: string;
    };

/** An undo of one command's changes, or a restore of the workspace to before it, as the card shows it. */
export interface RevertEntry {
  /** Undo of this command's changes, or the whole workspace put back to its state before this command. */
  kind: "undo" | "restore";
  /** When it was done (ms since the epoch). */
  at: number;
  /** What it did, file by file. */
  result: RevertResult;
}

/** A preview of putting the whole workspace back to its state before one command. */
export interface RestorePreview {
  /** Pass this to `restoreWorkspace` (the engine's `restore`) to apply exactly this preview. */
  previewId: string;
  /** The command whose before-state the workspace would go back to. */
  commandId: string;
  /** Every file that would change, as a change from now to that state. */
  changes: ChangeSet;
}

/** Whether the workspace's changes are recorded, and the space the records take (for Settings). */
export interface ChangesState {
  /** Recording is on, taking its first snapshot of the workspace, or off with the reason. */
  state: { type: "on" } | { type: "preparing" } | { type: "off"; reason: string };
  /** Ignore patterns applied on top of the workspace's `.gitignore` files. */
  excludes: string[];
  /** Files larger than this are listed by size and time only, never stored or undone. */
  maxFileBytes: number;
  /** Bytes the records take on disk now. */
  usageBytes: number;
  /** The most the records may take (the copy below plus the history's budget): the oldest are dropped past it. */
  budgetBytes: number;
  /**
   * Of the records, the copy of the workspace's current files: kept whatever the budget, which is for
   * the history on top of it. Absent until measured (when no record is kept).
   */
  copyBytes?: number;
  /** While the first snapshot is taken (`state` "preparing"): files scanned so far of the total (0 while counting). */
  progress?: { scanned: number; total: number };
  /**
   * Set when the workspace has more folders than the system's inotify watches allow: each command is
   * then recorded by a full scan (slower). The message says so with the one-line fix.
   */
  watchLimit?: string;
}
