import { useId, useRef } from "react";
import type { CommandView } from "../../../../shared/commands";
import type { DeskApi } from "../../../../shared/desk-api";
import type { EditView } from "../../../../shared/edits";
import { useT } from "../../i18n/i18n";
import { EditCard } from "../edits/EditCard";
import { OutOfViewNote } from "../layout/OutOfViewNote";
import { useOutOfView } from "../layout/use-out-of-view";
import { CommandCard } from "./CommandCard";
import { CardPlaceContext } from "./card-scope";

/**
 * Every command and file edit waiting for the person, always in view while any waits (the transcript may have
 * scrolled far past where the agent asked). This is the one place each is drawn in full and decided; the
 * transcript holds a line leading here. Its entries scroll within a bounded height, and it says how many
 * are out of view. Each entry answers on its own.
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
  const box = useRef<HTMLDivElement>(null);
  const list = useRef<HTMLDivElement>(null);
  const total = commands.length + edits.length;
  const hidden = useOutOfView(box, list, total > 0);
  if (total === 0) return null;
  return (
    <section className="approval-tray" aria-labelledby={headingId} data-testid="approval-tray">
      <header className="tray-head">
        <h2 id={headingId}>{t.command.trayHeading(total)}</h2>
        <span className="muted tray-hint">{t.command.trayHint}</span>
        <OutOfViewNote count={hidden} testId="tray-out-of-view" />
      </header>
      <div className="tray-scroll" ref={box} data-testid="tray-scroll">
        <div className="tray-items" ref={list}>
          {commands.map((command) => (
            <CommandCard key={command.id} command={command} api={api} place="tray" />
          ))}
          <CardPlaceContext.Provider value="tray">
            {edits.map((edit) => (
              <EditCard key={edit.id} edit={edit} api={api} />
            ))}
          </CardPlaceContext.Provider>
        </div>
      </div>
    </section>
  );
}
