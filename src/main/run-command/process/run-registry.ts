import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { isProcessAlive, type ProcessIdentity, processIdentity } from "../../base/process-identity";
import { killProcessTree, readProcessStartTime } from "./process-tree";

/** What the host writes down about a command while it runs, so a later start can clean up after a crash. */
export interface RunRecord {
  /** The command's root process. */
  pid: number;
  /** The root's start time (clock ticks since boot, Linux), to tell it from a process that reused the pid. */
  rootStartTime?: number;
  /** The marker variable every process of the command inherits. */
  marker: string;
  /** The command, for the log line. */
  command: string;
  /** The command's id (its tool call id), when the caller knows it. */
  commandId?: string;
  /** Whose command it is, so the next start can write down how it ended (see `RunRegistry` `owner`). */
  owner?: RunOwner;
  /** The host that runs it (pid and start time): its runs are reaped only once it is dead. */
  host?: ProcessIdentity;
}

/** The conversation a command belongs to, and the audit log where its end goes. */
export interface RunOwner {
  sessionId: string;
  auditFile: string;
}

/** A pid no process can have: kills then go by marker only, never by a process group that may be reused. */
const NO_ROOT = 0x7ffffffe;

/**
 * Keeps one small file per running command in a folder of the host's data. A host that dies without
 * cleaning up (SIGKILL, power loss) leaves them behind, and `reapOrphanedRuns` at the next start kills
 * what those commands left running. Every record names its host (pid and start time), so a host started
 * beside a live one never takes that one's running commands for leftovers. Files are written
 * synchronously: the record must exist before the command can get far, and a crash can come at any moment.
 */
export class RunRegistry {
  /** `owner`, read as each command starts, is written into its record; `host` is this process unless given. */
  constructor(
    private readonly dir: string,
    private readonly owner?: () => RunOwner | undefined,
    private readonly host: ProcessIdentity | undefined = processIdentity(),
  ) {}

  /** The same folder, with records that name their owner. */
  withOwner(owner: () => RunOwner | undefined): RunRegistry {
    return new RunRegistry(this.dir, owner, this.host);
  }

  /** Records a command that just started; returns the function that forgets it when it has ended. */
  add(record: RunRecord): () => void {
    const file = join(this.dir, `${record.pid}-${record.marker}.json`);
    const owner = this.owner?.();
    const full: RunRecord = {
      ...record,
      ...(owner ? { owner } : {}),
      ...(this.host ? { host: this.host } : {}),
    };
    // Written beside it and renamed into place: another host's start reads whole records only, never a
    // half-written one it would drop as unreadable.
    const text = JSON.stringify(full);
    try {
      writeFileSync(`${file}.tmp`, text, { mode: 0o600 });
    } catch (error) {
      // The folder is made when the first record finds it missing, not checked before every command.
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
      mkdirSync(this.dir, { recursive: true, mode: 0o700 });
      writeFileSync(`${file}.tmp`, text, { mode: 0o600 });
    }
    renameSync(`${file}.tmp`, file);
    return () => rmSync(file, { force: true });
  }
}

/**
 * Kills the process trees of commands a host that is no longer running left behind, and forgets them. A
 * record whose host still runs (same pid, same start time) is left alone: that host is serving it, and
 * it is not a leftover. A record without a host (written before records named theirs) counts as left
 * behind, as it always did. A record whose root pid now belongs to another process (a different start
 * time) is killed by its marker only, so nothing that is not ours is touched. Returns how many records
 * of dead hosts there were, the ones it could read, and how many processes died.
 */
export async function reapOrphanedRuns(
  dir: string,
): Promise<{ records: number; reaped: RunRecord[]; killed: number }> {
  let names: string[];
  try {
    names = readdirSync(dir).filter((name) => name.endsWith(".json"));
  } catch {
    return { records: 0, reaped: [], killed: 0 };
  }
  let killed = 0;
  const reaped: RunRecord[] = [];
  let records = 0;
  for (const name of names) {
    let file = join(dir, name);
    try {
      const record = JSON.parse(readFileSync(file, "utf8")) as RunRecord;
      if (record.host && isProcessAlive(record.host)) continue;
      // Claimed by a rename first: of two hosts starting together, only one reaps it and writes its end.
      const claimed = `${file}.reaping`;
      try {
        renameSync(file, claimed);
      } catch {
        continue;
      }
      file = claimed;
      records++;
      reaped.push(record);
      const sameRoot =
        record.rootStartTime !== undefined && readProcessStartTime(record.pid) === record.rootStartTime;
      const result = await killProcessTree(sameRoot ? record.pid : NO_ROOT, {
        marker: record.marker,
        rootStartTime: record.rootStartTime ?? 0,
      });
      killed += result.killed;
    } catch {
      // An unreadable record cannot be acted on safely; it is dropped like the rest.
      records++;
    }
    rmSync(file, { force: true });
  }
  return { records, reaped, killed };
}
