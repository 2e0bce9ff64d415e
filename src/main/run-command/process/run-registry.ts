import { randomBytes } from "node:crypto";
import {
  closeSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  unlink,
  writeFileSync,
  writeSync,
} from "node:fs";
import { join } from "node:path";
import { isProcessAlive, type ProcessIdentity, processIdentity } from "../../base/process-identity";
import { reapCommandCgroup, sweepEmptyCgroups } from "../limits/cgroup-reaper";
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
  /** The command's cgroup folders, when it runs in a cgroup (limits/): emptied and removed with the record. */
  cgroups?: string[];
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
    if (!writeIntoSpare(this.dir, text, file)) {
      try {
        writeFileSync(`${file}.tmp`, text, { mode: 0o600 });
      } catch (error) {
        // The folder is made when the first record finds it missing, not checked before every command.
        if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
        mkdirSync(this.dir, { recursive: true, mode: 0o700 });
        writeFileSync(`${file}.tmp`, text, { mode: 0o600 });
      }
      renameSync(`${file}.tmp`, file);
    }
    // Removed once the result is on its way (the tree is gone by then): a record left by a crash just now
    // names a command with nothing left to kill. The next record's file is made then too: not before a
    // command (on its path), not while it runs (competing with it for the CPU).
    return () => {
      setImmediate(() => {
        unlink(file, () => {});
        makeSpare(this.dir, this.host);
      });
    };
  }
}

/** Spare files' names begin so: hidden, not a record (records end in .json), and naming their host. */
const SPARE_PREFIX = ".spare-";

/**
 * One empty file per registry folder, made and opened ahead (shared by every RunRegistry of the folder).
 * Creating a file is most of what writing a record costs (0.1-0.5 ms on a loaded disk, against 0.02 ms to
 * write into one that exists and rename it); a command's record is then written into this one.
 */
const spares = new Map<string, { fd: number; path: string }>();

/** Whether `removeSpares` waits for the process's exit (once, however many spares come and go). */
let removingAtExit = false;

/** Writes the record into the folder's spare and renames it into place; false when there is no spare or that failed. */
function writeIntoSpare(dir: string, text: string, file: string): boolean {
  const spare = spares.get(dir);
  if (!spare) return false;
  spares.delete(dir);
  try {
    writeSync(spare.fd, text);
    closeSync(spare.fd);
    renameSync(spare.path, file);
    return true;
  } catch {
    rmSync(spare.path, { force: true });
    return false;
  }
}

/** Makes the folder's spare when it has none; a failure only means the next record makes its own file. */
function makeSpare(dir: string, host: ProcessIdentity | undefined): void {
  if (spares.has(dir)) return;
  // Named for its host, so the next start removes the spare of a host that died (see reapOrphanedRuns).
  // The start time in hex: elsewhere than Linux it is a date with spaces and colons.
  const owner = host ? `${host.pid}-${Buffer.from(host.startTime).toString("hex")}` : "unknown";
  const path = join(dir, `${SPARE_PREFIX}${owner}-${randomBytes(6).toString("hex")}`);
  try {
    spares.set(dir, { fd: openSync(path, "wx", 0o600), path });
  } catch {
    return;
  }
  if (!removingAtExit) process.once("exit", removeSpares);
  removingAtExit = true;
}

/** At exit: the spares go, so a host that ends normally leaves none behind. */
function removeSpares(): void {
  for (const { fd, path } of spares.values()) {
    try {
      closeSync(fd);
    } catch {
      // closed already
    }
    rmSync(path, { force: true });
  }
  spares.clear();
  removingAtExit = false;
}

/** Whether a spare's name says its host is no longer running (or cannot say whose it is). */
function spareOfDeadHost(name: string): boolean {
  const [pid, startHex] = name.slice(SPARE_PREFIX.length).split("-");
  if (!pid || startHex === undefined || !/^\d+$/.test(pid)) return true;
  return !isProcessAlive({ pid: Number(pid), startTime: Buffer.from(startHex, "hex").toString() });
}

/**
 * Kills the process trees of commands a host that is no longer running left behind (emptying and removing
 * their cgroups, limits/cgroup-reaper.ts), and forgets them. A record whose host still runs (same pid, same start time) is left alone: that host is serving it, and
 * it is not a leftover. A record without a host (written before records named theirs) counts as left
 * behind, as it always did. A record whose root pid now belongs to another process (a different start
 * time) is killed by its marker only, so nothing that is not ours is touched. Returns how many records
 * of dead hosts there were, the ones it could read, and how many processes died.
 */
export async function reapOrphanedRuns(
  dir: string,
): Promise<{ records: number; reaped: RunRecord[]; killed: number }> {
  const found = await reapRecords(dir);
  // What dead hosts left empty (their folders, ended commands' cgroups) goes too; a full one stays with its record.
  sweepEmptyCgroups();
  return found;
}

/** The records' part of `reapOrphanedRuns`. */
async function reapRecords(dir: string): Promise<{ records: number; reaped: RunRecord[]; killed: number }> {
  let names: string[];
  try {
    const all = readdirSync(dir);
    // A dead host's spare file (an empty file it made ahead for its next record) goes too.
    for (const name of all) {
      if (name.startsWith(SPARE_PREFIX) && spareOfDeadHost(name)) rmSync(join(dir, name), { force: true });
    }
    names = all.filter((name) => name.endsWith(".json"));
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
      // Its cgroup first: emptying it kills exactly the command's processes, however many it forked.
      if (record.cgroups) killed += await reapCommandCgroup(record.cgroups);
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
