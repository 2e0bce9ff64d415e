import { useRef } from "react";
import type { CommandView } from "../../../../shared/commands";
import type { SessionState } from "../../../../shared/host-state";
import type { ChatApi } from "../../client/chat-api";
import { useT } from "../../i18n/i18n";
import { CommandOutput } from "../commands/CommandOutput";
import { CardPlaceContext } from "../commands/card-scope";
import { OutOfViewNote } from "../layout/OutOfViewNote";
import { useOutOfView } from "../layout/use-out-of-view";
import { BackgroundState } from "./BackgroundState";
import { StopButton } from "./StopButton";

/** The chat's background commands, newest first: those running, then those that ended. */
export function backgroundCommands(session: SessionState | null | undefined): CommandView[] {
  if (!session) return [];
  return Object.values(session.commands)
    .filter((command) => command.background !== undefined)
    .sort(
      (a, b) =>
        Number(b.background?.status === "running") - Number(a.background?.status === "running") ||
        (b.background?.startedAt ?? 0) - (a.background?.startedAt ?? 0),
    );
}

/**
 * The "Running" panel: every background command of the chat with how long it has run, its ports, its
 * live output (bounded like a card's) and Stop, so nothing the agent started runs unseen. Its entries scroll
 * within a bounded height, and it says how many are out of view.
 */
export function BackgroundPanel({
  commands,
  api,
  onClose,
}: {
  commands: CommandView[];
  api: ChatApi;
  onClose: () => void;
}) {
  const t = useT();
  const box = useRef<HTMLDivElement>(null);
  const list = useRef<HTMLDivElement>(null);
  const hidden = useOutOfView(box, list, true);
  return (
    <section
      className="background-panel"
      data-testid="background-panel"
      aria-label={t.background.panelHeading}
    >
      <header className="background-panel-head">
        <h2>{t.background.panelHeading}</h2>
        <OutOfViewNote count={hidden} testId="background-out-of-view" />
        <button type="button" onClick={onClose}>
          {t.background.close}
        </button>
      </header>
      {commands.length === 0 && <p className="muted">{t.background.panelEmpty}</p>}
      {/* Test ids inside keep their plain names here: the panel is not a card. */}
      <CardPlaceContext.Provider value="transcript">
        <div className="background-scroll" ref={box} data-testid="background-scroll">
          <div className="background-items" ref={list}>
            {commands.map((command) => (
              <article
                key={command.id}
                className={`background-item background-item-${command.background?.status}`}
                data-testid="background-item"
                data-command-id={command.id}
                data-status={command.background?.status}
              >
                <header className="background-item-head">
                  <span className={`status-badge background-${command.background?.status}`}>
                    {t.background.status[command.background?.status ?? "running"]}
                  </span>
                  <code className="mono background-command">{command.command}</code>
                </header>
                <BackgroundState command={command} />
                <div data-testid="background-output">
                  <CommandOutput output={command.output} totalLines={command.totalLines} />
                </div>
                {command.background?.status === "running" && (
                  <div className="card-actions">
                    <StopButton api={api} commandId={command.id} testId="background-stop-button" />
                  </div>
                )}
              </article>
            ))}
          </div>
        </div>
      </CardPlaceContext.Provider>
    </section>
  );
}
