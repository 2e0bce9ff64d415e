import type { ConnectionStatus } from "../../client/desk-client";
import { useT } from "../../i18n/i18n";

/** Whether the host is reachable, always visible in the header. */
export function ConnectionBadge({ status }: { status: ConnectionStatus }) {
  const t = useT();
  return (
    <span
      className={`badge badge-${status.kind}`}
      data-testid="connection-status"
      data-status={status.kind}
      role="status"
    >
      {t.connection[status.kind]}
    </span>
  );
}
