import { memo } from "react";
import { useT } from "../../i18n/i18n";
import { focusCommandCard } from "../attention/waiting-notifications";

/** What waits: a command (its text) or a file edit (its path). */
export type PendingLineTarget =
  | { kind: "command"; id: string; command: string }
  | { kind: "edit"; id: string; path: string }
  | { kind: "mcp-call"; id: string; label: string };

/**
 * The transcript's place for a command or edit that waits for the person. Its full card is drawn once, in
 * the approval tray where the person decides; this line says what waits and, clicked, brings that card into
 * view and focuses it. Once decided, the transcript draws the full card here instead.
 */
export const PendingLine = memo(function PendingLine({ target }: { target: PendingLineTarget }) {
  const t = useT();
  // The first line is enough to recognise it; the tray shows it whole.
  const what =
    target.kind === "command"
      ? target.command.split("\n")[0]
      : target.kind === "edit"
        ? t.layout.editOf(target.path)
        : target.label;
  const ids =
    target.kind === "command"
      ? { "data-command-id": target.id }
      : target.kind === "edit"
        ? { "data-edit-id": target.id }
        : { "data-tool-call-id": target.id };
  return (
    <button
      type="button"
      className="pending-line"
      title={t.layout.waitingForHint}
      onClick={() => focusCommandCard(target.id)}
      data-testid="pending-line"
      {...ids}
    >
      <span className="pending-line-label">{t.layout.waitingFor}</span>{" "}
      {target.kind !== "edit" ? (
        <code className="pending-line-what">{what}</code>
      ) : (
        <span className="pending-line-what">{what}</span>
      )}
    </button>
  );
});
