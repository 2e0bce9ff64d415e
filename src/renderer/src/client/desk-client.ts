import type { DeskApi, Unsubscribe } from "../../../shared/desk-api";
import { connectWebSocketDesk } from "./web-socket-desk";

/** Whether the UI can reach the host right now. */
export type ConnectionStatus =
  | { kind: "connecting" }
  | { kind: "connected" }
  | { kind: "disconnected"; reason: string };

/** The renderer's one way to the host, whichever shell it runs in. */
export interface DeskClient {
  /** The contract's calls and events. */
  api: DeskApi;
  /** Follow the connection; the listener is called at once with the current status. */
  onConnection(listener: (status: ConnectionStatus) => void): Unsubscribe;
}

/** Electron's preload bridge when it is there, else the browser host's WebSocket. */
export function connectDesk(): DeskClient {
  const bridge = window.piDesk;
  if (bridge) {
    return {
      api: bridge,
      onConnection: (listener) => {
        listener({ kind: "connected" });
        return () => {};
      },
    };
  }
  return connectWebSocketDesk(window.location);
}
