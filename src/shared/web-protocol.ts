import type { DeskError } from "./desk-api";
import type { HostEvent } from "./host-events";

/** The WebSocket subprotocol of the browser host. */
export const WEB_PROTOCOL = "pi-desk.v1";
/**
 * The token travels as a second subprotocol, `pi-desk-token.<token>`: browsers cannot set headers on a
 * WebSocket, and a subprotocol stays out of URLs, logs and the Referer (Kubernetes does the same).
 */
export const TOKEN_PROTOCOL_PREFIX = "pi-desk-token.";
/**
 * The largest message a client may send, in bytes; the host closes the connection on a bigger one. Room for
 * a person's own version of a file an edit may write (2 MiB of text, which JSON may escape to more).
 */
export const MAX_CLIENT_MESSAGE_BYTES = 8 * 1024 * 1024;

/** What the host sends over the WebSocket: replies to calls, and events. */
export type ServerMessage =
  | { kind: "reply"; id: number; ok: true; result: unknown }
  | { kind: "reply"; id: number | null; ok: false; error: DeskError }
  | { kind: "event"; event: HostEvent };
