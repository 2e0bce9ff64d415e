import type { RevertEntry } from "../../shared/changes";
import type { EditTool, EditView, FileEditDetails } from "../../shared/edits";
import type { ChatEventBody } from "../../shared/host-events";

/** The tools whose calls are file edits. */
export const EDIT_TOOLS: readonly string[] = ["edit", "write"] satisfies EditTool[];

/**
 * Every `edit` and `write` call of a conversation as the UI shows it, from the agent's ask to its end.
 * Part of the session's projection: tool events and the gate's card changes go in, `edit-update` events
 * come out. It does no I/O.
 */
export class EditViews {
  /** The views by edit id (the tool call id). */
  readonly byId = new Map<string, EditView>();

  constructor(private readonly emit: (event: ChatEventBody) => void) {}

  /** The agent asked for an edit: its card starts pending (its diff comes once the host has computed it). */
  started(
    id: string,
    tool: EditTool,
    args: Record<string, unknown>,
    live: boolean,
    parentToolCallId?: string,
  ): void {
    const view: EditView = {
      id,
      tool,
      path: typeof args.path === "string" ? args.path : "",
      status: "pending",
      ...(parentToolCallId ? { parentToolCallId } : {}),
    };
    this.byId.set(id, view);
    if (live) this.emit({ type: "edit-update", edit: view });
  }

  /** Replaces an edit's view and tells the UI. */
  update(id: string, patch: Partial<EditView>): EditView | undefined {
    const current = this.byId.get(id);
    if (!current) return undefined;
    const next = dropUndefined({ ...current, ...patch });
    this.byId.set(id, next);
    this.emit({ type: "edit-update", edit: next });
    return next;
  }

  /** The tool returned: applied, denied, refused, failed or cancelled. */
  ended(id: string, details: FileEditDetails | undefined, text: string, live: boolean): void {
    const view = this.byId.get(id);
    if (!view) return;
    const next: EditView =
      details?.piDesk === "file-edit"
        ? {
            ...view,
            status: details.status,
            path: details.path || view.path,
            ...(details.shape ? { shape: details.shape } : {}),
            ...(details.diff ? { diff: details.diff } : {}),
            ...(details.reason ? { reason: details.reason } : {}),
            ...(details.reason && details.reasonSay ? { reasonSay: details.reasonSay } : {}),
            ...(details.changedByPerson ? { changedByPerson: true } : {}),
            ...(details.changes ? { changes: details.changes } : {}),
          }
        : // Pi ends a call this way when the turn stopped before the tool ran, or its arguments were invalid.
          { ...view, status: text.includes("aborted") ? "cancelled" : "failed", reason: text };
    delete next.approvalId;
    delete next.proposed;
    this.byId.set(id, next);
    if (live) this.emit({ type: "edit-update", edit: next });
  }

  /** After reopening a stored conversation: an edit without a result was cut short when the host stopped. */
  settleStored(): void {
    for (const [id, view] of this.byId) {
      if (view.status !== "pending") continue;
      const next: EditView = {
        ...view,
        status: "cancelled",
        reason: "Pi Desk stopped before this edit was decided; nothing was written.",
      };
      delete next.approvalId;
      delete next.proposed;
      this.byId.set(id, next);
    }
  }

  /** Edits whose change records were dropped (or are gone): their cards stop offering undo. */
  changesDropped(ids: readonly string[], live: boolean): void {
    for (const id of ids) {
      const view = this.byId.get(id);
      if (!view || view.changesDropped) continue;
      if (live) this.update(id, { changesDropped: true });
      else this.byId.set(id, { ...view, changesDropped: true });
    }
  }

  /** An undo or restore stored in the conversation, shown again on its card when the chat is reopened. */
  addStoredRevert(id: string, entry: RevertEntry): void {
    const view = this.byId.get(id);
    if (view) this.byId.set(id, { ...view, reverts: [...(view.reverts ?? []), entry] });
  }
}

/** A patch may clear a field with `undefined`: the view then has no such key (it crosses as JSON anyway). */
function dropUndefined<T extends object>(value: T): T {
  for (const key of Object.keys(value) as (keyof T)[]) if (value[key] === undefined) delete value[key];
  return value;
}
