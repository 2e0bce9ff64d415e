import { Compile } from "typebox/compile";
import type { RawData, WebSocket } from "ws";
import { ClientRequest } from "../../shared/request-schemas";
import type { ServerMessage } from "../../shared/web-protocol";
import type { DeskHost } from "../core/desk-host";
import { routeRequest } from "../core/request-router";

const isClientRequest = Compile(ClientRequest);

/**
 * One page's connection: host events go out as they happen, calls come in as JSON and go through the
 * same router as Electron's IPC. A malformed message gets an error reply and changes nothing.
 */
export function serveConnection(socket: WebSocket, host: DeskHost): void {
  const send = (message: ServerMessage) => {
    if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(message));
  };
  const unsubscribe = host.subscribe((event) => send({ kind: "event", event }));
  socket.on("close", unsubscribe);
  socket.on("error", () => socket.terminate());

  socket.on("message", async (data: RawData, isBinary: boolean) => {
    const request = isBinary ? undefined : parseJson(data.toString());
    if (!isClientRequest.Check(request)) {
      return send({
        kind: "reply",
        id: null,
        ok: false,
        error: {
          code: "invalid-params",
          message:
            'Messages must be JSON text of the form {"id": <integer>, "method": <string>, "params"?: {...}}.',
        },
      });
    }
    const outcome = await routeRequest(host.handlers, request.method, request.params);
    send(
      outcome.ok
        ? { kind: "reply", id: request.id, ok: true, result: outcome.result }
        : { kind: "reply", id: request.id, ok: false, error: outcome.error },
    );
  });
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
