import type { NoticeText } from "./host-text";
/** Something the person said. */
export interface UserItem {
  kind: "user";
  /** Stable id within the session. */
  id: string;
  /** Pi's id of the message's entry in its session tree, once written there (what rewind and fork name). */
  entryId?: string;
  /** What they wrote. */
  text: string;
  /** How many images the message carries (`messageImages` gives them, by `entryId`). */
  images?: number;
}

/** One assistant message: its visible text, its thinking, and how it ended. */
export interface AssistantItem {
  kind: "assistant";
  /** Stable id within the session. */
  id: string;
  /** Pi's id of the message's entry in its session tree, once written there. */
  entryId?: string;
  /** The answer's text (Markdown). */
  text: string;
  /** The model's thinking, shown folded. */
  thinking: string;
  /** Still streaming. */
  streaming: boolean;
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

/** An `edit` or `write` call: the transcript holds its place, the edit itself lives in `edits`. */
export interface EditItem {
  kind: "edit";
  /** The tool call id, which is also the edit's id. */
  id: string;
}

/** A call to an MCP tool: the transcript holds its place, the call itself lives in `mcpCalls`. */
export interface McpCallItem {
  kind: "mcp-call";
  /** The tool call id, which is also the call's id. */
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
  /** The same, as a kind and parameters the page words in its language. */
  say?: NoticeText;
}

/** What kind of failure a provider error is, which decides the advice shown with it. */
export type TurnErrorKind = "auth" | "model" | "rate-limit" | "provider" | "network" | "other";

/**
 * A turn the model's provider failed: one entry however often Pi retried. While Pi waits to retry it
 * says so; then it holds the outcome (still failing, or answered after all).
 */
export interface TurnErrorItem {
  kind: "turn-error";
  /** Stable id within the session. */
  id: string;
  /** What failed: the key, the model name, the rate limit, the provider, the connection, or something else. */
  errorKind: TurnErrorKind;
  /** The HTTP status the provider answered with, when there was one. */
  status?: number;
  /** The provider's own message, taken out of its JSON. */
  message: string;
  /** The error exactly as Pi reported it, for those who want the details. */
  raw: string;
  /** Requests made for this turn so far (the first one and every retry). */
  attempts: number;
  /** Retries Pi allows after the first request (its `retry.maxRetries` setting). */
  maxRetries: number;
  /** Where it stands: Pi waits to send the request again, it gave up, or a retry was answered. */
  state: "retrying" | "failed" | "recovered";
  /** While retrying: when (epoch ms) Pi sends the next request. */
  retryAt?: number;
  /** When the provider said when to try again: that moment (epoch ms). */
  retryAfter?: number;
}

/**
 * Pi compacted the conversation: what came before is summarised, and the model is given the summary from
 * here on instead of the messages.
 */
export interface CompactionItem {
  kind: "compaction";
  /** Stable id within the session. */
  id: string;
  /** The summary the model is given. */
  summary: string;
  /** How many tokens the context held before. */
  tokensBefore: number;
  /** Why: the person asked, the context neared its limit, or it overflowed; "stored" for one read back from the file. */
  reason: "manual" | "threshold" | "overflow" | "stored";
}

/** One entry of the conversation, in order. */
export type TranscriptItem =
  | UserItem
  | AssistantItem
  | ToolItem
  | CommandItem
  | EditItem
  | McpCallItem
  | NoticeItem
  | TurnErrorItem
  | CompactionItem;
