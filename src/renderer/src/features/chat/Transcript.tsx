import { useEffect, useLayoutEffect, useRef } from "react";
import type { DeskApi } from "../../../../shared/desk-api";
import type { SessionState } from "../../../../shared/host-state";
import type { TranscriptItem } from "../../../../shared/transcript";
import { useT } from "../../i18n/i18n";
import { CommandCard } from "../commands/CommandCard";
import { awaitsPerson, editAwaitsPerson } from "../commands/command-status";
import { EditCard } from "../edits/EditCard";
import { PendingLine } from "./PendingLine";
import { AssistantMessage, NoticeLine, ToolLine, UserMessage } from "./TranscriptItems";
import { TurnError } from "./TurnError";

/**
 * The conversation in order, each `run_command` call as a card at the place the agent asked for it (a line
 * leading to the approval tray while it waits there).
 * It follows the end while the person is there, and stays put once they scroll up to read.
 */
export function Transcript({ session, api }: { session: SessionState; api: DeskApi }) {
  const t = useT();
  const box = useRef<HTMLDivElement>(null);
  const atEnd = useRef(true);

  // Runs after every render: new entries, streamed text and command output all grow the content.
  useLayoutEffect(() => {
    const element = box.current;
    if (element && atEnd.current) element.scrollTop = element.scrollHeight;
  });
  // Content also grows without a render: entries drawn for the first time as they scroll into view
  // (they skip layout until then, see chat.css) take their real height.
  useEffect(() => {
    const element = box.current;
    const list = element?.firstElementChild;
    if (!element || !list || typeof ResizeObserver === "undefined") return;
    const observer = new ResizeObserver(() => {
      if (atEnd.current) element.scrollTop = element.scrollHeight;
    });
    observer.observe(list);
    return () => observer.disconnect();
  }, []);

  return (
    <div
      ref={box}
      className="transcript"
      data-testid="transcript"
      onScroll={(e) => {
        const el = e.currentTarget;
        atEnd.current = el.scrollTop + el.clientHeight >= el.scrollHeight - 24;
        // The browser's scroll anchoring keeps what the person reads in place when content above it
        // changes; while following the end it would instead pull the view off the end as entries grow.
        el.style.overflowAnchor = atEnd.current ? "none" : "auto";
      }}
    >
      <ol className="transcript-items" aria-label={t.nav.chat}>
        {session.transcript.length === 0 && <li className="muted transcript-empty">{t.chat.empty}</li>}
        {session.transcript.map((item) => (
          <li key={`${item.kind}:${item.id}`} className="transcript-item">
            <Entry item={item} session={session} api={api} />
          </li>
        ))}
      </ol>
      {session.running && (
        <p className="muted working" role="status">
          {t.chat.working}
        </p>
      )}
    </div>
  );
}

function Entry({ item, session, api }: { item: TranscriptItem; session: SessionState; api: DeskApi }) {
  const t = useT();
  switch (item.kind) {
    case "user":
      return <UserMessage item={item} />;
    case "assistant":
      return <AssistantMessage item={item} />;
    case "tool":
      return <ToolLine item={item} />;
    case "notice":
      return <NoticeLine item={item} />;
    case "turn-error":
      return <TurnError item={item} />;
    case "edit": {
      const edit =
        session.edits && Object.hasOwn(session.edits, item.id) ? session.edits[item.id] : undefined;
      if (!edit) return null;
      // Waiting: decided in the tray, where its full card is; here a line that leads there.
      return editAwaitsPerson(edit) ? (
        <PendingLine target={{ kind: "edit", id: edit.id, path: edit.path }} />
      ) : (
        <EditCard edit={edit} api={api} />
      );
    }
    case "command": {
      const command = Object.hasOwn(session.commands, item.id) ? session.commands[item.id] : undefined;
      if (awaitsPerson(command)) {
        return <PendingLine target={{ kind: "command", id: command.id, command: command.command }} />;
      }
      return command ? (
        <CommandCard command={command} api={api} />
      ) : (
        <p className="muted">{t.command.preparing}</p>
      );
    }
  }
}
