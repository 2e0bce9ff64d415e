/**
 * Branches of a chat: where its conversation on Pi's session tree took more than one way (a rewind and a
 * new message, or Pi's own `/tree`), and switching to another way, its files with it. Plain data.
 */
import type { RewindFile, RewindStop } from "./rewind";

/** A place where the conversation shown branched: the other ways it took from there. */
export interface BranchPoint {
  /** How many of the person's messages of the conversation shown come before it (drawn before the next one, or at the end). */
  before: number;
  /** The other branches from there, oldest first. */
  branches: BranchChoice[];
}

/** One other way the conversation took from a branch point. */
export interface BranchChoice {
  /** Pi's entry id of the branch's first message of the person: what `branchPreview` and `switchBranch` take. */
  entryId: string;
  /** That message's text, shortened for a label. */
  text: string;
  /** How many of the person's messages the branch holds from there on. */
  messages: number;
}

/** What switching to another branch would do: shown to the person before they confirm. */
export interface BranchPreview {
  /** The branch's first message of the person (its entry id). */
  entryId: string;
  /**
   * Each file a command or edit of either side changed since the branch point: "restored" is brought to how
   * the other branch left it (this branch's changes undone newest first, the other's played again oldest
   * first); "kept" changed since by the person or another chat; "not-recorded" has no record to play.
   */
  files: RewindFile[];
  /** Commands of this branch since the branch point still running (or waiting): stopped first. */
  stops: RewindStop[];
}

/** What a branch switch did. */
export interface BranchSwitchResult {
  /** Each file, as it turned out (a file changed between the preview and the switch is kept). */
  files: RewindFile[];
  /** A message of the person the branch ended on without an answer: back in the composer. */
  editorText?: string;
}

/** Where "Fork from here" puts the new chat's files. */
export type ForkWhere =
  /** The same folder as the chat (its files as they are now). */
  | "same-folder"
  /** A new worktree from the chat's base, holding the files as they were before the message (git repositories only). */
  | "worktree";
