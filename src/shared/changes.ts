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
