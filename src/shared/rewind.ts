/**
 * Rewind: taking a chat back to before one of the person's messages, the files its later commands and edits
 * changed included, and "Back to where I was". Plain data, so it crosses to the renderer unchanged.
 */
import type { RevertResult } from "./changes";

/** What a rewind does to one file a later command or edit of the chat changed. */
export type RewindOutcome =
  /** Put back to how it was before the message. */
  | "restored"
  /** Left as it is: changed since by the person or another chat (see `changedBy` and `diff`). */
  | "kept"
  /** Its change was not recorded (recording was off, or the change predates it): left as it is. */
  | "not-recorded";

/** One file of a rewind's preview (or its outcome). */
export interface RewindFile {
  /** Relative to the chat's folder, with `/` separators. */
  path: string;
  /** What happens (or happened) to it. */
  outcome: RewindOutcome;
  /** For "kept": who changed it after the agent did: the person (or a program outside Pi Desk), or another chat. */
  changedBy?: "person" | "another-chat";
  /** For "kept": how it differs now from how the agent left it (a unified diff, bounded), or a note for binary files. */
  diff?: string;
  /** For "not-recorded" (and a file that cannot be put back): why, in words for a person. */
  reason?: string;
}

/** A command of the part being rewound that still runs: the rewind stops it first. */
export interface RewindStop {
  /** The command's id (the tool call id). */
  commandId: string;
  /** The command line. */
  command: string;
  /** Whether it runs in the background (else it runs, or waits for approval, in the turn). */
  background: boolean;
}

/** What rewinding to before a message would do: shown to the person before they confirm. */
export interface RewindPreview {
  /** Pi's entry id of the person's message. */
  entryId: string;
  /** The message's text (it goes back into the composer). */
  text: string;
  /** Each file a later command or edit of the chat changed, sorted by path. */
  files: RewindFile[];
  /** Commands of that part still running (or waiting): stopped first. */
  stops: RewindStop[];
}

/** What a rewind did. */
export interface RewindResult {
  /** The message's text, for the composer (Pi's `navigateTree` gives it back). */
  editorText: string;
  /** Each file, as it turned out (a file changed between the preview and the rewind is kept). */
  files: RewindFile[];
  /** Whether "Back to where I was" (`rewindUndo`) can take it back. */
  undoable: boolean;
}

/** The chat's last rewind, while "Back to where I was" can still take it back. */
export interface RewoundState {
  /** The rewind's id. */
  rewindId: string;
  /** When it was done (ms since the epoch). */
  at: number;
}

/** What "Back to where I was" did: the files (changed since the rewind: left alone) and the conversation. */
export interface RewindUndoResult {
  /** The files, as an undo reports them (conflicts: changed since the rewind, left as they are). */
  files: RevertResult;
}
