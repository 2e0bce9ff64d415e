import { createHash, randomUUID } from "node:crypto";
import { mkdir, readdir, readFile, rename, rm, writeFile } from "node:fs/promises";
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
}

/**
 * The records on disk, one small JSON file per command in `<dataDir>/records/` (named by a hash of
 * the command id, which may hold any character), each written atomically. The trees they name live in
 * the shadow repository; together they survive a restart of the host.
 */
export class RecordStore {
  private readonly records = new Map<string, CommandRecord>();
  private writes: Promise<void> = Promise.resolve();
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

  /** The complete records (with an after-state) of `commandIds`, in the order given; the others left out. */
  complete(commandIds: readonly string[]): CommandRecord[] {
    return commandIds.flatMap((id) => {
      const record = this.records.get(id);
      return record?.after ? [record] : [];
    });
  }

  /** Every record, oldest first (by when its before-state was taken). */
  list(): CommandRecord[] {
    return [...this.records.values()].sort((a, b) => a.before.startedAt - b.before.startedAt);
  }

  /**
   * Keeps `record`, replacing any with its command id: in memory at once, on disk just after (writes go
   * one at a time in call order, so a later save of the same record lands last; `flush` waits for them).
   * Written beside and renamed, so a reader never sees half a record, but not fsync-ed: an fsync costs
   * 10-20 ms here and held up the command's next file-system calls behind the journal, and it would buy
   * nothing, since the objects a record names are not fsync-ed either (git's default for loose objects).
   * After a power loss a record may be lost or empty; an empty one does not parse and is skipped.
   */
  save(record: CommandRecord): void {
    this.records.set(record.commandId, record);
    const file = this.fileOf(record.commandId);
    this.enqueue(async () => {
      const temp = `${file}.${randomUUID()}.tmp`;
      await writeFile(temp, JSON.stringify(record), { mode: 0o600, flag: "wx" });
      await rename(temp, file);
    });
  }

  /** Forgets the record of `commandId`, in memory at once and on disk after the writes before it. */
  remove(commandId: string): Promise<void> {
    this.records.delete(commandId);
    const file = this.fileOf(commandId);
    this.enqueue(() => rm(file, { force: true }));
    return this.flush();
  }

  /**
   * Waits for the records' writes in flight. A write that failed (a full disk) leaves that record in
   * memory only: it is lost at the next start, as if the host had stopped before it.
   */
  flush(): Promise<void> {
    return this.writes;
  }

  private enqueue(write: () => Promise<void>): void {
    this.writes = this.writes.then(write).catch(() => {});
  }

  private fileOf(commandId: string): string {
    return join(this.dir, `${createHash("sha256").update(commandId).digest("hex").slice(0, 32)}.json`);
  }
}

/** When `record`'s command ran, from the start of its before-scan to the end of its after-scan. */
export function windowOf(record: CommandRecord): CommandWindow {
  const window: CommandWindow = { commandId: record.commandId, startedAt: record.before.startedAt };
  const endedAt = record.after?.endedAt;
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
    of.after?.endedAt ?? (of.interrupted ? of.before.startedAt : Number.POSITIVE_INFINITY);
  return all
    .filter((other) => other.commandId !== record.commandId)
    .filter((other) => other.before.startedAt < end(record) && record.before.startedAt < end(other))
    .map(windowOf);
}
