import type { HostState, WorkspaceInfo } from "./host-state";

/** The host's whole state, sent when a client connects or asks for it; it replaces whatever the UI had. */
export interface SnapshotEvent {
  type: "snapshot";
  /** The state at the moment of sending. */
  state: HostState;
}

/** A workspace was opened (or closed, when null). */
export interface WorkspaceChangedEvent {
  type: "workspace-changed";
  /** The workspace now open. */
  workspace: WorkspaceInfo | null;
}

/** Everything the host pushes to the UI, discriminated by `type`. */
export type HostEvent = SnapshotEvent | WorkspaceChangedEvent;
