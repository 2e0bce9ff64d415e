import type { AgentSession } from "@earendil-works/pi-coding-agent";
import { textOf } from "../message-content";

/** Pi's session file, as far as a rewind reads it. */
type Entries = Pick<AgentSession["sessionManager"], "getBranch" | "getEntry" | "getLeafId">;

/** The custom entry a rewind (and its undo) leaves in Pi's session file: it keeps the leaf where the rewind put it. */
export const REWIND_ENTRY_TYPE = "pi-desk-rewind";

/** What a rewind's entry in the session file holds. */
export interface RewindEntryData {
  /** The rewind's id. */
  rewindId: string;
  /** "rewind": the conversation went back; "back": "Back to where I was" brought it forward again; "switch": to another branch. */
  kind: "rewind" | "back" | "switch";
  /** The leaf before the move (where "Back to where I was" returns to). */
  from: string | null;
  /** The person's message rewound to (for "rewind"), or the first of the branch switched to (for "switch"). */
  entryId?: string;
  /** The key of the rewind's record of the files (for "rewind"), when they were recorded. */
  recordKey?: string;
}

/** The part of the conversation a rewind takes back: from one of the person's messages to the leaf. */
export interface RewindPart {
  /** The message's text. */
  text: string;
  /** The tool calls of the part, oldest first (every tool: the caller picks the commands and edits). */
  toolCalls: { id: string; name: string }[];
}

/**
 * The part of the current branch from the person's message `entryId` on. Throws a sentence saying what to
 * do when the entry is not one of the person's messages on the conversation as it stands.
 */
export function rewindPart(entries: Entries, entryId: string): RewindPart {
  const entry = entries.getEntry(entryId);
  const message =
    entry?.type === "message" ? (entry.message as { role: string; content?: unknown }) : undefined;
  if (!entry || message?.role !== "user") {
    throw new Error(
      "That is not one of your messages in this chat: reload the chat and pick a message of yours.",
    );
  }
  const branch = entries.getBranch();
  const at = branch.findIndex((candidate) => candidate.id === entryId);
  if (at < 0) {
    throw new Error(
      "That message is on another branch of this chat: rewind to a message of the conversation shown.",
    );
  }
  const toolCalls = branch.slice(at + 1).flatMap((later) => {
    if (later.type !== "message") return [];
    const m = later.message as { role: string; content?: unknown };
    if (m.role !== "assistant" || !Array.isArray(m.content)) return [];
    return (m.content as { type: string; id?: string; name?: string }[]).flatMap((block) =>
      block.type === "toolCall" && block.id && block.name ? [{ id: block.id, name: block.name }] : [],
    );
  });
  return { text: textOf(message.content), toolCalls };
}

/** The rewind the conversation stands at now (the leaf is its entry), for "Back to where I was" after a restart. */
export function standingRewind(entries: Entries): (RewindEntryData & { at: number }) | undefined {
  const leafId = entries.getLeafId();
  const leaf = leafId ? entries.getEntry(leafId) : undefined;
  if (leaf?.type !== "custom" || leaf.customType !== REWIND_ENTRY_TYPE) return undefined;
  const data = leaf.data as Partial<RewindEntryData> | undefined;
  if (data?.kind !== "rewind" || typeof data.rewindId !== "string") return undefined;
  return { ...(data as RewindEntryData), at: Date.parse(leaf.timestamp) || Date.now() };
}
