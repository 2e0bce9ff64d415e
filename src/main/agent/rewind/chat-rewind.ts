import { randomUUID } from "node:crypto";
import { isAbsolute, relative, sep } from "node:path";
import type { AgentSession } from "@earendil-works/pi-coding-agent";
import type { BranchPreview, BranchSwitchResult } from "../../../shared/branches";
import type { RevertResult } from "../../../shared/changes";
import type {
  RewindFile,
  RewindPreview,
  RewindResult,
  RewindStop,
  RewindUndoResult,
  RewoundState,
} from "../../../shared/rewind";
import type { ChangeRecords } from "../../changes";
import type { BackgroundCommands } from "../../run-command";
import type { RecordKeys } from "../record-keys";
import type { SessionProjection } from "../session-projection";
import { personText, switchPlan } from "./branch-tree";
import { fileOf, NOT_KEPT, NOT_RECORDING, outcomes, tally } from "./rewind-files";
import { removeJournal, writeJournal } from "./rewind-journal";
import { REWIND_ENTRY_TYPE, type RewindEntryData, rewindPart, standingRewind } from "./rewind-part";

/** What a chat's rewind works with. */
export interface ChatRewindOptions {
  session: AgentSession;
  projection: SessionProjection;
  /** The chat's folder (edit paths are named relative to it). */
  root: string;
  /** The chat's folder's change records, and the keys the chat's records are kept under; absent: not recorded. */
  records?: { records: ChangeRecords; keys: RecordKeys };
  /** The chat's background commands. */
  background: BackgroundCommands;
  /** Stops the chat's turn (pending approvals cancelled, running commands killed). */
  stopTurn: () => Promise<unknown>;
  /** Tells the page the conversation was replaced (the transcript moved on Pi's tree). */
  replaced: () => void;
  /** Writes the audit line of a rewind, a branch switch or going back. */
  audit?: (
    event: "rewound" | "branch-switched" | "went-back",
    message: { entryId: string; text?: string },
    files: { restored: number; kept: number; notRecorded: number },
  ) => void;
}

/** The last rewind, while "Back to where I was" can take it back. */
interface Rewound extends RewoundState {
  /** The leaf before the rewind. */
  from: string | null;
  /** The record of the files as they were when it began; absent when they were not recorded. */
  recordKey?: string;
}

/**
 * Rewind of one chat: the files every later command and edit changed go back as they were before the message
 * (newest first, each as the card's undo takes it back, so a file changed since by the person or another chat
 * is kept), Pi's session moves to before the message (`navigateTree`; the part left stays in the file), and the
 * files' state at that moment is recorded first, so "Back to where I was" returns files and conversation.
 */
export class ChatRewind {
  private last: Rewound | undefined;
  private busy = false;

  constructor(private readonly options: ChatRewindOptions) {
    const standing = standingRewind(options.session.sessionManager);
    if (standing) {
      this.last = {
        rewindId: standing.rewindId,
        at: standing.at,
        from: standing.from,
        ...(standing.recordKey ? { recordKey: standing.recordKey } : {}),
      };
    }
  }

  /** The chat's last rewind, while it can be taken back. */
  get rewound(): RewoundState | undefined {
    return this.last && { rewindId: this.last.rewindId, at: this.last.at };
  }

  /** What rewinding to before the person's message `entryId` would do. */
  async preview(entryId: string): Promise<RewindPreview> {
    const part = rewindPart(this.options.session.sessionManager, entryId);
    const ids = part.toolCalls.map((call) => call.id);
    return { entryId, text: part.text, files: await this.files(ids), stops: this.stops(ids) };
  }

