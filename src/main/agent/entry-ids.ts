import type { AgentSession } from "@earendil-works/pi-coding-agent";

/** A message of a session's conversation, as Pi stores it. */
type AgentMessage = AgentSession["messages"][number];

/** Pi's session file, as far as entry ids go. */
type Entries = Pick<AgentSession["sessionManager"], "getLeafEntry" | "getBranch" | "buildSessionProjection">;

/**
 * Pi's entry id of each message of the context, in order: the node of Pi's session tree a transcript entry
 * stands for (what rewind and fork name). Matched by place, as Pi itself matches them (a compaction's
 * summary is one entry for its messages).
 */
export function contextEntryIds(entries: Entries): (string | undefined)[] {
  return entries
    .buildSessionProjection()
    .entries.flatMap((entry) => entry.messages.map(() => entry.sourceEntry.id));
}

/**
 * The entry id Pi gave a message it has just written: the leaf, or one of the few entries before it (Pi
 * writes a message right after telling its listeners of its end, so this is asked a moment later).
 */
export function writtenEntryId(entries: Entries, message: AgentMessage): string | undefined {
  const leaf = entries.getLeafEntry();
  if (leaf?.type === "message" && leaf.message === message) return leaf.id;
  const branch = entries.getBranch();
  for (let at = branch.length - 1; at >= Math.max(0, branch.length - 8); at--) {
    const entry = branch[at];
    if (entry?.type === "message" && entry.message === message) return entry.id;
  }
  return undefined;
}
