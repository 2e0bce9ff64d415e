/** Something the person said. */
export interface UserItem {
  kind: "user";
  /** Stable id within the session. */
  id: string;
  /** What they wrote. */
  text: string;
}

/** One assistant message: its visible text, its thinking, and how it ended. */
export interface AssistantItem {
  kind: "assistant";
  /** Stable id within the session. */
  id: string;
  /** The answer's text (Markdown). */
  text: string;
  /** The model's thinking, shown folded. */
  thinking: string;
  /** Still streaming. */
  streaming: boolean;
  /** The provider's error, said plainly, when the message ended in one. */
  error?: string;
}

/** A call of one of Pi's read-only tools (read, grep, find, ls), shown compactly. */
export interface ToolItem {
  kind: "tool";
  /** The tool call id. */
  id: string;
  /** The tool's name. */
  name: string;
  /** Its arguments in one line (path, pattern, ...). */
  summary: string;
  /** Running, done or failed. */
  state: "running" | "done" | "failed";
  /** The first lines of its result, when done. */
  result?: string;
}

/** A `run_command` call: the transcript holds its place, the command itself lives in `commands`. */
export interface CommandItem {
  kind: "command";
  /** The tool call id, which is also the command's id. */
  id: string;
}

/** A line from the host about the conversation: a retry, an error outside any message. */
export interface NoticeItem {
  kind: "notice";
  /** Stable id within the session. */
  id: string;
  /** How it reads. */
  level: "info" | "error";
  /** What happened and what to do. */
  text: string;
}

/** One entry of the conversation, in order. */
export type TranscriptItem = UserItem | AssistantItem | ToolItem | CommandItem | NoticeItem;
