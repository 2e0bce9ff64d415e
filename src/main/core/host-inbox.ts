import {
  awaitsPerson,
  editAwaitsPerson,
  entryAwaitsPerson,
  inboxApprovalId,
  inboxEntryOf,
  inboxKey,
  mcpCallAwaitsPerson,
} from "../../shared/attention";
import type { ChatEventBody } from "../../shared/host-events";
import type { InboxEntry } from "../../shared/host-state";
import type { WorkspaceSession } from "../agent/workspace-session";

/** How many approval ids of closed chats the inbox remembers, to say why a late decision is refused. */
const CLOSED_APPROVALS_KEPT = 1000;

/**
 * Every chat's commands and edits waiting for the person, as one list oldest first: the order they started
 * waiting in, whichever chat they wait in. It also remembers what waited in chats since closed, so a decision
 * sent for one (from another tab, a notification) is refused with the reason.
 */
export class HostInbox {
  /** When each waiting request started waiting (a counter), by `inboxKey`. */
  private readonly waitingSince = new Map<string, number>();
  /** Approval ids of requests that waited in chats since closed, with the chat's title. */
  private readonly closed = new Map<string, string>();
  private clock = 0;

  /** Follows a chat's event: a request that starts waiting takes its place at the end, an answered one leaves. */
  follow(chatId: string, event: ChatEventBody): void {
    const entry = inboxEntryOf(chatId, event);
    if (!entry) return;
    const key = inboxKey(entry);
    const waits = entryAwaitsPerson(entry);
    if (waits && !this.waitingSince.has(key)) this.waitingSince.set(key, ++this.clock);
    if (!waits) this.waitingSince.delete(key);
  }

  /** What waits now in these chats, oldest first. */
  entries(chats: Iterable<{ id: string; session: WorkspaceSession }>): InboxEntry[] {
    const found: { at: number; entry: InboxEntry }[] = [];
    const add = (entry: InboxEntry) => found.push({ at: this.waitingSince.get(inboxKey(entry)) ?? 0, entry });
    for (const { id, session } of chats) {
      for (const command of session.view.commands.values()) {
        if (awaitsPerson(command)) add({ kind: "command", chatId: id, command });
      }
      for (const edit of session.view.edits.byId.values()) {
        if (editAwaitsPerson(edit)) add({ kind: "edit", chatId: id, edit });
      }
      for (const call of session.view.mcpCalls.byId.values()) {
        if (mcpCallAwaitsPerson(call)) add({ kind: "mcp-call", chatId: id, call });
      }
    }
    return found.sort((a, b) => a.at - b.at).map(({ entry }) => entry);
  }

  /** A chat closes: what waited in it is remembered by approval id, with the chat's title, and leaves the list. */
  chatClosed(chatId: string, title: string, waiting: readonly InboxEntry[]): void {
    for (const entry of waiting) {
      const approvalId = inboxApprovalId(entry);
      if (approvalId) this.closed.set(approvalId, title);
    }
    for (const oldest of this.closed.keys()) {
      if (this.closed.size <= CLOSED_APPROVALS_KEPT) break;
      this.closed.delete(oldest);
    }
    for (const key of [...this.waitingSince.keys()]) {
      if (key.startsWith(`${chatId}:`)) this.waitingSince.delete(key);
    }
  }

  /** Why nothing waits under an approval id: its chat was closed (named), or it was never (or no longer) waiting. */
  refusal(approvalId: string): string {
    const title = this.closed.get(approvalId);
    return title !== undefined
      ? `The chat "${title}" was closed, so nothing waits under approval id "${approvalId}" any more: its request was cancelled. Reopen the chat to go on.`
      : `Nothing is waiting under approval id "${approvalId}": it was already decided, cancelled, or never issued.`;
  }
}
