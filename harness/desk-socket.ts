import WebSocket from "ws";
import type { DeskMethod, DeskParams, DeskResult } from "../src/shared/desk-api";
import type { HostEvent } from "../src/shared/host-events";
import type { ServerMessage } from "../src/shared/web-protocol";
import type { CallTarget } from "./chat-calls.ts";
import type { DeskServer } from "./desk-server.ts";

/** The browser host's WebSocket from Node, as the page speaks it: calls by name, replies by id, events. */
export interface DeskSocket {
  call<M extends DeskMethod>(method: M, params?: DeskParams<M>): Promise<DeskResult<M>>;
  onEvent(listener: (event: HostEvent) => void): void;
  close(): void;
}

/** Connects with the token from the URL the host printed, as a subprotocol, from the host's own origin. */
export async function connectDesk(server: DeskServer): Promise<DeskSocket> {
  const token = new URL(server.url).hash.replace(/^#token=/, "");
  const socket = new WebSocket(
    `${server.origin.replace(/^http/, "ws")}/`,
    ["pi-desk.v1", `pi-desk-token.${token}`],
    {
      origin: server.origin,
    },
  );
  const waiting = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  const listeners: ((event: HostEvent) => void)[] = [];
  socket.on("message", (data) => {
    const message = JSON.parse(data.toString()) as ServerMessage;
    if (message.kind === "event") {
      for (const listener of listeners) listener(message.event);
      return;
    }
    const call = message.id === null ? undefined : waiting.get(message.id);
    if (!call || message.id === null) return;
    waiting.delete(message.id);
    if (message.ok) call.resolve(message.result);
    else call.reject(new Error(`${message.error.code}: ${message.error.message}`));
  });
  socket.on("close", () => {
    for (const call of waiting.values()) call.reject(new Error("The browser host closed the connection."));
    waiting.clear();
  });
  await new Promise<void>((resolve, reject) => {
    socket.once("open", () => resolve());
    socket.once("error", reject);
  });
  let nextId = 1;
  return {
    call: <M extends DeskMethod>(method: M, params?: DeskParams<M>) =>
      new Promise<DeskResult<M>>((resolve, reject) => {
        const id = nextId++;
        waiting.set(id, { resolve: resolve as (value: unknown) => void, reject });
        socket.send(JSON.stringify(params === undefined ? { id, method } : { id, method, params }));
      }),
    onEvent: (listener) => listeners.push(listener),
    close: () => socket.close(),
  };
}

/** The socket as a target of chat-bound calls (`chatCalls(socketTarget(socket))`: each call names the newest chat). */
export function socketTarget(socket: DeskSocket): CallTarget {
  return {
    call: (method, params) => socket.call(method, params as never),
    state: () => socket.call("getState"),
  };
}
