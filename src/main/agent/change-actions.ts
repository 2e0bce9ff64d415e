import type { FileDiff, RestorePreview, RevertEntry, RevertResult } from "../../shared/changes";
import type { AuditEntry } from "../../shared/rules";
import type { ChangeRecorder } from "../changes";
import { nameOf } from "./command-changes";
import type { CommandViews } from "./command-views";
import type { EditViews } from "./edit-views";
import type { McpCallViews } from "./mcp/mcp-call-views";
import type { RecordKeys } from "./record-keys";

/** The custom message type that tells the model of an undo or a restore (and rebuilds the card on reopen). */
export const REVERT_MESSAGE_TYPE = "pi-desk-revert";

/** What the model's message of an undo or a restore carries, to rebuild the card's entry on reopen. */
export interface RevertMessageDetails {
  commandId: string;
  entry: RevertEntry;
}

/** What the person's undo and restore act on and report to. */
export interface ChangeActionsOptions {
  /** The workspace's change engine. */
  recorder: ChangeRecorder;
  /** The keys this chat's records are kept under in it. */
  keys: RecordKeys;
  /** The chat's command cards. */
  views: CommandViews;
  /** The chat's edit cards: an applied edit is undone like a command. */
  edits?: EditViews;
  /** The chat's MCP call cards: a local server's recorded call is undone like a command. */
  mcpCalls?: McpCallViews;
  /** Writes the audit log's line. */
  audit: (id: string, label: Partial<AuditEntry>, kind: RevertEntry["kind"], text: string) => void;
  /** Tells the model, on its next turn, what the person put back. */
  tell: (text: string, details: RevertMessageDetails) => void;
}

/** The most file names one message to the model lists of each kind. */
const MAX_NAMED = 20;

/**
 * The person's undo of one command's changes, restore of the workspace to before a command, and the
 * diffs the card shows. Each undo or restore is recorded three ways: its own entry on the command's card,
 * a line in the audit log, and a message the model reads on its next turn.
 */
export class ChangeActions {
  /** Restore previews by id, to the command they go back to. */
  private readonly previews = new Map<string, string>();

  constructor(private readonly options: ChangeActionsOptions) {}

  /** The diff of one file a finished command changed. */
  diff(commandId: string, path: string): Promise<FileDiff> {
    this.finished(commandId);
    return this.options.recorder.diff(this.options.keys.of(commandId), path);
  }

  /** Puts back what a finished command changed; files changed since are conflicts unless in `undoAnyway`. */
  async undo(commandId: string, undoAnyway: readonly string[] = []): Promise<RevertResult> {
    const view = this.finished(commandId);
    this.idle();
    const result = await this.options.recorder.undo(this.options.keys.of(commandId), undoAnyway);
    this.report("undo", view, result);
    return result;
  }

  /** Every file that going back to the workspace's state before a command would change. */
  async previewRestore(commandId: string): Promise<RestorePreview> {
    this.finished(commandId);
    const preview = await this.options.recorder.previewRestore(this.options.keys.of(commandId));
    if (!preview) {
      throw new Error(
        `There is no record of the workspace before command ${commandId} (recording was off, or it was pruned): nothing to restore.`,
      );
    }
    this.previews.set(preview.previewId, commandId);
    return preview;
  }

  /** Applies a restore preview. */
  async restore(previewId: string, undoAnyway: readonly string[] = []): Promise<RevertResult> {
    const commandId = this.previews.get(previewId);
    if (commandId === undefined)
      throw new Error("That preview is no longer known: preview the restore again.");
    const view = this.finished(commandId);
    this.idle();
    const result = await this.options.recorder.restore(previewId, undoAnyway);
    // A preview with conflicts stays usable for "undo anyway"; a finished one is gone.
    if (result.conflicts.length === 0) this.previews.delete(previewId);
    this.report("restore", view, result);
    return result;
  }

  /** The card's entry, the audit line, and (when files were put back) the model's message. */
  private report(kind: RevertEntry["kind"], target: RevertTarget, result: RevertResult): void {
    const entry: RevertEntry = { kind, at: Date.now(), result };
    target.addRevert(entry);
    const text = describeRevert(kind, target.name, result);
    this.options.audit(target.id, target.label, kind, text);
    if (result.restored.length > 0) this.options.tell(text, { commandId: target.id, entry });
  }

