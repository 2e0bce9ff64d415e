import { createHash, randomUUID } from "node:crypto";
import { mkdir, open, readdir, readFile, rename, rm } from "node:fs/promises";
import { join } from "node:path";
import type { CommandWindow } from "../../shared/changes";
import type { Snapshot } from "./snapshot";

/** What the engine keeps of one command: its workspace states before and after. */
export interface CommandRecord {
  /** The caller's id of the command (the tool call id). */
  commandId: string;
  /** The state just before it ran. */
  before: Snapshot;
  /** The state just after it ended; absent while it runs, or when the host stopped first. */
  after?: Snapshot;
  /** Set when loaded from disk without an after-state: the host stopped while the command ran. */
  interrupted?: boolean;
  /** When it ended, while its after-state's tree is still being written (in memory only). */
  endedAt?: number;
}

/**
 * The records on disk, one small JSON file per command in `<dataDir>/records/` (named by a hash of
 * the command id, which may hold any character), each written atomically. The trees they name live in
 * the shadow repository; together they survive a restart of the host.
 */
export class RecordStore {
  private readonly records = new Map<string, CommandRecord>();
  private readonly dir: string;

  private constructor(dataDir: string) {
    this.dir = join(dataDir, "records");
  }

  /** Loads every record under `dataDir`; a file that does not parse (a torn write) is skipped. */
  static async load(dataDir: string): Promise<RecordStore> {
    const store = new RecordStore(dataDir);
    await mkdir(store.dir, { recursive: true, mode: 0o700 });
    for (const name of await readdir(store.dir)) {
      if (!name.endsWith(".json")) continue;
      try {
        const record = JSON.parse(await readFile(join(store.dir, name), "utf8")) as CommandRecord;
        if (typeof record.commandId === "string" && typeof record.before?.tree === "string") {
          if (!record.after) record.interrupted = true;
          store.records.set(record.commandId, record);
        }
      } catch {
        // Unreadable: as if never recorded. Its trees go at the next prune.
      }
    }
    return store;
  }

  /** The record of `commandId`, if kept. */
  get(commandId: string): CommandRecord | undefined {
    return this.records.get(commandId);
  }

  /** Every record, oldest first (by when its before-state was taken). */
  list(): CommandRecord[] {
    return [...this.records.values()].sort((a, b) => a.before.startedAt - b.before.startedAt);
  }

  /** Keeps `record`, replacing any with its command id, in memory and on disk. */
  async save(record: CommandRecord): Promise<void> {
    this.records.set(record.commandId, record);
    const file = this.fileOf(record.commandId);
    const temp = `${file}.${randomUUID()}.tmp`;
    const handle = await open(temp, "wx", 0o600);
    try {
      await handle.writeFile(JSON.stringify(record));
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, file);
  }

  /**
   * Notes, in memory, that `commandId` ended at `endedAt` while its after-state is still being
   * written, so overlaps are not counted against a window that looks open.
   */
  markEnded(commandId: string, endedAt: number): void {
    const record = this.records.get(commandId);
    if (record && !record.after) record.endedAt = endedAt;
  }

  /** Forgets the record of `commandId`. */
  async remove(commandId: string): Promise<void> {
    this.records.delete(commandId);
    await rm(this.fileOf(commandId), { force: true });
  }

  private fileOf(commandId: string): string {
    return join(this.dir, `${createHash("sha256").update(commandId).digest("hex").slice(0, 32)}.json`);
  }
}

/** When `record`'s command ran, from the start of its before-scan to the end of its after-scan. */
export function windowOf(record: CommandRecord): CommandWindow {
  const window: CommandWindow = { commandId: record.commandId, startedAt: record.before.startedAt };
  const endedAt = record.after?.endedAt ?? record.endedAt;
  if (endedAt !== undefined) window.endedAt = endedAt;
  return window;
}

/**
 * The other commands whose windows overlap `record`'s: their changes may be mixed into its change
 * set (one workspace, one scan), and undoing it may take theirs back too. A window without an end is
 * still open, unless the host stopped during it (then nothing is known after its start).
 */
export function overlapping(record: CommandRecord, all: readonly CommandRecord[]): CommandWindow[] {
  const end = (of: CommandRecord) =>
    of.after?.endedAt ?? of.endedAt ?? (of.interrupted ? of.before.startedAt : Number.POSITIVE_INFINITY);
  return all
    .filter((other) => other.commandId !== record.commandId)
    .filter((other) => other.before.startedAt < end(record) && record.before.startedAt < end(other))
    .map(windowOf);
}
