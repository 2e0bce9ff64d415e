import { memo, type RefObject, useEffect, useMemo, useRef } from "react";
import { mcpCallAwaitsPerson } from "../../../../shared/attention";
import type { BranchPoint } from "../../../../shared/branches";
import type { CommandView } from "../../../../shared/commands";
import type { EditView } from "../../../../shared/edits";
import type { SessionState } from "../../../../shared/host-state";
import type { McpCallView } from "../../../../shared/mcp";
import type { TranscriptItem } from "../../../../shared/transcript";
import type { ChatApi } from "../../client/chat-api";
import { useT } from "../../i18n/i18n";
import { CommandCard } from "../commands/CommandCard";
import { awaitsPerson, editAwaitsPerson } from "../commands/command-status";
import { keepOutputsHeld } from "../commands/use-command-output";
import { EditCard } from "../edits/EditCard";
import { McpCallCard, mcpCallTitle } from "../mcp/McpCallCard";
import { BranchSwitch } from "../rewind/BranchSwitch";
import { branchPlaces } from "../rewind/branch-places";
import { PendingLine } from "./PendingLine";
import { AssistantMessage, CompactionEntry, NoticeLine, ToolLine, UserMessage } from "./TranscriptItems";
import { TurnError } from "./TurnError";
import { offerTranscriptEnd, offerTranscriptReveal } from "./transcript-reveal";
import { useFollowEnd } from "./use-follow-end";
import { useTranscriptWindow } from "./use-transcript-window";

/**
 * The conversation in order, each `run_command` call as a card at the place the agent asked for it (a line
 * leading to the approval tray while it waits there). Only the entries near the view are in the page
 * (virtualised, heights measured from the DOM), so a chat of hundreds of commands costs what a screenful
 * does; the browser's find-in-page therefore sees only those. It follows the end while the person is
 * there (and again once they send a message or decide a card), and stays put once they scroll up to read,
 * with a control that takes them to what arrived below.
 */
export function Transcript({ session, api }: { session: SessionState; api: ChatApi }) {
  const t = useT();
  const box = useRef<HTMLDivElement>(null);
  const list = useRef<HTMLOListElement>(null);
  const items = session.transcript;
  const latest = useRef(items);
  latest.current = items;
  const waiting = useMemo(() => waitingEntries(session), [session]);
  const branches = useMemo(() => branchPlaces(session), [session]);
  const follow = useFollowEnd(box, list, { chat: session.id, entries: items.length, newest: items.at(-1) });
  const { virtualizer, onFocus, onBlur } = useTranscriptWindow(box, items, waiting, follow.following);
  // The session as last drawn (a discarded render does not count), for what the page held before a snapshot.
  const drawnSession = useRef<SessionState | null>(null);
  useEffect(() => {
    drawnSession.current = session;
  });

  const { stop: stopFollowing, toEnd } = follow;
  // The person sent a message or decided a card (in this page): the view goes to what comes of it.
  useEffect(() => offerTranscriptEnd(toEnd), [toEnd]);
  // A card further up is not in the page: whoever wants it shown asks the transcript to draw it.
  useEffect(
    () =>
      offerTranscriptReveal((id) => {
        const index = latest.current.findIndex(
          (item) =>
            (item.kind === "command" || item.kind === "edit" || item.kind === "mcp-call") && item.id === id,
        );
        if (index < 0) return false;
        stopFollowing();
        virtualizer.scrollToIndex(index, { align: "center" });
        focusOnceDrawn(box, id);
        return true;
      }),
    [virtualizer, stopFollowing],
  );

  const drawn = virtualizer.getVirtualItems();
  // Before the cards draw: a snapshot leaves long ended outputs out, and those the page saw end stay shown.
  keepOutputsHeld(
    drawnSession.current,
    session,
    drawn.map((entry) => items[entry.index]?.id ?? ""),
  );
  return (
    <div className="transcript-frame">
      <div ref={box} className="transcript" data-testid="transcript" onScroll={follow.onScroll}>
        <ol
          ref={list}
          className="transcript-items"
          aria-label={t.nav.chat}
          style={items.length > 0 ? { height: virtualizer.getTotalSize() } : undefined}
          onFocus={onFocus}
          onBlur={onBlur}
        >
          {items.length === 0 && <li className="muted transcript-empty">{t.chat.empty}</li>}
          {drawn.map((entry) => {
            const item = items[entry.index];
            if (!item) return null;
            return (
              <li
                key={entry.key}
                ref={virtualizer.measureElement}
                data-index={entry.index}
                className="transcript-item"
                // The list holds only what is drawn: say where each entry stands in the whole chat.
                aria-setsize={items.length}
                aria-posinset={entry.index + 1}
                style={{ transform: `translateY(${entry.start}px)` }}
              >
                <Entry
                  item={item}
                  command={commandOf(session, item)}
                  edit={editOf(session, item)}
                  call={mcpCallOf(session, item)}
                  branch={branches.before.get(item.id)}
                  api={api}
                />
              </li>
            );
          })}
        </ol>
        {branches.atEnd && <BranchSwitch point={branches.atEnd} />}
        {session.running && (
          <p className="muted working" role="status">
            {t.chat.working}
          </p>
        )}
      </div>
      {follow.newBelow && (
        <button
          type="button"
          className="new-below"
          data-testid="new-below-button"
          onClick={() => {
            toEnd();
            // The control is gone once at the end: the keyboard goes on where the person answers.
            document.querySelector<HTMLElement>(".prompt-input")?.focus();
          }}
        >
          {t.chat.newBelow} ↓
        </button>
      )}
    </div>
  );
}

