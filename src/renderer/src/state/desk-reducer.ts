import type { HostEvent } from "../../../shared/host-events";
import type { HostState, SessionState } from "../../../shared/host-state";
import type { TranscriptItem } from "../../../shared/transcript";
import type { ConnectionStatus } from "../client/desk-client";

/** What the UI shows: a projection of the host's state plus whether the host can be reached. */
export interface DeskView {
  /** The host's state as last told; null until the first snapshot. */
  host: HostState | null;
  /** The link to the host. */
  connection: ConnectionStatus;
}

/** Everything that changes the view: the host's events, and the client's word on the connection. */
export type DeskAction = HostEvent | { type: "connection"; status: ConnectionStatus };

/** The view before anything is known. */
export const initialView: DeskView = { host: null, connection: { kind: "connecting" } };

/**
 * The one reducer: host events in, view out. Pure, so a reload replays to the same screen.
 *
 * Events that arrive before the first snapshot are dropped: the snapshot carries their effect. Events that
 * name something the view does not hold (an unknown entry or command, a session that is not open) are
 * dropped too and return the same view, so nothing re-renders; the next snapshot brings the truth.
 */
export function deskReducer(view: DeskView, action: DeskAction): DeskView {
  if (action.type === "connection") return { ...view, connection: action.status };
  if (action.type === "snapshot") return { ...view, host: action.state };
  const host = view.host;
  if (!host) return view;
  const next = reduceHost(host, action);
  return next === host ? view : { ...view, host: next };
}

function reduceHost(host: HostState, event: Exclude<HostEvent, { type: "snapshot" }>): HostState {
  switch (event.type) {
    case "rules-changed":
      return { ...host, rules: event.rules, rulesProblem: event.problem };
    case "models-changed":
      return { ...host, models: event.models };
    case "saved-outputs":
      return host.limits ? { ...host, limits: { ...host.limits, savedOutputs: event.savedOutputs } } : host;
    case "changes-state":
      return host.limits ? { ...host, limits: { ...host.limits, changes: event.changes } } : host;
    case "notifications-changed":
      return host.notifications === event.enabled ? host : { ...host, notifications: event.enabled };
    default: {
      const session = host.session;
      if (!session) return host;
      const next = reduceSession(session, event);
      return next === session ? host : { ...host, session: next };
    }
  }
}

type SessionEvent = Exclude<
  HostEvent,
  {
    type:
      | "snapshot"
      | "rules-changed"
      | "models-changed"
      | "saved-outputs"
      | "changes-state"
      | "notifications-changed";
  }
>;

function reduceSession(session: SessionState, event: SessionEvent): SessionState {
  switch (event.type) {
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
