import { closeSync, openSync, readFileSync, readSync } from "node:fs";
import { type TreeQuery, treeAmong } from "./process-tree";

/*
 * After a command's root exits, the runner must make sure nothing it started is left running. A full
 * /proc scan (process-tree.ts) answers that for sure, at about a millisecond; this answers it for
 * nearly every small command for a few hundredths of one, and says when it cannot (then the scan runs).
 *
 * Two facts of Linux do it. The kernel counts every process and thread created on the machine
 * (`processes` in /proc/stat), so a count read before the spawn and one after the exit say how many at
 * most were created meanwhile, anywhere. And a pid namespace hands out pids in one rising cycle: each new
 * process (or thread) gets the first free pid after the last one handed out, wrapping from pid_max to
 * 300. So every process created after the root has a pid on the cycle from the root's pid to the last
 * one handed out (the last field of /proc/loadavg), unless the cycle went all the way round, which
 * takes a new pid for every pid not in use: far more than the count says were created.
 */

/** Scratch buffer for /proc/stat: a line per CPU and a few counters, about 1 KiB on a small machine. */
const procStatBuffer = Buffer.alloc(64 * 1024);

/**
 * How many processes and threads the machine has created since boot (`processes` in /proc/stat, which the
 * kernel counts for every clone: processes, threads, other users', other containers'); undefined off
 * Linux or when it cannot be read. About 30-70 us: the file carries every interrupt's count.
 */
export function readForkCount(): number | undefined {
  if (process.platform !== "linux") return undefined;
  try {
    const fd = openSync("/proc/stat", "r");
    let length = 0;
    try {
      for (let got = -1; got !== 0 && length < procStatBuffer.length; length += got) {
        got = readSync(fd, procStatBuffer, length, procStatBuffer.length - length, null);
      }
    } finally {
      closeSync(fd);
    }
    const match = /^processes (\d+)$/m.exec(procStatBuffer.toString("latin1", 0, length));
    if (match) latestForkCount = Number(match[1]);
    return match ? Number(match[1]) : undefined;
  } catch {
    return undefined;
  }
}

/** The count as last read: every later spawn comes after it. */
let latestForkCount: number | undefined;

/** Pids below this are never handed out again once the cycle wrapped (the kernel's RESERVED_PIDS). */
const RESERVED_PIDS = 300;

/** More pids than this between the root's and the last: a full scan is as cheap, and this is not needed. */
const MAX_SPAN = 1_024;

/** Scratch buffer for /proc/loadavg, one short line. */
const loadavgBuffer = Buffer.alloc(256);

/** The last pid handed out in this process's pid namespace, and the machine's thread count (/proc/loadavg). */
function readLastPid(): { lastPid: number; threads: number } | undefined {
  try {
    const fd = openSync("/proc/loadavg", "r");
    let text: string;
    try {
      text = loadavgBuffer.toString("latin1", 0, readSync(fd, loadavgBuffer, 0, loadavgBuffer.length, 0));
    } finally {
      closeSync(fd);
    }
    // "0.45 1.38 1.84 1/234 12345": running/threads, then the last pid.
    const match = /\d+\/(\d+) (\d+)\s*$/.exec(text);
    return match ? { threads: Number(match[1]), lastPid: Number(match[2]) } : undefined;
  } catch {
    return undefined;
  }
}

let pidMax: number | undefined;

/** The pid_max of the machine, read once (an administrator may raise it later: the check then only looks at fewer pids than it could). */
function readPidMax(): number | undefined {
  if (pidMax === undefined) {
    try {
      pidMax = Number(readFileSync("/proc/sys/kernel/pid_max", "latin1").trim()) || undefined;
    } catch {
      pidMax = undefined;
    }
  }
  return pidMax;
}

/** What the runner knew just before spawning the root. */
export interface BeforeSpawn {
  /** The fork count as last read before the spawn: at most the count just before it. */
  forks: number;
}

/**
 * Called just before the spawn (undefined off Linux, where the answer is always "scan"). The count as
 * last read (by the previous command's check) serves as well as a fresh one: it is no more than the count
 * at the spawn, so "created since" can only come out higher (a stricter bound). Only the very first
 * command reads it here, which spares every later one a read of /proc/stat before its spawn.
 */
export function readBeforeSpawn(): BeforeSpawn | undefined {
  const forks = latestForkCount ?? readForkCount();
  return forks === undefined ? undefined : { forks };
}

/**
 * Whether the command, whose root has exited and been reaped, surely left no process behind: true only
 * when that is certain; false means "scan" (something may be left, or this could not tell).
 *
 * Certain when none of the pids handed out after the root's belongs to its tree: none at all (a builtin,
 * or the one program bash execs in place of itself), or only other programs' processes on a busy
 * machine. A pid handed out while the check reads is checked too, until a read of the last pid finds
 * nothing new: a process of the tree that forked and died meanwhile leaves its child among those, in its
 * group or with its marker (what a full scan finds it by). Last, the fork count rules out a cycle that
 * went all the way round.
 */
export function surelyNothingLeft(
  before: BeforeSpawn | undefined,
  rootPid: number,
  query: TreeQuery,
): boolean {
  if (before === undefined) return false;
  const max = readPidMax();
  let last = readLastPid();
  if (max === undefined || last === undefined || rootPid >= max) return false;
  let checkedUpTo = rootPid;
  for (let round = 0; round < MAX_ROUNDS; round++) {
    // Every pid from the root's to the last one, few enough to read one by one.
    if (pidsAfter(rootPid, last.lastPid, max) === undefined) return false;
    const fresh = pidsAfter(checkedUpTo, last.lastPid, max) ?? [];
    if (treeAmong(fresh, rootPid, query).length > 0) return false;
    checkedUpTo = last.lastPid;
    const next = readLastPid();
    if (next === undefined) return false;
    if (next.lastPid === last.lastPid) {
      const created = readForkCount();
      if (created === undefined) return false;
      // The cycle cannot have gone all the way round, back over the root's pid: that takes a new pid for
      // every one not in use, and in use are at most three per thread (its pid, its group's and its session's).
      return created - before.forks < max - RESERVED_PIDS - 3 * Math.max(last.threads, next.threads);
    }
    last = next;
  }
  return false;
}

/** Rounds of "read the new pids, then the last pid again" before giving up on a machine creating processes fast. */
const MAX_ROUNDS = 4;

/** The pids on the cycle after `fromPid` up to `lastPid`; undefined when there are more than `MAX_SPAN`. */
function pidsAfter(fromPid: number, lastPid: number, max: number): number[] | undefined {
  // Before the root's pid without a wrap (or a wrap below the reserved pids): nothing to reason from.
  if (lastPid < fromPid && lastPid < RESERVED_PIDS) return undefined;
  const span = lastPid >= fromPid ? lastPid - fromPid : max - 1 - fromPid + (lastPid - RESERVED_PIDS + 1);
  if (span > MAX_SPAN || span < 0) return undefined;
  const pids: number[] = [];
  for (let pid = fromPid + 1, left = span; left > 0; left--, pid++) {
    if (pid >= max) pid = RESERVED_PIDS;
    pids.push(pid);
  }
  return pids;
}
