import {
  DESK_METHODS,
  type DeskApi,
  type DeskError,
  type DeskMethod,
  type Unsubscribe,
} from "../../../shared/desk-api";
import type { HostEvent } from "../../../shared/host-events";
import { type ServerMessage, TOKEN_PROTOCOL_PREFIX, WEB_PROTOCOL } from "../../../shared/web-protocol";
import type { ConnectionStatus, DeskClient } from "./desk-client";

const TOKEN_KEY = "pi-desk-token";
const RETRY_MS = [250, 500, 1000, 2000, 4000];

/** An error the host sent back for a call. */
export class DeskCallError extends Error {
  constructor(readonly error: DeskError) {
    super(error.message);
  }
}

/**
 * The token comes in the URL fragment (`#token=…`). It is moved to sessionStorage and taken off the
 * address bar at once, so it is not left in history or shown on screen, and a reload still has it.
 */
function takeToken(location: Location): string | null {
  const fromHash = new URLSearchParams(location.hash.slice(1)).get("token");
  if (fromHash) {
    sessionStorage.setItem(TOKEN_KEY, fromHash);
    history.replaceState(null, "", location.pathname + location.search);
    return fromHash;
  }
  return sessionStorage.getItem(TOKEN_KEY);
}

/** `DeskApi` over the browser host's WebSocket, reconnecting by itself when the link drops. */
export function connectWebSocketDesk(location: Location): DeskClient {
  const token = takeToken(location);
  const eventListeners = new Set<(event: HostEvent) => void>();
  const statusListeners = new Set<(status: ConnectionStatus) => void>();
  const pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  let status: ConnectionStatus = { kind: "connecting" };
  let socket: WebSocket | null = null;
  let nextId = 1;
  let attempt = 0;

  const setStatus = (next: ConnectionStatus) => {
    status = next;
    for (const listener of statusListeners) listener(next);
  };

  const onMessage = (raw: MessageEvent<string>) => {
    const message = JSON.parse(raw.data) as ServerMessage;
    if (message.kind === "event") {
      for (const listener of eventListeners) listener(message.event);
      return;
    }
    const call = message.id === null ? undefined : pending.get(message.id);
    if (!call) return;
    pending.delete(message.id as number);
    if (message.ok) call.resolve(message.result);
    else call.reject(new DeskCallError(message.error));
  };

  const connect = () => {
    if (!token) {
      setStatus({
        kind: "disconnected",
        reason: "This page has no access token. Open the full URL that `npm run serve` printed.",
      });
      return;
    }
    const url = `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/`;
    const ws = new WebSocket(url, [WEB_PROTOCOL, `${TOKEN_PROTOCOL_PREFIX}${token}`]);
    socket = ws;
    let opened = false;
    ws.onmessage = onMessage;
    ws.onopen = () => {
      opened = true;
      attempt = 0;
      setStatus({ kind: "connected" });
    };
    ws.onclose = () => {
      socket = null;
      for (const call of pending.values())
        call.reject(new Error("The connection to the Pi Desk host was lost."));
      pending.clear();
      const delay = RETRY_MS[Math.min(attempt, RETRY_MS.length - 1)] ?? 4000;
      attempt += 1;
      setStatus({
        kind: "disconnected",
        reason: opened
          ? "Lost the connection to the Pi Desk host; reconnecting…"
          : "Cannot reach the Pi Desk host: it may have stopped, or this page's token is not the current one. " +
            "Open the URL that `npm run serve` printed; retrying…",
      });
      setTimeout(connect, delay);
    };
  };

  const call = <M extends DeskMethod>(method: M, params?: unknown): Promise<never> =>
    new Promise((resolve, reject) => {
      if (!socket || socket.readyState !== WebSocket.OPEN) {
        reject(new Error("Not connected to the Pi Desk host yet; try again in a moment."));
        return;
      }
      const id = nextId++;
      pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      socket.send(JSON.stringify(params === undefined ? { id, method } : { id, method, params }));
    });

  const calls = Object.fromEntries(
    DESK_METHODS.map((method) => [method, (params?: unknown) => call(method, params)]),
  );
  const api = {
    ...calls,
    onHostEvent: (listener: (event: HostEvent) => void): Unsubscribe => {
      eventListeners.add(listener);
      return () => eventListeners.delete(listener);
    },
  } as DeskApi;

  connect();
  return {
    api,
    onConnection: (listener) => {
      statusListeners.add(listener);
      listener(status);
      return () => statusListeners.delete(listener);
    },
  };
}
