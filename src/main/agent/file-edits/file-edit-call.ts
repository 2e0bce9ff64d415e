import { constants } from "node:fs";
import { access, mkdir, readFile, writeFile } from "node:fs/promises";
import type { EditOperations, WriteOperations } from "@earendil-works/pi-coding-agent";
import type { CommandChanges } from "../../../shared/changes";
import {
  type EditDecision,
  type EditShape,
  type EditStatus,
  type EditTool,
  MAX_EDIT_BYTES,
  type ProposedDiff,
} from "../../../shared/edits";
import type { EditRefusalText } from "../../../shared/host-text";
import type { GateAnswer } from "../../approvals/approval-gate";
import type { EditRequest } from "../../approvals/approval-kinds";
import type { CommandRecorder } from "../../run-command";
import { type EditTarget, EditTargetRefused, editTarget, type HiddenPaths } from "./edit-target";
import { proposedDiff } from "./proposed-diff";

/** What one edit call needs of its chat. */
export interface EditCallContext {
  /** The workspace's real path. */
  root: string;
  /** Folders the agent may not touch even inside the workspace. */
  hidden: HiddenPaths;
  /** Asks the gate (rules, then the person). */
  approve(request: EditRequest, signal: AbortSignal | undefined): Promise<GateAnswer<EditDecision>>;
  /** Records what the write changed, when the workspace's change engine is on. */
  recorder?: CommandRecorder;
}

/** What was written, for the tool's result and the card. */
export interface WrittenEdit {
  target: EditTarget;
  shape: EditShape;
  /** The diff as written (the person's version when they changed it). */
  diff: ProposedDiff;
  /** The person's version differs from the agent's proposal: this diff from the proposal to what was written. */
  personsChange?: ProposedDiff;
  /** What the change engine recorded. */
  changes?: CommandChanges;
  /** The engine's line for the model (`Files changed: M a.txt (+1 -1)`). */
  note?: string;
}

/** Why an edit ended without writing, with the sentence the model reads. */
export class EditStopped extends Error {
  constructor(
    readonly status: Exclude<EditStatus, "pending" | "applied">,
    message: string,
    /** The file as resolved, when it got that far. */
    readonly target?: EditTarget,
    /** The message as a kind and its parameters, for the page to word in its language. */
    readonly say?: EditRefusalText,
  ) {
    super(message);
  }
}

/**
 * One `edit` or `write` call, as Pi's operations see it: every path is checked before it is touched, and
 * the write itself waits for the gate with the exact new content, diffed against the file as it is on disk
 * at that moment. Approved, it writes only if the file is still what the diff was made from; nothing the
 * person did not approve is ever written, and no change made meanwhile is lost.
 */
export class FileEditCall {
  /** The bytes each file had when the edit tool read it: what its diff is made from. */
  private readonly read = new Map<string, Buffer>();
  /** Folders the write tool would make: made only once the write is approved. */
  private readonly folders: string[] = [];
  /** The last refusal, whatever Pi's tool makes of the error on its way out. */
  stopped: EditStopped | undefined;
  /** What was written, once it was. */
  written: WrittenEdit | undefined;

  constructor(
    private readonly context: EditCallContext,
    readonly toolCallId: string,
    readonly tool: EditTool,
    private readonly signal: AbortSignal | undefined,
  ) {}

  /** Pi's edit tool's file access, through the checks. */
  readonly editOperations: EditOperations = {
    access: async (path) => {
      const target = this.target(path);
      await access(target.absolute, constants.R_OK | constants.W_OK);
    },
    readFile: async (path) => {
      const target = this.target(path);
      const bytes = await readFile(target.absolute);
      this.refuseBinary(bytes, target);
      this.read.set(target.absolute, bytes);
      return bytes;
    },
    writeFile: (path, content) => this.propose(path, content),
  };

  /** Pi's write tool's file access, through the checks. */
  readonly writeOperations: WriteOperations = {
    mkdir: async (dir) => {
      this.target(dir, "folder");
      this.folders.push(dir);
    },
    writeFile: (path, content) => this.propose(path, content),
  };

  /** The checked target of a path, or a refusal the result will carry. */
  private target(path: string, what: "file" | "folder" = "file"): EditTarget {
    try {
      return editTarget(this.context.root, this.context.hidden, path, what);
    } catch (error) {
      const say = error instanceof EditTargetRefused ? error.say : undefined;
      throw this.stop("failed", (error as Error).message, undefined, say);
    }
  }

