import type { HostEvent } from "../../../shared/host-events";
import type { HostState } from "../../../shared/host-state";
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

/** The one reducer: host events in, view out. Pure, so a reload replays to the same screen. */
export function deskReducer(view: DeskView, action: DeskAction): DeskView {
  switch (action.type) {
    case "snapshot":
      return { ...view, host: action.state };
    case "workspace-changed":
      return view.host ? { ...view, host: { ...view.host, workspace: action.workspace } } : view;
    case "connection":
      return { ...view, connection: action.status };
  }
}
