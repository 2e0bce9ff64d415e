import { memo } from "react";
import type {
  AssistantItem,
  CompactionItem,
  NoticeItem,
  ToolItem,
  UserItem,
} from "../../../../shared/transcript";
import type { ChatApi } from "../../client/chat-api";
import type { Messages } from "../../i18n/en";
import { useT } from "../../i18n/i18n";
import { MessageButtons } from "../rewind/MessageButtons";
import { Markdown } from "./Markdown";
import { MessageImages } from "./MessageImages";
import { ToolResult } from "./ToolResult";

/** What the person said, as they wrote it. */
export const UserMessage = memo(function UserMessage({ item, api }: { item: UserItem; api: ChatApi }) {
  const t = useT();
  return (
    <div className="message message-user" data-testid="user-message" data-entry-id={item.entryId}>
      <div className="message-author">{t.chat.you}</div>
      <div className="message-body plain">{item.text}</div>
      {item.images && item.entryId && <MessageImages entryId={item.entryId} count={item.images} api={api} />}
      <MessageButtons item={item} />
    </div>
  );
});

/** An assistant message: its thinking folded, its answer as Markdown. */
export const AssistantMessage = memo(function AssistantMessage({ item }: { item: AssistantItem }) {
  const t = useT();
  // A message that only called tools, or a failed request, has nothing to say: its commands and tools, or
  // the turn's error entry, follow on their own.
  if (!item.streaming && !item.text && !item.thinking) return null;
  return (
    <div
      className="message message-assistant"
      data-testid="assistant-message"
      data-streaming={item.streaming}
      aria-busy={item.streaming}
    >
      <div className="message-author">{t.chat.agent}</div>
      {item.thinking && (
        <details className="thinking" data-testid="thinking">
          <summary>{t.chat.thinking}</summary>
          <div className="thinking-body plain">{item.thinking}</div>
        </details>
      )}
      {item.text && <Markdown text={item.text} streaming={item.streaming} />}
      {item.streaming && !item.text && <p className="muted streaming">{t.chat.streaming}</p>}
    </div>
  );
});

/** A read-only tool call (read, grep, find, ls) in one line; its result unfolds. */
export const ToolLine = memo(function ToolLine({ item }: { item: ToolItem }) {
  const t = useT();
  const head = (
    <>
      <span className={`tool-state tool-${item.state}`}>{t.tool[item.state]}</span>{" "}
      <span className="tool-name">{item.name}</span> <span className="mono tool-summary">{item.summary}</span>
    </>
  );
  return (
    <div className="tool-line" data-testid="tool-call" data-state={item.state}>
      {item.result ? <ToolResult item={item} head={head} /> : <div className="tool-head">{head}</div>}
    </div>
  );
});

/** A host notice in the page's language when the host said what it is, else the host's English text. */
export function noticeText(t: Messages, item: NoticeItem): string {
  const say = item.say;
  if (say?.id === "chat-named") return t.chat.chatNamed(say.name);
  if (say?.id === "rewind-recovered")
    return (
      say.kind === "switch"
        ? t.rewind.switchRecovered
        : say.kind === "back"
          ? t.rewind.backRecovered
          : t.rewind.recovered
    )[say.outcome];
  if (say?.id !== "background-ended") return item.text;
  const { state } = say;
  const how = state.limit
    ? t.resources.stoppedAtLimit
    : state.status === "exited"
      ? t.background.exitedWith(String(state.exitCode ?? "?"))
      : state.status === "stopped"
        ? t.background.stoppedBy[state.stoppedBy ?? "person"]
        : t.background.status.running;
  return t.layout.backgroundEnded(say.command, how);
}

/** A line from the host about the conversation: a retry, or an error outside any message. */
export const NoticeLine = memo(function NoticeLine({ item }: { item: NoticeItem }) {
  const t = useT();
  return (
    <p
      className={`notice notice-${item.level}`}
      role={item.level === "error" ? "alert" : "status"}
      data-testid="notice"
    >
      {noticeText(t, item)}
    </p>
  );
});

/** Pi compacted the conversation here: from this point the model reads the summary, folded under a line. */
export const CompactionEntry = memo(function CompactionEntry({ item }: { item: CompactionItem }) {
  const t = useT();
  return (
    <details className="compaction" data-testid="compaction-entry" data-reason={item.reason}>
      <summary>{t.chat.compacted(item.reason, item.tokensBefore)}</summary>
      <div className="compaction-summary plain">{item.summary}</div>
    </details>
  );
});
