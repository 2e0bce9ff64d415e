import type { FailedRequest } from "./turn-errors";

/* Reading Pi's stored messages, whose content is a string or a list of typed blocks. */

/** One block of a message's content, as Pi stores it (text, thinking, a tool call). */
export type ContentBlock = {
  /** `text`, `thinking`, `toolCall`, ... */
  type: string;
  /** A text block's text. */
  text?: string;
  /** A thinking block's text. */
  thinking?: string;
  /** A tool call's id. */
  id?: string;
  /** A tool call's tool name. */
  name?: string;
  /** A tool call's arguments. */
  arguments?: unknown;
};

/** An assistant message that ended in a provider error. */
export function isFailed(message: unknown): message is FailedRequest {
  return (message as { stopReason?: string }).stopReason === "error";
}

/** A message's content as blocks (none for plain-string content). */
export function blocksOf(content: unknown): ContentBlock[] {
  return Array.isArray(content) ? (content as ContentBlock[]) : [];
}

/** How many images a message's content holds, as a transcript item says it (nothing when none). */
export function imagesOf(content: unknown): { images?: number } {
  const count = blocksOf(content).filter((block) => block.type === "image").length;
  return count > 0 ? { images: count } : {};
}

/** The text of a message's content: a plain string, or its text blocks joined. */
export function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  return blocksOf(content)
    .map((block) => (block.type === "text" ? (block.text ?? "") : ""))
    .join("");
}
