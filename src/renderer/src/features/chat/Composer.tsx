import {
  type FormEvent,
  type KeyboardEvent,
  memo,
  useEffect,
  useLayoutEffect,
  useRef,
  useState,
} from "react";
import type { QueuedMessage, QueueMode } from "../../../../shared/host-state";
import type { ModelsState } from "../../../../shared/models";
import type { ChatApi } from "../../client/chat-api";
import { useT } from "../../i18n/i18n";
import { reasonOf } from "../../lib/format";
import { useMessageActions } from "../rewind/rewind-context";
import { Attachments } from "./Attachments";
import { runDeskCommand } from "./desk-commands";
import { droppedFile } from "./dropped-files";
import { FileMenu } from "./FileMenu";
import { QueuedMessages } from "./QueuedMessages";
import { SlashMenu } from "./SlashMenu";
import { useShowChat } from "./show-chat";
import { followTranscriptEnd } from "./transcript-reveal";
import { useAttachments } from "./use-attachments";
import { useFileMenu, withInserted, withMention } from "./use-file-menu";
import { useSlashMenu } from "./use-slash-menu";

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
  models,
  folder,
  fill,
  lastAsked,
  lastAskedText,
  projectSkipped,
}: {
  api: ChatApi;
  running: boolean;
  /** The messages waiting to reach the model. */
  queued?: QueuedMessage[];
  /** The models and the chat's choice: `/model` and `/thinking` pick from them, and images are refused as
   * they are attached when the chat's model does not read them. */
  models?: ModelsState;
  /** The chat's folder: a file dropped from inside it is named as @path. */
  folder?: string | undefined;
  /** Text put into the box from outside (a rewind gives its message back); a new `seq` puts it again. */
  fill?: { text: string; seq: number };
  /** The entry id and text of the person's last message in Pi's session: what /rewind and /fork start from. */
  lastAsked?: string | undefined;
  lastAskedText?: string | undefined;
  /** The project's folders of templates and skills left out (not trusted in Pi): the `/` menu says so. */
  projectSkipped?: string[] | undefined;
}) {
  const t = useT();
  const [text, setText] = useState("");
  const [sending, setSending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const canSend = text.trim() !== "" && !sending;
  const box = useRef<HTMLTextAreaElement>(null);
  // Where the caret is (the `@` menu follows the mention it is in), and where a pick puts it next.
  const [caret, setCaret] = useState(0);
  const placeCaret = useRef<number | null>(null);
  const slash = useSlashMenu(api, text);
  const files = useFileMenu(api, text, caret);
  const showChat = useShowChat();
  const messages = useMessageActions();
  const current = models?.options.find(
    (option) => option.provider === models.current?.provider && option.id === models.current?.id,
  );
  const images = useAttachments(current ? { name: current.name, images: current.images ?? true } : undefined);
  useLayoutEffect(() => {
    const at = placeCaret.current;
    if (at === null || !box.current) return;
    placeCaret.current = null;
    box.current.setSelectionRange(at, at);
  });
  useEffect(() => {
    if (fill) setText(fill.text);
  }, [fill]);

  const send = (mode?: QueueMode, body = text) => {
    if (body.trim() === "" || sending) return;
    setSending(true);
    setError(null);
    setNote(null);
    // The person wants to see the answer, wherever they had scrolled to.
    followTranscriptEnd();
    // Pi Desk's own commands are done here; Pi's templates and skills are expanded by Pi, as `pi` does.
    const last = lastAsked !== undefined ? { entryId: lastAsked, text: lastAskedText ?? "" } : undefined;
    const command = runDeskCommand(body, { api, models, showChat, t, messages, last });
    const attached = images.attached.map(({ mimeType, data }) => ({ mimeType, data }));
    const withImages = attached.length > 0 ? { images: attached } : {};
    const call =
      command ??
      api.prompt(
        running ? { text: body, mode: mode ?? "steer", ...withImages } : { text: body, ...withImages },
      );
    const sent = text;
    call.then(
      () => {
        // Cleared only if it still holds what was sent: what the person typed meanwhile stays.
        setText((now) => (now === sent ? "" : now));
        if (!command) images.clear();
        setSending(false);
      },
      (e: unknown) => {
        // The text stays in the box, so nothing the person wrote is lost.
        setError(command ? t.chat.commandFailed(reasonOf(e)) : t.chat.sendFailed(reasonOf(e)));
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
  const pickFile = (path: string) => {
    if (!files.mention) return;
    const next = withMention(text, files.mention, caret, path);
    setText(next.text);
    setCaret(next.caret);
    placeCaret.current = next.caret;
  };
  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    const picked = slash.onKey(e);
    // Enter on a command of Pi Desk's that takes nothing (/new) runs it; others are completed, to add arguments.
    if (picked && e.key === "Enter" && picked.kind === "desk" && !picked.argumentHint) {
      send("steer", `/${picked.name}`);
    } else if (picked) setText(`/${picked.name} `);
    if (picked) return;
    const path = e.defaultPrevented ? undefined : files.onKey(e);
    if (path) {
      pickFile(path);
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
    <form
      className="composer"
      onSubmit={onSubmit}
      // Images dropped from the OS are attached; the page never opens a dropped file itself.
      onDragOver={(e) => {
        if (e.dataTransfer.types.includes("Files")) e.preventDefault();
      }}
      onDrop={(e) => {
        if (e.dataTransfer.files.length === 0) return;
        e.preventDefault();
        const files = Array.from(e.dataTransfer.files);
        const pictures = files.filter((file) => file.type.startsWith("image/"));
        if (pictures.length > 0) images.add(pictures);
        // Any other file is named as @path, as the @ finder names one, where it lies in the chat's folder.
        const named = files
          .filter((file) => !file.type.startsWith("image/"))
          .map((file) => droppedFile(file, folder, t));
        const refused = named.find((one) => "refused" in one);
        if (refused && "refused" in refused) setError(refused.refused);
        const mentions = named.flatMap((one) => ("mention" in one ? [one.mention] : []));
        if (mentions.length > 0) {
          const next = withInserted(text, caret, mentions.join(" "));
          setText(next.text);
          setCaret(next.caret);
          placeCaret.current = next.caret;
        }
      }}
    >
      <QueuedMessages queued={queued} api={api} />
      <Attachments attached={images.attached} onRemove={images.remove} />
      {slash.shown && (
        <SlashMenu
          commands={slash.matches}
          selected={slash.selected}
          onPick={(command) => setText(`/${command.name} `)}
          projectSkipped={projectSkipped}
        />
      )}
      {files.shown && !slash.shown && (
        <FileMenu found={files.found} failed={files.failed} selected={files.selected} onPick={pickFile} />
      )}
      <textarea
        className="prompt-input"
        aria-label={t.chat.promptLabel}
        placeholder={running ? t.chat.steerPlaceholder : t.chat.promptPlaceholder}
        rows={Math.min(10, Math.max(2, text.split("\n").length))}
        ref={box}
        value={text}
        onChange={(e) => {
          setText(e.target.value);
          setCaret(e.target.selectionStart);
        }}
        onSelect={(e) => setCaret(e.currentTarget.selectionStart)}
        onPaste={(e) => {
          // A pasted screenshot is attached; pasted text goes in the box as usual.
          if (e.clipboardData.files.length === 0) return;
          e.preventDefault();
          images.add(Array.from(e.clipboardData.files));
        }}
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
      {images.problem && (
        <p className="error composer-error" role="alert" data-testid="attachment-error">
          {images.problem}
        </p>
      )}
    </form>
  );
});