  /**
   * Rewinds to before the message `entryId`: stops what of that part still runs, records the files as they
   * are, puts back what the part changed, and moves the conversation. Returns the message's text for the
   * composer.
   */
  async rewind(entryId: string): Promise<RewindResult> {
    const { session } = this.options;
    const manager = session.sessionManager;
    const part = rewindPart(manager, entryId);
    return this.exclusive(async () => {
      const ids = part.toolCalls.map((call) => call.id);
      await this.stopPart(ids);
      const rewindId = randomUUID();
      const from = manager.getLeafId();
      const recordKey = await this.recordNow(rewindId);
      const files = await this.files(ids);
      const chain = this.chain(ids);
      const dataDir = this.options.records?.records.dataDir;
      const journal =
        recordKey && dataDir && session.sessionFile
          ? {
              rewindId,
              sessionId: session.sessionId,
              sessionFile: session.sessionFile,
              recordKey,
              entryId,
              from,
            }
          : undefined;
      if (journal && dataDir) await writeJournal(dataDir, { ...journal, phase: "restoring" });
      const recorder = this.options.records?.records.recorder;
      if (crashAt() === "restoring") {
        await recorder?.undoChain(chain.slice(0, Math.ceil(chain.length / 2)));
        throw new Error("Simulated crash while restoring (PI_DESK_REWIND_CRASH_AT).");
      }
      const results = chain.length > 0 && recorder ? await recorder.undoChain(chain) : [];
      if (recordKey && recorder) await recorder.after(recordKey);
      if (journal && dataDir) await writeJournal(dataDir, { ...journal, phase: "moving" });
      if (crashAt() === "moving") throw new Error("Simulated crash while moving (PI_DESK_REWIND_CRASH_AT).");
      const navigated = await session.navigateTree(entryId, { summarize: false });
      const data: RewindEntryData = {
        rewindId,
        kind: "rewind",
        from,
        entryId,
        ...(recordKey ? { recordKey } : {}),
      };
      // The entry keeps the leaf where the rewind put it: Pi takes a reopened file's last entry for its leaf.
      manager.appendCustomEntry(REWIND_ENTRY_TYPE, data);
      if (dataDir) await removeJournal(dataDir, session.sessionId);
      this.last = { rewindId, at: Date.now(), from, ...(recordKey ? { recordKey } : {}) };
      this.options.replaced();
      const done = outcomes(files, results);
      this.options.audit?.("rewound", { entryId, text: part.text }, tally(done));
      return { editorText: navigated.editorText ?? part.text, files: done, undoable: true };
    });
  }

  /** What switching to the branch whose first message of the person is `entryId` would do. */
  async previewSwitch(entryId: string): Promise<BranchPreview> {
    const plan = switchPlan(this.options.session.sessionManager, entryId);
    return { entryId, files: await this.files(plan.undo, plan.redo), stops: this.stops(plan.undo) };
  }

  /**
   * Switches to the branch whose first message of the person is `entryId`: stops what of the conversation
   * shown since the branch point still runs, takes its changes back (newest first) and plays the branch's
   * again (oldest first), each as a card's undo does (a file changed since is kept), then moves the
   * conversation to the branch's newest entry (Pi's `navigateTree`).
   */
  async switchTo(entryId: string): Promise<BranchSwitchResult> {
    const { session } = this.options;
    const manager = session.sessionManager;
    const plan = switchPlan(manager, entryId);
    return this.exclusive(async () => {
      await this.stopPart(plan.undo);
      const rewindId = randomUUID();
      const from = manager.getLeafId();
      // A branch left on a message without an answer: the conversation stands before it, its text to the composer.
      const leaf = manager.getEntry(plan.leafId);
      const target = plan.unanswered !== undefined && leaf ? leaf.parentId : plan.leafId;
      // As a rewind: the files recorded first and a journal beside, so that a host dying in the middle leaves
      // nothing half switched (rolled back, or the conversation moved, at the next start).
      const recordKey = await this.recordNow(rewindId);
      const files = await this.files(plan.undo, plan.redo);
      const recorder = this.options.records?.records.recorder;
      const dataDir = this.options.records?.records.dataDir;
      const file = session.sessionFile;
      const journal =
        recordKey && dataDir && file
          ? { rewindId, sessionId: session.sessionId, sessionFile: file, recordKey, entryId, from }
          : undefined;
      const write = (phase: "restoring" | "moving") =>
        journal && dataDir ? writeJournal(dataDir, { ...journal, kind: "switch", target, phase }) : undefined;
      await write("restoring");
      const undo = this.chain(plan.undo);
      const redo = this.recorded(plan.redo);
      if (crashAt() === "restoring") {
        await recorder?.undoChain(undo);
        throw new Error("Simulated crash while restoring (PI_DESK_REWIND_CRASH_AT).");
      }
      const results = recorder && undo.length + redo.length > 0 ? await recorder.undoChain(undo, redo) : [];
      if (recordKey && recorder) await recorder.after(recordKey);
      await write("moving");
      if (crashAt() === "moving") throw new Error("Simulated crash while moving (PI_DESK_REWIND_CRASH_AT).");
      if (target === null) manager.resetLeaf();
      else await session.navigateTree(target, { summarize: false });
      const data: RewindEntryData = { rewindId, kind: "switch", from, entryId };
      // As a rewind's: the entry keeps the leaf where the switch put it when the file is opened again.
      manager.appendCustomEntry(REWIND_ENTRY_TYPE, data);
      if (dataDir) await removeJournal(dataDir, session.sessionId);
      this.last = undefined;
      this.options.replaced();
      const done = outcomes(files, results);
      this.options.audit?.("branch-switched", { entryId, text: personText(manager, entryId) }, tally(done));
      return { files: done, ...(plan.unanswered !== undefined ? { editorText: plan.unanswered } : {}) };
    });
  }

