import { createHash, randomUUID } from "node:crypto";
import { mkdir, readdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { SessionManager } from "@earendil-works/pi-coding-agent";
import type { ChangeRecords } from "../../changes";
import { REWIND_ENTRY_TYPE, type RewindEntryData } from "./rewind-part";

/**
 * A rewind under way, written beside the chat's change records before it touches a file, so that a host
 * that dies in the middle leaves nothing half-done: at the next start the files are rolled back (the
 * rewind had not finished them) or the conversation is moved (the files were done), and the person is told
 * which when the chat opens again.
 */
export interface RewindJournal {
  /** The rewind's id. */
  rewindId: string;
  /** The chat's Pi session id. */
  sessionId: string;
  /** Its session file. */
  sessionFile: string;
  /** The key of the record of the files as they were when the rewind began. */
  recordKey: string;
  /** The person's message rewound to (for a switch: the branch's first message of the person). */
  entryId: string;
  /** What was under way: a branch switch, "Back to where I was", else (absent, as in older journals) a rewind. */
  kind?: "switch" | "back";
  /** For a switch and a back: the entry the conversation moves to (null: before the first entry). */
  target?: string | null;
  /** The leaf before the rewind. */
  from: string | null;
  /** "restoring": files may be half put back; "moving": files done, the conversation may not be moved yet; "recovered": done at a start, not yet told. */
  phase: "restoring" | "moving" | "recovered";
  /** For "recovered": what the start did. */
  outcome?: "finished" | "rolled-back";
}

/** The folder of journals in a chat's change records' folder. */
const JOURNALS = "rewinds";

function journalFile(dataDir: string, sessionId: string): string {
  return join(dataDir, JOURNALS, `${createHash("sha256").update(sessionId).digest("hex").slice(0, 32)}.json`);
}

/** Writes (or moves on) a chat's journal: written beside and renamed, so a reader never sees half of one. */
export async function writeJournal(dataDir: string, journal: RewindJournal): Promise<void> {
  const file = journalFile(dataDir, journal.sessionId);
  await mkdir(join(dataDir, JOURNALS), { recursive: true, mode: 0o700 });
  const temp = `${file}.${randomUUID()}.tmp`;
  await writeFile(temp, JSON.stringify(journal), { mode: 0o600 });
  await rename(temp, file);
}

/** Removes a chat's journal: the rewind is over. */
export async function removeJournal(dataDir: string, sessionId: string): Promise<void> {
  await rm(journalFile(dataDir, sessionId), { force: true });
}

/**
 * The outcome a start recovered for a chat's cut-short rewind, once: the journal goes as the person is told.
 * Undefined when there was none.
 */
export async function takeRecovered(
  dataDir: string,
  sessionId: string,
): Promise<Pick<RewindJournal, "outcome" | "kind"> | undefined> {
  const journal = await readJournal(journalFile(dataDir, sessionId));
  if (journal?.phase !== "recovered") return undefined;
  await removeJournal(dataDir, sessionId);
  return { outcome: journal.outcome, ...(journal.kind ? { kind: journal.kind } : {}) };
}

/**
 * At a workspace's start, before any chat opens: finishes or rolls back each rewind a host that died left
 * half-done. Files half put back are rolled back to how they were when the rewind began (nothing else
 * changed them: the host was down), and the conversation stays where it was; a rewind whose files were done
 * has its conversation moved, as the rewind would have.
 */
export async function recoverRewinds(records: ChangeRecords): Promise<void> {
  const dir = join(records.dataDir, JOURNALS);
  const names = await readdir(dir).catch(() => [] as string[]);
  for (const name of names.filter((entry) => entry.endsWith(".json"))) {
    const journal = await readJournal(join(dir, name));
    if (!journal || journal.phase === "recovered") continue;
    let outcome: RewindJournal["outcome"];
    if (journal.phase === "restoring") {
      await records.recorder.rollBack(journal.recordKey);
      outcome = "rolled-back";
    } else {
      moveConversation(journal);
      outcome = "finished";
    }
    await writeJournal(records.dataDir, { ...journal, phase: "recovered", outcome });
  }
}

/**
 * Moves the session file's leaf to before the message (a switch: to its target), unless the rewind's own
 * entry shows it got there.
 */
function moveConversation(journal: RewindJournal): void {
  const manager = SessionManager.open(journal.sessionFile);
  const leaf = manager.getLeafEntry();
  const standing = leaf?.type === "custom" ? (leaf.data as RewindEntryData | undefined) : undefined;
  // A back shares its rewind's id: it got there only when its own entry ("back") is the leaf.
  if (standing?.rewindId === journal.rewindId && (standing.kind === "back") === (journal.kind === "back"))
    return;
  if (journal.kind === "switch" || journal.kind === "back") {
    if (journal.target === null || journal.target === undefined) {
      // A back to a rewind from an empty conversation stays where it is (as "Back to where I was" does).
      if (journal.kind === "switch") manager.resetLeaf();
    } else manager.branch(journal.target);
    const data: RewindEntryData = {
      rewindId: journal.rewindId,
      kind: journal.kind,
      from: journal.from,
      ...(journal.kind === "switch" ? { entryId: journal.entryId } : {}),
    };
    manager.appendCustomEntry(REWIND_ENTRY_TYPE, data);
    return;
  }
  const parentId = manager.getEntry(journal.entryId)?.parentId ?? null;
  if (parentId === null) manager.resetLeaf();
  else manager.branch(parentId);
  const data: RewindEntryData = {
    rewindId: journal.rewindId,
    kind: "rewind",
    from: journal.from,
    entryId: journal.entryId,
    recordKey: journal.recordKey,
  };
  manager.appendCustomEntry(REWIND_ENTRY_TYPE, data);
}

async function readJournal(file: string): Promise<RewindJournal | undefined> {
  try {
    const journal = JSON.parse(await readFile(file, "utf8")) as RewindJournal;
    return typeof journal.rewindId === "string" && typeof journal.sessionId === "string"
      ? journal
      : undefined;
  } catch {
    return undefined; // none, or torn by a power loss before its rename: as if the rewind never began
  }
}
