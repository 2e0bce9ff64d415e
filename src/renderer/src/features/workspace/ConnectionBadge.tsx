import type { ConnectionStatus } from "../../client/desk-client";

const LABELS = { connecting: "Connecting…", connected: "Connected", disconnected: "Disconnected" } as const;

/** Whether the host is reachable, always visible in the header. */
export function ConnectionBadge({ status }: { status: ConnectionStatus }) {
  return (
    <span className={`badge badge-${status.kind}`} data-testid="connection-status" data-status={status.kind}>
      {LABELS[status.kind]}
    </span>
  );
}
