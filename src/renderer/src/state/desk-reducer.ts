import { entryAwaitsPerson, inboxEntryOf, inboxKey } from "../../../shared/attention";
import type { ChatEvent, HostEvent } from "../../../shared/host-events";
import type { HostState, InboxEntry, SessionState } from "../../../shared/host-state";
import type { TranscriptItem } from "../../../shared/transcript";
import type { ConnectionStatus } from "../client/desk-client";

/** What the UI shows: a projection of the host's state plus whether the host can be reached. */
export interface DeskView {
  /** The host's state as last told; null until the first state arrives. */
  host: HostState | null;
  /** The link to the host. */
  connection: ConnectionStatus;
  /** The last event of the host's stream the view holds (the state's, then each event's). */
  seq: number;
  /**
   * The view missed something (a gap in the events' numbers, the shown chat closed): the page asks for its
   * chat's state again, and applies nothing until it has it.
   */
  stale: boolean;
}

/** Everything that changes the view: the host's events, a state the page asked for, the connection. */
export type DeskAction =
  | HostEvent
  | { type: "state"; state: HostState }
  | { type: "connection"; status: ConnectionStatus };

/** The view before anything is known. */
export const initialView: DeskView = { host: null, connection: { kind: "connecting" }, seq: 0, stale: false };

/**
 * The one reducer: host events in, view out. Pure, so a reload replays to the same screen.
 *
 * The state holds one chat in full; events of the host's numbered stream (`seq`) older than the state are
 * already in it and dropped, and a gap makes the view stale until the page has asked for the state again.
 * Events of other chats only move the sidebar and the inbox. Events that name something the view does not
 * hold (an unknown entry or command) are dropped and return the same view, so nothing re-renders.
 */
export function deskReducer(view: DeskView, action: DeskAction): DeskView {
  if (action.type === "connection") return { ...view, connection: action.status };
  if (action.type === "state") return { ...view, host: action.state, seq: action.state.seq, stale: false };
  const host = view.host;
  // Shell events (a notification's click, a menu) change no state; nothing applies before the first state.
  if (!host || !("seq" in action) || view.stale) return view;
  if (action.seq <= view.seq) return view;
  if (action.seq > view.seq + 1) return { ...view, stale: true };
  const seq = action.seq;
  if (action.type === "chat-closed" && action.chatId === host.chatId) return { ...view, seq, stale: true };
  // The host object stays the same when the event changed nothing: nothing re-renders.
  const next = reduceHost(host, action);
  return next === host ? { ...view, seq } : { ...view, host: next, seq };
}

type NumberedEvent = Extract<HostEvent, { seq: number }>;

function reduceHost(host: HostState, event: NumberedEvent): HostState {
  switch (event.type) {
    case "chat-summary": {
      const at = host.chats.findIndex((chat) => chat.id === event.summary.id);
      const chats = at < 0 ? [...host.chats, event.summary] : replaceAt(host.chats, at, event.summary);
      return { ...host, chats };
    }
    case "chat-closed":
      return {
        ...host,
        chats: host.chats.filter((chat) => chat.id !== event.chatId),
        inbox: host.inbox.filter((entry) => entry.chatId !== event.chatId),
      };
    case "workspaces-changed":
      return { ...host, workspaces: event.workspaces };
    case "saved-outputs":
      if (event.workspaceId !== host.workspace?.id || !host.limits) return host;
      return { ...host, limits: { ...host.limits, savedOutputs: event.savedOutputs } };
    case "changes-state":
      if (event.workspaceId !== host.workspace?.id || !host.limits) return host;
      return { ...host, limits: { ...host.limits, changes: event.changes } };
    case "notifications-changed":
      return host.notifications === event.enabled ? host : { ...host, notifications: event.enabled };
    default: {
      const inbox = reduceInbox(host.inbox, event);
      const withInbox = inbox === host.inbox ? host : { ...host, inbox };
      return event.chatId === host.chatId ? reduceChat(withInbox, event) : withInbox;
    }
  }
}