  /**
   * Writes into `folder` (a fork's new worktree, holding the chat folder's files as they are now) the files
   * the commands and edits from the person's message `entryId` on changed, as they were before it. The chat's
   * own folder is not touched. Without records, nothing is written (the worktree keeps the files as they are).
   */
  async writeFilesBefore(entryId: string, folder: string): Promise<RevertResult | undefined> {
    const part = rewindPart(this.options.session.sessionManager, entryId);
    const recorder = this.options.records?.records.recorder;
    const oldestFirst = this.chain(part.toolCalls.map((call) => call.id)).reverse();
    return recorder && oldestFirst.length > 0 ? recorder.writeBefore(oldestFirst, folder) : undefined;
  }

  /** "Back to where I was": the files as they were when the last rewind began (unless changed since), and the conversation. */
  async back(): Promise<RewindUndoResult> {
    const last = this.last;
    if (!last) throw new Error("There is no rewind to take back in this chat.");
    const { session, projection } = this.options;
    if (projection.running || session.isStreaming) {
      throw new Error("The agent is working: wait for it to finish, or press Stop, then go back.");
    }
    return this.exclusive(async () => {
      const recorder = this.options.records?.records.recorder;
      const manager = session.sessionManager;
      const leaf = manager.getLeafId();
      // As a rewind: the files recorded first and a journal beside, so that a host dying in the middle leaves
      // nothing half done (rolled back to the rewound files, or the conversation moved, at the next start).
      const recordKey = last.recordKey ? await this.recordNow(randomUUID()) : undefined;
      const dataDir = this.options.records?.records.dataDir;
      const file = session.sessionFile;
      const journal =
        recordKey && dataDir && file
          ? { rewindId: last.rewindId, sessionId: session.sessionId, sessionFile: file, recordKey }
          : undefined;
      const write = (phase: "restoring" | "moving") =>
        journal && dataDir
          ? writeJournal(dataDir, {
              ...journal,
              entryId: "",
              from: leaf,
              kind: "back",
              target: last.from,
              phase,
            })
          : undefined;
      await write("restoring");
      const files: RevertResult =
        last.recordKey && recorder
          ? await recorder.undo(last.recordKey)
          : { restored: [], conflicts: [], refused: [] };
      if (crashAt() === "back-restoring")
        throw new Error("Simulated crash while going back (PI_DESK_REWIND_CRASH_AT).");
      if (recordKey && recorder) await recorder.after(recordKey);
      await write("moving");
      if (crashAt() === "back-moving")
        throw new Error("Simulated crash while going back (PI_DESK_REWIND_CRASH_AT).");
      if (last.from) await session.navigateTree(last.from, { summarize: false });
      const data: RewindEntryData = { rewindId: last.rewindId, kind: "back", from: leaf };
      manager.appendCustomEntry(REWIND_ENTRY_TYPE, data);
      if (dataDir) await removeJournal(dataDir, session.sessionId);
      this.last = undefined;
      this.options.replaced();
      this.options.audit?.(
        "went-back",
        { entryId: last.rewindId },
        {
          restored: files.restored.length,
          kept: files.conflicts.length,
          notRecorded: files.refused.length,
        },
      );
      return { files };
    });
  }

  /** One rewind (or going back) at a time in a chat. */
  private async exclusive<T>(task: () => Promise<T>): Promise<T> {
    if (this.busy) throw new Error("A rewind of this chat is under way: wait for it to end.");
    this.busy = true;
    try {
      return await task();
    } finally {
      this.busy = false;
    }
  }

