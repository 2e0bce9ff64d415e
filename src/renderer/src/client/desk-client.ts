import type { DeskApi, Unsubscribe } from "../../../shared/desk-api";

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