  private async propose(path: string, content: string): Promise<void> {
    const target = this.target(path);
    const bytes = Buffer.byteLength(content, "utf8");
    if (bytes > MAX_EDIT_BYTES) {
      throw this.stop(
        "failed",
        `The new content of ${target.path} is ${bytesText(bytes)}, over the ${LIMIT_TEXT} an edit may write. ` +
          "Write large or generated files with a command the user approves.",
        target,
        { id: "too-large", path: target.path, bytes, limitBytes: MAX_EDIT_BYTES },
      );
    }
    if (content.includes("\u0000")) {
      throw this.stop(
        "failed",
        `The new content of ${target.path} holds NUL bytes: edits write text files only.`,
        target,
        { id: "nul-bytes", path: target.path },
      );
    }
    const before = this.read.get(target.absolute) ?? (await currentBytes(target.absolute));
    if (before) this.refuseBinary(before, target);
    const beforeText = before?.toString("utf8");
    const shape: EditShape = before === undefined ? "new-file" : this.tool === "write" ? "replace" : "change";
    const answer = await this.context.approve(
      {
        toolCallId: this.toolCallId,
        tool: this.tool,
        path: target.path,
        shape,
        diff: proposedDiff(beforeText, content),
        proposed: content,
        protected: target.protected,
      },
      this.signal,
    );
    if (answer.kind === "cancelled" || (answer.kind === "approve" && this.signal?.aborted)) {
      throw this.stop(
        "cancelled",
        "The turn was stopped before the edit was applied; nothing was written.",
        target,
        { id: "cancelled" },
      );
    }
    if (answer.kind === "deny") {
      const why = answer.reason?.trim();
      throw this.stop(
        "denied",
        `The user denied this edit of ${target.path}; nothing was written.${why ? ` Their reason: ${why}` : ""}`,
        target,
        { id: "denied", path: target.path, ...(why ? { why } : {}) },
      );
    }
    const final = answer.content === undefined ? content : withLineEndingsOf(content, answer.content);
    // The person's version is checked as the agent's was.
    if (Buffer.byteLength(final, "utf8") > MAX_EDIT_BYTES || final.includes("\u0000")) {
      throw this.stop(
        "failed",
        `The version given for ${target.path} is over ${LIMIT_TEXT} or holds NUL bytes; nothing was written.`,
        target,
        { id: "persons-version", path: target.path, limitBytes: MAX_EDIT_BYTES },
      );
    }
    // Checked again after the wait: a link swapped in meanwhile, or the file changed by someone else.
    const now = this.target(path);
    const onDisk = await currentBytes(now.absolute);
    if (now.absolute !== target.absolute || !sameBytes(before, onDisk)) {
      throw this.stop(
        "failed",
        `${target.path} changed on disk while the edit waited for the user (another command, or the user's editor); ` +
          "nothing was written, so no change was lost. Read the file again and propose the edit anew.",
        target,
        { id: "changed-on-disk", path: target.path },
      );
    }
    const recorder = this.context.recorder;
    await recorder?.started(this.toolCallId, this.signal);
    for (const folder of this.folders) await mkdir(folder, { recursive: true });
    await writeFile(target.absolute, final, "utf8");
    const recorded = await recorder?.ended(this.toolCallId);
    this.written = {
      target,
      shape,
      diff: proposedDiff(beforeText, final),
      ...(final !== content ? { personsChange: proposedDiff(content, final) } : {}),
      ...(recorded ? { changes: recorded.changes, ...(recorded.note ? { note: recorded.note } : {}) } : {}),
    };
  }

  private refuseBinary(bytes: Buffer, target: EditTarget): void {
    if (bytes.includes(0) || !isUtf8(bytes)) {
      throw this.stop(
        "failed",
        `${target.path} is a binary file (or not UTF-8 text): edit and write change text files only. Use a command the user approves.`,
        target,
        { id: "binary", path: target.path },
      );
    }
  }

  private stop(
    status: EditStopped["status"],
    message: string,
    target?: EditTarget,
    say?: EditRefusalText,
  ): EditStopped {
    this.stopped = new EditStopped(status, message, target, say);
    return this.stopped;
  }
}

/** The limit as a person reads it. */
const LIMIT_TEXT = `2 MiB (${bytesText(MAX_EDIT_BYTES)})`;

function bytesText(bytes: number): string {
  return `${bytes.toLocaleString("en")} bytes`;
}

/** A file's bytes now, or undefined when there is none. */
async function currentBytes(path: string): Promise<Buffer | undefined> {
  try {
    return await readFile(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}

function sameBytes(a: Buffer | undefined, b: Buffer | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  return a.equals(b);
}

function isUtf8(bytes: Buffer): boolean {
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/**
 * The person's version with the line endings of the agent's: a browser's text box gives `\n` only, so a
 * file whose proposal used `\r\n` keeps them.
 */
function withLineEndingsOf(proposal: string, persons: string): string {
  if (!proposal.includes("\r\n") || persons.includes("\r")) return persons;
  return persons.replace(/\n/g, "\r\n");
}
