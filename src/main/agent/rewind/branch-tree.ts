import type { AgentSession } from "@earendil-works/pi-coding-agent";
import type { BranchChoice, BranchPoint } from "../../../shared/branches";
import { textOf } from "../message-content";

/** Pi's session file, as far as branches go. */
type Entries = Pick<AgentSession["sessionManager"], "getBranch" | "getEntry" | "getEntries" | "getLeafId">;
type Entry = ReturnType<Entries["getEntries"]>[number];

/** How much of a branch's first message its label shows. */
const LABEL_CHARS = 80;

/** The way to another branch: its last entry, and the tool calls to take back and to play again. */
export interface SwitchPlan {
  /** The entry the conversation moves to: the branch's newest entry. */
  leafId: string;
  /** That entry when it is a message of the person without an answer (it goes back to the composer). */
  unanswered?: string;
  /** The tool calls of the conversation shown since the branch point, oldest first (taken back newest first). */
  undo: string[];
  /** The tool calls of the other branch since the branch point, oldest first (played again). */
  redo: string[];
}

/**
 * Where the conversation shown branched (Pi's tree, read from the session file: a rewind and a new message,
 * Pi's `/tree`, an edit and resend), with the other ways from each place that hold a message of the person.
 * `shown` says which entries the transcript shows (a compaction hides older ones), to count messages as the
 * page does.
 */
export function branchPoints(entries: Entries, shown: ReadonlySet<string>): BranchPoint[] {
  const tree = treeOf(entries.getEntries());
  const path = entries.getBranch();
  const onPath = new Set(path.map((entry) => entry.id));
  const points: BranchPoint[] = [];
  let before = 0;
  // The root (entries without a parent) is a place too: a rewind to the first message branches there.
  for (const at of [null, ...path.map((entry) => entry.id)]) {
    const entry = at === null ? undefined : entries.getEntry(at);
    if (entry && isPersonMessage(entry) && shown.has(entry.id)) before++;
    const branches = (tree.children.get(at) ?? [])
      .filter((child) => !onPath.has(child.id))
      .flatMap((child) => choiceOf(tree, entries, child));
    if (branches.length > 0) points.push({ before, branches });
  }
  return points;
}

/**
 * The plan for switching to the branch whose first message of the person is `entryId`: to its newest entry,
 * through the place where it parts from the conversation shown. Throws a sentence saying what to do when the
 * entry is no such message.
 */
export function switchPlan(entries: Entries, entryId: string): SwitchPlan {
  const entry = entries.getEntry(entryId);
  if (!entry || !isPersonMessage(entry)) {
    throw new Error(
      "That is not one of your messages in this chat: reload the chat and pick a branch again.",
    );
  }
  const current = entries.getBranch();
  if (current.some((on) => on.id === entryId)) {
    throw new Error("That branch is the conversation shown already: pick another branch to switch to.");
  }
  const tree = treeOf(entries.getEntries());
  const leaf = newestUnder(tree, entry);
  const target = entries.getBranch(leaf.id);
  let common = 0;
  while (common < current.length && common < target.length && current[common]?.id === target[common]?.id) {
    common++;
  }
  return {
    leafId: leaf.id,
    ...(isPersonMessage(leaf) ? { unanswered: textOf(leaf.message.content) } : {}),
    undo: toolCallsOf(current.slice(common)),
    redo: toolCallsOf(target.slice(common)),
  };
}

/** The tool call ids of the assistant messages among `entries`, in order. */
export function toolCallsOf(entries: readonly Entry[]): string[] {
  return entries.flatMap((entry) => {
    if (entry.type !== "message") return [];
    const message = entry.message as { role: string; content?: unknown };
    if (message.role !== "assistant" || !Array.isArray(message.content)) return [];
    return (message.content as { type: string; id?: string }[]).flatMap((block) =>
      block.type === "toolCall" && block.id ? [block.id] : [],
    );
  });
}

interface Tree {
  /** Each entry's children (the root's under null), oldest first. */
  children: Map<string | null, Entry[]>;
  /** Each entry's place in the file: the newest is the highest. */
  order: Map<string, number>;
}

function treeOf(all: readonly Entry[]): Tree {
  const children = new Map<string | null, Entry[]>();
  const order = new Map<string, number>();
  all.forEach((entry, index) => {
    order.set(entry.id, index);
    const siblings = children.get(entry.parentId) ?? [];
    siblings.push(entry);
    children.set(entry.parentId, siblings);
  });
  return { children, order };
}

/** A branch from `child`, named by its first message of the person on the way to its newest entry; none without one. */
function choiceOf(tree: Tree, entries: Entries, child: Entry): BranchChoice[] {
  const leaf = newestUnder(tree, child);
  const path = entries.getBranch(leaf.id);
  const from = path.findIndex((entry) => entry.id === child.id);
  const messages = path.slice(from).filter(isPersonMessage);
  const first = messages[0];
  if (!first) return [];
  const text = textOf(first.message.content).replace(/\s+/g, " ").trim();
  return [
    {
      entryId: first.id,
      text: text.length > LABEL_CHARS ? `${text.slice(0, LABEL_CHARS - 1)}…` : text,
      messages: messages.length,
    },
  ];
}

/** The newest entry of the subtree under (and with) `top`: where that branch was left. */
function newestUnder(tree: Tree, top: Entry): Entry {
  let newest = top;
  const stack = [top];
  for (let entry = stack.pop(); entry; entry = stack.pop()) {
    if ((tree.order.get(entry.id) ?? -1) > (tree.order.get(newest.id) ?? -1)) newest = entry;
    stack.push(...(tree.children.get(entry.id) ?? []));
  }
  return newest;
}

type PersonMessage = Entry & { type: "message"; message: { role: "user"; content: unknown } };

/** The text of the person's message `entryId`, when it is one (an audit line names it). */
export function personText(entries: Entries, entryId: string): string | undefined {
  const entry = entries.getEntry(entryId);
  return entry && isPersonMessage(entry) ? textOf(entry.message.content) : undefined;
}

function isPersonMessage(entry: Entry): entry is PersonMessage {
  return entry.type === "message" && (entry.message as { role: string }).role === "user";
}
