import { useId } from "react";
import type { CommandView } from "../../../../shared/commands";
import type { DeskApi } from "../../../../shared/desk-api";
import type { EditView } from "../../../../shared/edits";
import { useT } from "../../i18n/i18n";
import { EditCard } from "../edits/EditCard";
import { CommandCard } from "./CommandCard";
import { CardPlaceContext } from "./card-scope";

/**
 * Every command and file edit waiting for the person, always in view while any waits (the transcript may have
 * scrolled far past where the agent asked). Each entry answers on its own.
 */
export function ApprovalTray({
  commands,
  edits,
  api,
}: {
  commands: CommandView[];
  edits: EditView[];
  api: DeskApi;
}) {
  const t = useT();
  const headingId = useId();
  if (commands.length + edits.length === 0) return null;
  return (
    <section className="approval-tray" aria-labelledby={headingId} data-testid="approval-tray">
      <h2 id={headingId}>{t.command.trayHeading(commands.length + edits.length)}</h2>
      <p className="muted tray-hint">{t.command.trayHint}</p>
      <div className="tray-items">
        {commands.map((command) => (
          <CommandCard key={command.id} command={command} api={api} place="tray" />
        ))}
        <CardPlaceContext.Provider value="tray">
          {edits.map((edit) => (
            <EditCard key={edit.id} edit={edit} api={api} />
          ))}
        </CardPlaceContext.Provider>
      </div>
    </section>
  );
}
