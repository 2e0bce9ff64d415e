/** How a new chat asks for a git worktree of its own instead of the workspace's folder. */
export interface WorktreeChoice {
  /** The commit, branch or tag the new branch starts from; absent: the workspace's current HEAD. */
  base?: string;
  /** The branch's short name (`pi-desk/<name>`); absent: one the host makes up. */
  name?: string;
  /** An existing worktree of the workspace's repository (from `listWorktrees`) to open instead of making one. */
  path?: string;
}

/** A worktree of the workspace's repository, as `git worktree list` has it. */
export interface WorktreeEntry {
  /** Its folder. */
  path: string;
  /** Its branch (`refs/heads/` left off); absent when its HEAD is detached. */
  branch?: string;
  /** The commit its HEAD is at. */
  head: string;
  /** Whether it is the repository's main checkout (the workspace itself): it cannot be opened as a worktree chat. */
  main: boolean;
  /** The open chat whose folder it is, if any. */
  chatId?: string;
}

/** How one file differs between a worktree chat's base and its work. */
export type ReviewFileStatus = "added" | "modified" | "deleted" | "renamed" | "copied" | "type-changed";

/** One file of a worktree chat's review. */
export interface ReviewFile {
  /** Its path in the repository (the new path of a rename). */
  path: string;
  /** Its path before a rename or copy. */
  oldPath?: string;
  /** What happened to it. */
  status: ReviewFileStatus;
  /** Whether git sees it as binary (no text diff is shown; it is brought back byte for byte). */
  binary: boolean;
  /** Lines added and removed (0 for a binary file). */
  added: number;
  /** Lines removed. */
  removed: number;
  /** Its unified diff (text files; cut past a bound, `truncated` says so). */
  diff: string;
  /** Whether `diff` was cut. */
  truncated: boolean;
}

/** Everything a worktree chat changed against its base: commits on its branch and files not committed. */
export interface WorktreeReview {
  /** The chat's branch. */
  branch: string;
  /** The base commit the branch started from. */
  base: string;
  /** The worktree's folder. */
  path: string;
  /** Commits on the branch since the base, newest first (subject lines). */
  commits: { sha: string; subject: string }[];
  /** How many files differ from the last commit (what Keep the branch commits, Discard loses). */
  uncommitted: number;
  /** Every file that differs from the base. */
  files: ReviewFile[];
}

/** What Bring into the workspace did: all applied, or nothing and why. */
export type BringResult =
  | {
      /** Every file was applied to the workspace as uncommitted changes. */
      applied: true;
      /** The files written, renamed or deleted. */
      files: string[];
    }
  | {
      /** Nothing was applied. */
      applied: false;
      /** The files that conflict with the workspace's own state. */
      conflicts: { path: string; reason: BringConflictReason }[];
      /** git's own words, for a failure that names no file. */
      detail?: string;
    };

/** Why a file cannot be brought into the workspace as it is. */
export type BringConflictReason = "changed-in-workspace" | "exists-in-workspace" | "missing-in-workspace";

/** What Keep the branch left. */
export interface KeptBranch {
  /** The branch holding the work. */
  branch: string;
  /** Its last commit. */
  commit: string;
  /** Whether uncommitted changes were committed first. */
  committed: boolean;
}

/** A workspace's choices for worktree chats, as Settings shows and changes them. */
export interface WorktreeSettings {
  /** Where new worktree chats' folders go (an absolute path outside the workspace); absent: Pi Desk's data folder. */
  folder?: string;
  /** A command run first in each new worktree (`npm ci`), asked for like any other; absent: none. */
  setup?: string;
  /** How many finished chats' clean worktrees stay, whatever their age. */
  keep: number;
  /** After how many days the others may go (when they hold nothing to lose). */
  olderThanDays: number;
  /** Which new-chat choice is offered first: the workspace's folder, or a new worktree. */
  first: "here" | "worktree";
}

/** A finished chat's worktree that cleanup left for the person to decide on, and why. */
export interface KeptWorktree {
  path: string;
  branch: string;
  /** It holds uncommitted work, is among the newest kept, or could not be read. */
  reason: "uncommitted" | "recent" | "unreadable";
}

/** The settings with what the last cleanup left. */
export interface WorktreeSettingsState extends WorktreeSettings {
  /** The worktrees cleanup kept for the person when the workspace last opened (none before it ran). */
  kept: KeptWorktree[];
}
