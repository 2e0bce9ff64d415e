import type { DeskClient } from "./desk-client";
import { connectWebSocketDesk } from "./web-socket-desk";

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