  /** The command (or edit) whose changes are taken back, when it has ended; throws a sentence saying why not otherwise. */
  private finished(id: string): RevertTarget {
    const { views, edits } = this.options;
    const edit = edits?.byId.get(id);
    if (edit) {
      if (edit.status !== "applied") throw new Error("This edit was not applied: there is nothing to undo.");
      return {
        id,
        name: `edit of ${edit.path}`,
        label: { kind: "file-edit", tool: edit.tool, path: edit.path },
        addRevert: (entry) => edits?.update(id, { reverts: [...(edits.byId.get(id)?.reverts ?? []), entry] }),
      };
    }
    const call = this.options.mcpCalls?.byId.get(id);
    if (call) {
      if (call.status === "pending" || call.status === "running")
        throw new Error("This tool call has not ended yet: its changes can be undone once it has.");
      const calls = this.options.mcpCalls;
      return {
        id,
        name: `tool call ${call.server}/${call.tool}`,
        label: { kind: "mcp-call", server: call.server, tool: call.tool },
        addRevert: (entry) => calls?.update(id, { reverts: [...(calls.byId.get(id)?.reverts ?? []), entry] }),
      };
    }
    const view = views.byId.get(id);
    if (!view) throw new Error(`Command "${id}" is not in this chat.`);
    const runs =
      view.phase === "pending" ||
      view.phase === "running" ||
      (view.phase === "background" && view.background?.status === "running");
    if (runs) throw new Error("This command has not ended yet: its changes can be undone once it has.");
    return {
      id,
      name: `command ${nameOf({ commandId: id, command: view.command })}`,
      label: { command: view.command },
      addRevert: (entry) => views.update(id, { reverts: [...(views.byId.get(id)?.reverts ?? []), entry] }),
    };
  }

  /** Refuses while a command runs: an undo then would mix with what it writes. */
  private idle(): void {
    const running = [...this.options.views.byId.values()].find((view) => view.phase === "running");
    if (running) {
      throw new Error(
        `${nameOf({ commandId: running.id, command: running.command })} is running: wait for it to end (or cancel it), then try again.`,
      );
    }
  }
}

/** What an undo or a restore takes back: a command or an edit, as sentences and the audit log name it. */
interface RevertTarget {
  id: string;
  /** As a sentence names it: "command `npm test`", "edit of src/a.ts". */
  name: string;
  /** What its audit lines carry. */
  label: Partial<AuditEntry>;
  /** Adds the undo's entry to its card. */
  addRevert(entry: RevertEntry): void;
}

/** The sentence for the model and the audit log: what was put back, what was left alone and why. */
export function describeRevert(kind: RevertEntry["kind"], name: string, result: RevertResult): string {
  const what =
    kind === "undo"
      ? `The person undid the changes of ${name}`
      : `The person restored the workspace to its state before ${name}`;
  const parts = [
    result.restored.length > 0 ? `put back ${names(result.restored)}` : "nothing was put back",
    result.conflicts.length > 0
      ? `left alone (changed since): ${names(result.conflicts.map((c) => c.path))}`
      : "",
    result.refused.length > 0
      ? `could not put back: ${result.refused
          .slice(0, MAX_NAMED)
          .map((r) => (r.path ? `${r.path} (${r.reason})` : r.reason))
          .join("; ")}`
      : "",
  ];
  return `${what}: ${parts.filter(Boolean).join("; ")}.`;
}

function names(paths: readonly string[]): string {
  const shown = paths.slice(0, MAX_NAMED).join(", ");
  return paths.length > MAX_NAMED ? `${shown} and ${paths.length - MAX_NAMED} more` : shown;
}

/** The undo or restore a stored message of the host's told the model of, to show again on its card. */
export function storedRevertOf(message: unknown): RevertMessageDetails | undefined {
  const m = message as { role: string; customType?: string; details?: Partial<RevertMessageDetails> };
  if (m.role !== "custom" || m.customType !== REVERT_MESSAGE_TYPE) return undefined;
  const details = m.details;
  return typeof details?.commandId === "string" && details.entry
    ? (details as RevertMessageDetails)
    : undefined;
}
