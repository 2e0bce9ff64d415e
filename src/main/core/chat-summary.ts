import { awaitsPerson, editAwaitsPerson, mcpCallAwaitsPerson, mcpCallLabel } from "../../shared/attention";
import type { ChatActivity, ChatSummary } from "../../shared/host-state";
import type { TranscriptItem } from "../../shared/transcript";
import type { WorkspaceSession } from "../agent/workspace-session";

/** The most of a title or a last line the sidebar gets; it clips to its width anyway. */
const MAX_LINE = 120;

/** Where a chat is, for the sidebar. */
export interface ChatPlace {
  /** The host's id of the chat. */
  id: string;
  /** Its workspace's id. */
  workspaceId: string;
  /** The folder its commands run in. */
  folder: string;
  /** When the host opened it. */
  openedAt: number;
  /** A worktree chat's branch; absent for a chat in the workspace's folder. */
  branch?: string;
}

/** A chat as the sidebar lists it: its name, how it is doing, how much waits for the person, its last line. */
export function chatSummary(place: ChatPlace, chat: WorkspaceSession): ChatSummary {
  const { transcript, commands, edits, running } = chat.view;
  let waiting = 0;
  for (const command of commands.values()) if (awaitsPerson(command)) waiting++;
  for (const edit of edits.byId.values()) if (editAwaitsPerson(edit)) waiting++;
  for (const call of chat.view.mcpCalls.byId.values()) if (mcpCallAwaitsPerson(call)) waiting++;
  const firstAsked = transcript.find((item) => item.kind === "user");
  const file = chat.agent.sessionFile;
  return {
    ...place,
    ...(file ? { file } : {}),
    worktree: place.branch !== undefined,
    title: clip(chat.agent.sessionName ?? (firstAsked?.kind === "user" ? firstAsked.text : "")),
    activity: activityOf(running, waiting, transcript.at(-1)),
    waiting,
    lastLine: clip(lastLineOf(transcript, chat)),
  };
}

function activityOf(running: boolean, waiting: number, last: TranscriptItem | undefined): ChatActivity {
  if (waiting > 0) return "waiting";
  if (running) return "working";
  const failed =
    (last?.kind === "turn-error" && last.state === "failed") ||
    (last?.kind === "notice" && last.level === "error");
  return failed ? "failed" : "idle";
}

/** The newest entry that says something in a line: a message, a command, a notice. */
function lastLineOf(transcript: readonly TranscriptItem[], chat: WorkspaceSession): string {
  for (let i = transcript.length - 1; i >= 0; i--) {
    const item = transcript[i];
    if (!item) continue;
    const line = lineOf(item, chat);
    if (line) return line;
  }
  return "";
}

function lineOf(item: TranscriptItem, chat: WorkspaceSession): string {
  switch (item.kind) {
    case "user":
    case "notice":
      return firstLine(item.text);
    case "assistant":
      return plainText(lastLine(item.text));
    case "command":
      return firstLine(chat.view.commands.get(item.id)?.command ?? "");
    case "edit": {
      const edit = chat.view.edits.byId.get(item.id);
      return edit ? `${edit.tool} ${edit.path}` : "";
    }
    case "mcp-call": {
      const call = chat.view.mcpCalls.byId.get(item.id);
      return call ? mcpCallLabel(call) : "";
    }
    case "turn-error":
      return firstLine(item.message);
    case "tool":
      return `${item.name} ${item.summary}`;
    case "compaction":
      return firstLine(item.summary);
  }
}

function firstLine(text: string): string {
  return text.trim().split("\n", 1)[0] ?? "";
}

function lastLine(text: string): string {
  const lines = text.trim().split("\n");
  return lines[lines.length - 1] ?? "";
}

/**
 * A line of the model's Markdown as the person reads it: no code ticks, emphasis, heading or list marks, and
 * a link as its text. Only a preview line; the transcript draws the Markdown itself.
 */
export function plainText(line: string): string {
  return (
    line
      .replace(/^\s{0,3}(?:#{1,6}\s+|>\s?|[-*+]\s+(?:\[[ xX]\]\s+)?|\d+[.)]\s+)/, "")
      .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1")
      .replace(/`+([^`]*)`+/g, "$1")
      .replace(/(\*\*|\*|~~)(?=\S)([^*~]*?\S)\1/g, "$2")
      // Underscores mark emphasis only outside a word (snake_case stays).
      .replace(/(^|[^\p{L}\p{N}_])(__?)(?=\S)(.*?\S)\2(?![\p{L}\p{N}_])/gu, "$1$3")
  );
}

function clip(text: string): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > MAX_LINE ? `${line.slice(0, MAX_LINE - 1)}…` : line;
}