/** Every chat's waiting commands and edits: one that starts waiting joins the end, one answered leaves. */
function reduceInbox(inbox: InboxEntry[], event: ChatEvent): InboxEntry[] {
  const entry = inboxEntryOf(event.chatId, event);
  if (!entry) return inbox;
  const waits = entryAwaitsPerson(entry);
  const key = inboxKey(entry);
  const at = inbox.findIndex((other) => inboxKey(other) === key);
  if (waits) return at < 0 ? [...inbox, entry] : replaceAt(inbox, at, entry);
  return at < 0 ? inbox : inbox.filter((_, index) => index !== at);
}

function reduceChat(host: HostState, event: ChatEvent): HostState {
  switch (event.type) {
    case "rules-changed":
      return { ...host, rules: event.rules, rulesProblem: event.problem };
    case "models-changed":
      return { ...host, models: event.models };
    case "limits-changed":
      return { ...host, limits: event.limits };
    default: {
      const session = host.session;
      if (!session) return host;
      const next = reduceSession(session, event);
      return next === session ? host : { ...host, session: next };
    }
  }
}

type SessionEvent = Exclude<ChatEvent, { type: "rules-changed" | "models-changed" | "limits-changed" }>;

function reduceSession(session: SessionState, event: SessionEvent): SessionState {
  switch (event.type) {
    case "context-changed":
      return { ...session, context: event.context };
    case "session-replaced":
      // The conversation moved on Pi's tree (a rewind, or back): the host sends it whole.
      return event.session;
    case "queue-changed": {
      const { queued: _gone, ...rest } = session;
      return event.queued.length > 0 ? { ...session, queued: event.queued } : rest;
    }
    case "session-status":
      return session.running === event.running ? session : { ...session, running: event.running };
    case "transcript-add": {
      // A repeated add (a resend after a reconnect) replaces the entry instead of showing it twice.
      const at = indexOfItem(session.transcript, event.item.id);
      if (at >= 0) return { ...session, transcript: replaceAt(session.transcript, at, event.item) };
      return { ...session, transcript: [...session.transcript, event.item] };
    }
    case "transcript-update": {
      const at = indexOfItem(session.transcript, event.item.id);
      if (at < 0) return session;
      return { ...session, transcript: replaceAt(session.transcript, at, event.item) };
    }
    case "assistant-delta": {
      const at = indexOfItem(session.transcript, event.id);
      const item = session.transcript[at];
      if (item?.kind !== "assistant" || (!event.text && !event.thinking)) return session;
      const grown = {
        ...item,
        text: event.text ? item.text + event.text : item.text,
        thinking: event.thinking ? item.thinking + event.thinking : item.thinking,
      };
      return { ...session, transcript: replaceAt(session.transcript, at, grown) };
    }
    case "command-update":
      return { ...session, commands: { ...session.commands, [event.command.id]: event.command } };
    case "edit-update":
      return { ...session, edits: { ...session.edits, [event.edit.id]: event.edit } };
    case "mcp-call-update":
      return { ...session, mcpCalls: { ...session.mcpCalls, [event.call.id]: event.call } };
    case "mcp-servers-changed":
      return { ...session, mcp: event.mcp };
    case "command-output": {
      const command = Object.hasOwn(session.commands, event.id) ? session.commands[event.id] : undefined;
      if (!command) return session;
      const { output, totalBytes, totalLines } = event;
      return {
        ...session,
        commands: { ...session.commands, [event.id]: { ...command, output, totalBytes, totalLines } },
      };
    }
    default:
      // An event type this build does not know (a newer host): ignore it rather than break.
      return session;
  }
}

/** Searches from the end: the entry an event names is almost always one of the last. */
function indexOfItem(items: TranscriptItem[], id: string): number {
  for (let i = items.length - 1; i >= 0; i--) if (items[i]?.id === id) return i;
  return -1;
}

function replaceAt<T>(items: T[], at: number, item: T): T[] {
  const copy = items.slice();
  copy[at] = item;
  return copy;
}
