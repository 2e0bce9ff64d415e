import { type FormEvent, type KeyboardEvent, memo, useEffect, useState } from "react";
import type { QueuedMessage, QueueMode, SlashCommand } from "../../../../shared/host-state";
import type { ChatApi } from "../../client/chat-api";
import { useT } from "../../i18n/i18n";
import { reasonOf } from "../../lib/format";
import { QueuedMessages } from "./QueuedMessages";
import { matchingCommands, SlashMenu } from "./SlashMenu";
import { followTranscriptEnd } from "./transcript-reveal";

/**
 * The prompt box: Enter sends, Shift+Enter starts a new line (and Enter while an input method is
 * composing, as when typing Chinese, only commits the characters). While the agent works the box stays
 * usable: Enter steers (the message reaches the model after the tool call under way) and Alt+Enter, or
 * Queue, keeps it for when the agent is done; both wait above the box until delivered. Stop shows while the
 * agent works, and gives back to the box what was still waiting.
 */
export const Composer = memo(function Composer({
  api,
  running,
  queued = [],
  fill,
}: {
  api: ChatApi;
  running: boolean;
  /** The messages waiting to reach the model. */
  queued?: QueuedMessage[];
  /** Text put into the box from outside (a rewind gives its message back); a new `seq` puts it again. */
  fill?: { text: string; seq: number };
}) {
  const t = useT();
  const [text, setText] = useState("");
  const [sending, setSending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const canSend = text.trim() !== "" && !sending;
  const slash = useSlashMenu(api, text);
  useEffect(() => {
    if (fill) setText(fill.text);
  }, [fill]);

  const send = (mode?: QueueMode) => {
    if (!canSend) return;
    setSending(true);
    setError(null);
    setNote(null);
    // The person wants to see the answer, wherever they had scrolled to.
    followTranscriptEnd();
    // Pi Desk's own /compact is done here; Pi's templates and skills are expanded by Pi, as `pi` does.
    const compact = /^\/compact(?:\s+([\s\S]*))?$/.exec(text.trim());
    const call = compact
      ? api.compact(compact[1]?.trim() ? { instructions: compact[1].trim() } : {})
      : api.prompt(running ? { text, mode: mode ?? "steer" } : { text });
    call.then(
      () => {
        setText("");
        setSending(false);
      },
      (e: unknown) => {
        // The text stays in the box, so nothing the person wrote is lost.
        setError(t.chat.sendFailed(reasonOf(e)));
        setSending(false);
      },
    );
  };
  const stop = () => {
    setError(null);
    api.stop().then(
      ({ unsent }) => {
        if (unsent.length === 0) return;
        // What was still waiting comes back to the box, before anything typed since, to send again or not.
        setText((typed) => [...unsent.map((message) => message.text), typed].filter(Boolean).join("\n\n"));
        setNote(t.chat.unsentBack(unsent.length));
      },
      (e: unknown) => setError(t.chat.stopFailed(reasonOf(e))),
    );
  };
  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    const picked = slash.onKey(e);
    if (picked) {
      setText(`/${picked.name} `);
      return;
    }
    if (e.defaultPrevented) return;
    if (e.key === "Enter" && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      send(e.altKey ? "follow-up" : "steer");
    }
  };
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    send("steer");
  };

  return (
    <form className="composer" onSubmit={onSubmit}>
      <QueuedMessages queued={queued} api={api} />
      {slash.shown && (
        <SlashMenu
          commands={slash.matches}
          selected={slash.selected}
          onPick={(command) => setText(`/${command.name} `)}
        />
      )}
      <textarea
        className="prompt-input"
        aria-label={t.chat.promptLabel}
        placeholder={running ? t.chat.steerPlaceholder : t.chat.promptPlaceholder}
        rows={Math.min(10, Math.max(2, text.split("\n").length))}
        value={text}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={onKeyDown}
        data-testid="prompt-input"
      />
      <div className="composer-actions">
        {running && (
          <button
            type="button"
            className="danger"
            onClick={stop}
            title={t.chat.stopHint}
            data-testid="stop-button"
          >
            {t.chat.stop}
          </button>
        )}
        {running && (
          <button
            type="button"
            disabled={!canSend}
            onClick={() => send("follow-up")}
            title={t.chat.queueHint}
            data-testid="queue-button"
          >
            {t.chat.queue}
          </button>
        )}
        <button
          type="submit"
          className="primary"
          disabled={!canSend}
          title={running ? t.chat.steerHint : undefined}
          data-testid="send-button"
        >
          {running ? t.chat.steer : t.chat.send}
        </button>
      </div>
      {note && (
        <p className="muted composer-note" role="status">
          {note}
        </p>
      )}
      {error && (
        <p className="error composer-error" role="alert" data-testid="prompt-error">
          {error}
        </p>
      )}
    </form>
  );
});

/**
 * The `/` menu's state: open while the box holds a slash and a command's start (no space yet), with the
 * chat's commands asked for once it opens; its keys move, pick and close it before the box's own.
 */
function useSlashMenu(api: ChatApi, text: string) {
  const [commands, setCommands] = useState<SlashCommand[] | null>(null);
  const [selected, setSelected] = useState(0);
  const [dismissed, setDismissed] = useState(false);
  const typed = /^\/(\S*)$/.exec(text)?.[1];
  const open = typed !== undefined;
  useEffect(() => {
    if (!open) {
      setDismissed(false);
      return;
    }
    // Asked each time the menu opens: templates and skills are files the person may have just added.
    setSelected(0);
    api.listSlashCommands().then(setCommands, () => setCommands([]));
  }, [open, api]);
  const matches = typed === undefined || !commands ? [] : matchingCommands(commands, typed);
  const shown = open && !dismissed && commands !== null;
  const at = Math.min(selected, Math.max(0, matches.length - 1));
  return {
    shown,
    matches,
    selected: at,
    /** Handles a key meant for the menu (preventing its default); returns the command picked, if one was. */
    onKey(e: KeyboardEvent<HTMLTextAreaElement>): SlashCommand | undefined {
      if (!shown || e.nativeEvent.isComposing) return undefined;
      if (e.key === "ArrowDown" || e.key === "ArrowUp") {
        e.preventDefault();
        const step = e.key === "ArrowDown" ? 1 : -1;
        setSelected(matches.length === 0 ? 0 : (at + step + matches.length) % matches.length);
      } else if (e.key === "Escape") {
        e.preventDefault();
        setDismissed(true);
      } else if ((e.key === "Enter" && !e.shiftKey) || e.key === "Tab") {
        const command = matches[at];
        if (!command) return undefined;
        e.preventDefault();
        return command;
      }
      return undefined;
    },
  };
}