/**
 * The entries that wait for the person (their lines lead to the tray): few, and drawn wherever the view
 * is, so each waiting command or edit is always reachable from the transcript too.
 */
function waitingEntries(session: SessionState): number[] {
  const found: number[] = [];
  session.transcript.forEach((item, index) => {
    if (awaitsPerson(commandOf(session, item))) found.push(index);
    const edit = editOf(session, item);
    if (edit && editAwaitsPerson(edit)) found.push(index);
  });
  return found;
}

/** A command entry's command. Ids are the agent's: own keys only. */
function commandOf(session: SessionState, item: TranscriptItem): CommandView | undefined {
  return item.kind === "command" && Object.hasOwn(session.commands, item.id)
    ? session.commands[item.id]
    : undefined;
}

/** An edit entry's edit, by own keys as commands are. */
function editOf(session: SessionState, item: TranscriptItem): EditView | undefined {
  return item.kind === "edit" && session.edits && Object.hasOwn(session.edits, item.id)
    ? session.edits[item.id]
    : undefined;
}

/** An MCP call entry's call, by own keys as commands are. */
function mcpCallOf(session: SessionState, item: TranscriptItem): McpCallView | undefined {
  return item.kind === "mcp-call" && session.mcpCalls && Object.hasOwn(session.mcpCalls, item.id)
    ? session.mcpCalls[item.id]
    : undefined;
}

/** How many frames a revealed entry gets to be drawn before giving up on focusing it. */
const REVEAL_FRAMES = 30;

/** Focuses a command's or edit's card as soon as the transcript has drawn it. */
function focusOnceDrawn(box: RefObject<HTMLDivElement | null>, id: string, frames = REVEAL_FRAMES): void {
  const escaped = CSS.escape(id);
  const card = box.current?.querySelector<HTMLElement>(
    `[data-testid="command-card"][data-command-id="${escaped}"], [data-testid="edit-card"][data-edit-id="${escaped}"], [data-testid="tool-card"][data-tool-call-id="${escaped}"]`,
  );
  if (card) card.focus();
  else if (frames > 0) requestAnimationFrame(() => focusOnceDrawn(box, id, frames - 1));
}

/**
 * One entry, given only what it draws: the transcript renders on every scroll frame, and an entry whose
 * item, command and edit did not change is not drawn again.
 */
const Entry = memo(function Entry({
  item,
  command,
  edit,
  call,
  branch,
  api,
}: {
  item: TranscriptItem;
  command: CommandView | undefined;
  edit: EditView | undefined;
  call: McpCallView | undefined;
  /** The branch point drawn before this message of the person, if any. */
  branch?: BranchPoint | undefined;
  api: ChatApi;
}) {
  const t = useT();
  switch (item.kind) {
    case "user":
      return (
        <>
          {branch && <BranchSwitch point={branch} />}
          <UserMessage item={item} api={api} />
        </>
      );
    case "assistant":
      return <AssistantMessage item={item} />;
    case "tool":
      return <ToolLine item={item} />;
    case "notice":
      return <NoticeLine item={item} />;
    case "turn-error":
      return <TurnError item={item} />;
    case "compaction":
      return <CompactionEntry item={item} />;
    case "edit": {
      if (!edit) return null;
      // Waiting: decided in the tray, where its full card is; here a line that leads there.
      return editAwaitsPerson(edit) ? (
        <PendingLine target={{ kind: "edit", id: edit.id, path: edit.path }} />
      ) : (
        <EditCard edit={edit} api={api} />
      );
    }
    case "mcp-call": {
      if (!call) return null;
      // Waiting: decided in the tray; here a line that leads there.
      return mcpCallAwaitsPerson(call) ? (
        <PendingLine target={{ kind: "mcp-call", id: call.id, label: mcpCallTitle(t, call) }} />
      ) : (
        <McpCallCard call={call} api={api} />
      );
    }
    case "command": {
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
});