  /** The commands of the part that still run or wait: they are stopped before anything is put back. */
  private stops(ids: readonly string[]): RewindStop[] {
    const { views } = this.options.projection;
    return ids.flatMap((id) => {
      const view = views.byId.get(id);
      if (!view) return [];
      const background = view.phase === "background" && view.background?.status === "running";
      const runs = view.phase === "pending" || view.phase === "running";
      return background || runs ? [{ commandId: id, command: view.command, background }] : [];
    });
  }

  /** Stops the turn when it works, then the part's background commands (their records end as they stop). */
  private async stopPart(ids: readonly string[]): Promise<void> {
    const { session, projection, background } = this.options;
    if (projection.running || session.isStreaming) await this.options.stopTurn();
    for (const id of ids) if (background.has(id)) await background.stop(id, "person");
  }

  /** Records the folder as it is now, under the rewind's key; undefined when recording is off. */
  private async recordNow(rewindId: string): Promise<string | undefined> {
    const own = this.options.records;
    if (own?.records.recorder.state.type !== "on") return undefined;
    const key = own.keys.forNew(`rewind:${rewindId}`);
    const before = await own.records.recorder.before(key);
    if (!before.recorded) return undefined;
    await own.records.recorder.flushRecords(); // the journal names it: on disk first
    return key;
  }

  /** The record keys of the part's recorded commands and edits, newest first (`ids` oldest first). */
  private chain(ids: readonly string[]): string[] {
    return this.recorded(ids.filter((id) => this.isChange(id))).reverse();
  }

  /**
   * The record keys of the tool calls `ids` that have a complete record, in their order. Only the chat's
   * commands and edits are recorded under its keys: another branch's, which the transcript does not show, are
   * found by their records.
   */
  private recorded(ids: readonly string[]): string[] {
    const own = this.options.records;
    if (!own) return [];
    return ids.map((id) => own.keys.of(id)).filter((key) => own.records.recorder.complete(key));
  }

  /** Whether a tool call is a command or an edit of this chat (what a rewind takes back). */
  private isChange(id: string): boolean {
    const { views, edits } = this.options.projection;
    return views.byId.has(id) || edits.byId.has(id);
  }

  /**
   * Each file the part changed (`ids`, oldest first), with what a rewind does to it: the recorded ones, then
   * those not recorded. With `redo` (a branch switch), the other branch's recorded changes played again after.
   */
  private async files(ids: readonly string[], redo: readonly string[] = []): Promise<RewindFile[]> {
    const own = this.options.records;
    const chained = own
      ? await own.records.recorder.previewUndoChain(this.chain(ids), this.recorded(redo))
      : [];
    const files = new Map<string, RewindFile>(chained.map((file) => [file.path, fileOf(file)]));
    for (const id of ids) {
      const key = own?.keys.of(id);
      if (!this.isChange(id) || (key && own?.records.recorder.complete(key))) continue;
      for (const { path, reason } of this.unrecorded(id)) {
        if (!files.has(path)) files.set(path, { path, outcome: "not-recorded", reason });
      }
    }
    return [...files.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  }

  /** The files a command or edit without a record is known to have changed: an edit's file, a command's known writes. */
  private unrecorded(id: string): { path: string; reason: string }[] {
    const { views, edits } = this.options.projection;
    const missing = this.options.records ? NOT_KEPT : NOT_RECORDING;
    const edit = edits.byId.get(id);
    if (edit) {
      if (edit.status !== "applied") return [];
      const reason = edit.changes?.recorded === false ? edit.changes.reason : missing;
      return [{ path: this.relative(edit.path), reason }];
    }
    const view = views.byId.get(id);
    const changes = view?.details?.changes;
    if (!view || view.phase === "denied" || view.phase === "pending") return [];
    const reason = changes?.recorded === false ? changes.reason : missing;
    return (view.writePreview?.files ?? []).map((file) => ({ path: file.path, reason }));
  }

  private relative(path: string): string {
    return isAbsolute(path) ? relative(this.options.root, path).split(sep).join("/") : path;
  }
}

/** A test hook: where a rewind stops as if the host died (the crash tests), from `PI_DESK_REWIND_CRASH_AT`. */
function crashAt(): string | undefined {
  return process.env.PI_DESK_REWIND_CRASH_AT;
}
