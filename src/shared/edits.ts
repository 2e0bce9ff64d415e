/**
 * The agent's file edits (Pi's `edit` and `write` tools) as the person sees them before and after they
 * happen: the proposed diff, the decision, and what was written. Plain data, so it crosses to the renderer.
 */
import type { CommandChanges, RevertEntry } from "./changes";
import type { EditRefusalText } from "./host-text";

/** Which of Pi's tools proposed the edit. */
export type EditTool = "edit" | "write";

/** Where an edit is in its life. */
export type EditStatus =
  /** Waiting for the person. */
  | "pending"
  /** Written (the agent's version, or the person's). */
  | "applied"
  /** The person said no (or a rule did). */
  | "denied"
  /** Refused by the host, or could not be written (the file changed since, a path outside the workspace). */
  | "failed"
  /** The turn stopped before the person decided. */
  | "cancelled";

/** What an edit does to its file, in a phrase the card shows. */
export type EditShape =
  /** The file does not exist yet. */
  | "new-file"
  /** Some lines of an existing file change. */
  | "change"
  /** `write` over an existing file: its whole content is replaced. */
  | "replace";

/** One line of a proposed diff. */
export interface DiffLine {
  /** Added, removed, or unchanged context. */
  kind: "add" | "del" | "context";
  /** The line's text, without its line ending. */
  text: string;
  /** Its number in the file before (absent for an added line). */
  oldLine?: number;
  /** Its number in the file after (absent for a removed line). */
  newLine?: number;
}

/** A run of changed lines with its context. */
export interface DiffHunk {
  /** The lines, in order. */
  lines: DiffLine[];
}

/** A diff between a file as it is and as it would be, in hunks with a few lines of context. */
export interface ProposedDiff {
  /** The hunks, in file order. */
  hunks: DiffHunk[];
  /** Lines added. */
  added: number;
  /** Lines removed. */
  removed: number;
  /** The diff was cut (too many lines to send): the card says so; the person can still read the whole content. */
  truncated: boolean;
}

/** The person's answer to a pending edit. */
export type EditDecision =
  | {
      kind: "approve";
      /** The person's own version of the file's whole new content, to write instead of the agent's. */
      content?: string;
    }
  | {
      kind: "deny";
      /** Why, in the person's words; the model reads it. */
      reason?: string;
    };

/** What the host records of every `edit`/`write` call, applied or not (the tool result's `details`). */
export interface FileEditDetails {
  /** Marks these details as Pi Desk's, in a session file where Pi's edit tool writes its own. */
  piDesk: "file-edit";
  /** How it ended. */
  status: Exclude<EditStatus, "pending">;
  /** The file, relative to the workspace, `/` separators. */
  path: string;
  /** The tool. */
  tool: EditTool;
  /** What the edit did (or would have done) to the file. */
  shape?: EditShape;
  /** The diff as applied (the person's version when they changed it), or as proposed when it was not. */
  diff?: ProposedDiff;
  /** The person changed the agent's proposal before applying it. */
  changedByPerson?: boolean;
  /** Why it was denied, refused or failed. */
  reason?: string;
  /** That reason as a kind and its parameters, for the page to word in its language (`reason` is the fallback). */
  reasonSay?: EditRefusalText;
  /** What it changed in the workspace's files, as recorded by the change engine (absent when not applied). */
  changes?: CommandChanges;
}

/** Everything the UI shows of one `edit` or `write` call, from the agent's ask to its end. */
export interface EditView {
  /** The agent's tool call id. */
  id: string;
  /** The codemode call whose script asked for this edit (Pi's `parentToolCallId`); absent otherwise. */
  parentToolCallId?: string;
  /** Which tool. */
  tool: EditTool;
  /** The file, relative to the workspace with `/` separators (as the agent named it until it is resolved). */
  path: string;
  /** Where it is now. */
  status: EditStatus;
  /** The id a decision must name; set only while pending. */
  approvalId?: string;
  /** What it does to the file. */
  shape?: EditShape;
  /** The diff from the file as it is on disk to the proposal (once the host has computed it). */
  diff?: ProposedDiff;
  /** The proposed whole new content, for the person's "Change"; only while pending. */
  proposed?: string;
  /** Why the agent wants it, in its own words, when it said so. */
  why?: string;
  /** Who decided: the person, or a rule (named in `rule`). */
  decidedBy?: "person" | "rule";
  /** The rule that decided, as the person would read it. */
  rule?: string;
  /** Why it was denied, refused or failed. */
  reason?: string;
  /** That reason as a kind and its parameters, for the page to word in its language (`reason` is the fallback). */
  reasonSay?: EditRefusalText;
  /** The person changed the agent's proposal before applying it. */
  changedByPerson?: boolean;
  /** What it changed, once applied. */
  changes?: CommandChanges;
  /** Undos of its changes and restores to before it, oldest first. */
  reverts?: RevertEntry[];
  /** Its change record was dropped to keep the records within their budget: no undo any more. */
  changesDropped?: boolean;
  /** What an "always allow" rule for edits may be: this file, or every edit; absent when none may be offered (protected paths). */
  ruleOffer?: { path: string };
}

/** The largest new content an edit may write, in bytes: past it the edit is refused. */
export const MAX_EDIT_BYTES = 2 * 1024 * 1024;
