import { execFile, spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { closeSync, openSync, readdirSync, readFileSync, readSync, statSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as delay } from "node:timers/promises";

/**
 * Environment variable the runner puts into every command's environment. Descendants inherit it even
 * when they leave the process group or session (`setsid`, double fork), so a /proc scan still finds
 * them (the "cookie" of Jenkins' ProcessTreeKiller). A descendant that clears its environment
 * (`env -i`) and also leaves the ppid chain escapes; Linux cgroups would be the next step up.
 */
export const RUN_MARKER_ENV = "PI_DESK_RUN";

/** How long SIGTERM gets before SIGKILL: short, because a command nobody waits for should end now. */
export const DEFAULT_GRACE_MS = 50;

/** Give up after this long even if something survives (a process stuck in uninterruptible sleep). */
const DEFAULT_MAX_WAIT_MS = 5_000;

/** Rescan intervals while waiting; processes can fork while dying, so every pass looks again. */
const TERM_POLL_MS = 10;
const KILL_POLL_MS = 5;

/** Options shared by `findTreePids` and `killProcessTree`. */
export interface TreeQuery {
  /** The value of `RUN_MARKER_ENV` in the command's environment; without it only the ppid chain and group count. */
  marker?: string;
  /** Start time of the root (from `readProcessStartTime` right after spawn): guards against pid reuse. */
  rootStartTime?: number;
  /** The clocks just before the root was spawned (`readStartClock`): lets a Linux scan skip older processes cheaply. */
  startedBefore?: StartClock;
}

/** The wall clock and the monotonic clock read together, just before a command's root is spawned. */
export interface StartClock {
  /** `Date.now()`: the clock /proc's inode times follow. */
  wallMs: number;
  /** `performance.now()` at the same moment: tells a stepped wall clock from time passing. */
  monoMs: number;
}

/** Both clocks now; call it before spawning the root. */
export function readStartClock(): StartClock {
  return { wallMs: Date.now(), monoMs: performance.now() };
}

/**
 * How far before the spawn the inode-time pre-filter still reads a process: covers the kernel's coarse
 * clock (a tick behind `Date.now()`) and NTP slewing many times over.
 */
const INODE_TIME_MARGIN_MS = 1_000;

/** A wall clock that moved this much against the monotonic one since the spawn was stepped: no pre-filter. */
const CLOCK_STEP_MS = 100;

/**
 * The wall-clock time (ms) below which a /proc/<pid> inode cannot belong to a process started after the
 * root; undefined when the wall clock cannot be trusted for it (stepped since the spawn).
 *
 * Why it is safe: the kernel makes a /proc/<pid> inode when that pid is first looked up (a readdir of
 * /proc, a scan, `ps`) and stamps it with the wall clock then; a reused pid gets a new inode, and the
 * time is never moved back. An inode cannot exist before its process, so every process started after
 * the root has an inode time at or after the spawn. Long-lived processes keep the time of their first
 * lookup, so one lstat each (about a quarter of reading /proc/<pid>/stat) rules out nearly all of the
 * machine, and only the few recent ones are read in full. Where the wall clock was stepped (settimeofday,
 * an NTP jump) the scan reads everything, as before.
 */
function inodeTimeFloor(startedBefore: StartClock | undefined): number | undefined {
  if (startedBefore === undefined) return undefined;
  const stepped = Date.now() - performance.now() - (startedBefore.wallMs - startedBefore.monoMs);
  if (Math.abs(stepped) > CLOCK_STEP_MS) return undefined;
  return startedBefore.wallMs - INODE_TIME_MARGIN_MS;
}

/** Options of `killProcessTree`. */
export interface KillTreeOptions extends TreeQuery {
  /** Milliseconds between SIGTERM and SIGKILL (default `DEFAULT_GRACE_MS`). */
  graceMs?: number;
  /** Stop trying after this many milliseconds and report survivors (default 5 s). */
  maxWaitMs?: number;
}

/** What `killProcessTree` did. */
export interface KillTreeResult {
  /** How many distinct processes were signalled. */
  killed: number;
  /** Pids still alive when it gave up; empty when the whole tree is gone. */
  survivors: number[];
}

/** A new random marker value for one run: 32 hex digits (from Node's pooled random UUIDs, a fraction of a 16-byte draw's cost). */
export function createRunMarker(): string {
  return randomUUID().replaceAll("-", "");
}

/** One process as the scanners see it. */
interface ProcessEntry {
  pid: number;
  ppid: number;
  pgid: number;
  /** Session id; -1 where the platform scan does not report it. */
  sid: number;
  /** Clock ticks since boot on Linux; 0 where unknown. */
  startTime: number;
  zombie: boolean;
  /** Whether the process carries the run marker (read lazily: it is the expensive part). */
  hasMarker: () => boolean;
}

/** Scratch buffer for /proc/<pid>/stat, which is one short line. */
const statBuffer = Buffer.alloc(4096);

/** Linux fields of /proc/<pid>/stat that matter here; undefined when the process is gone. */
function readProcStat(pid: number): Omit<ProcessEntry, "hasMarker"> | undefined {
  let text: string;
  try {
    // open/read/close into one buffer: about 3x faster than readFileSync, which also fstats and
    // grows buffers because /proc files report size 0. Scan speed is kill latency.
    const fd = openSync(`/proc/${pid}/stat`, "r");
    try {
      text = statBuffer.toString("latin1", 0, readSync(fd, statBuffer, 0, statBuffer.length, 0));
    } finally {
      closeSync(fd);
    }
  } catch {
    return undefined;
  }
  // The command name is in parentheses and may itself contain spaces and ')', so parse after the last ')'.
  const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
  // fields[0] is field 3 of proc(5): state, ppid, pgrp, session, ... starttime is field 22.
  return {
    pid,
    ppid: Number(fields[1]),
    pgid: Number(fields[2]),
    sid: Number(fields[3]),
    startTime: Number(fields[19]),
    // Zombies count as gone: they hold no resources, and PID 1 in a container may never reap them.
    zombie: fields[0] === "Z" || fields[0] === "X",
  };
}

/** Start time of a process in clock ticks since boot (Linux), or undefined when unknown. */
export function readProcessStartTime(pid: number): number | undefined {
  return process.platform === "linux" ? readProcStat(pid)?.startTime : undefined;
}

/** Whether a NUL-separated environment block holds exactly `name=value`. */
function environHas(block: Buffer, entry: string): boolean {
  for (let at = block.indexOf(entry); at !== -1; at = block.indexOf(entry, at + 1)) {
    const end = at + Buffer.byteLength(entry);
    if ((at === 0 || block[at - 1] === 0) && (end === block.length || block[end] === 0)) return true;
  }
  return false;
}

/**
 * Every process on Linux. Reads are synchronous on purpose: a scan is a few milliseconds and should be
 * a snapshot; async reads through libuv's thread pool measured 3-4x slower, giving the tree more time
 * to fork between reads.
 */
function scanLinux(marker: string | undefined, inodeFloorMs: number | undefined): ProcessEntry[] {
  const entry = marker === undefined ? undefined : `${RUN_MARKER_ENV}=${marker}`;
  const out: ProcessEntry[] = [];
  for (const name of readdirSync("/proc")) {
    const pid = Number(name);
    if (!Number.isInteger(pid)) continue;
    // Older than the root, so not of its tree (see inodeTimeFloor); a process gone meanwhile is skipped too.
    if (inodeFloorMs !== undefined && !(procInodeTime(pid) >= inodeFloorMs)) continue;
    const found = readEntry(pid, entry);
    if (found) out.push(found);
  }
  return out;
}

/** One process as the scanners see it, its marker read only when asked; undefined when it is gone. */
function readEntry(pid: number, entry: string | undefined): ProcessEntry | undefined {
  const stat = readProcStat(pid);
  if (!stat) return undefined;
  const hasMarker = () => {
    if (entry === undefined) return false;
    try {
      return environHas(readFileSync(`/proc/${pid}/environ`), entry);
    } catch {
      return false; // gone, or another user's process
    }
  };
  return { ...stat, hasMarker };
}

/**
 * Which of the given pids (Linux) belong to the command's tree, by the same rules as a full scan: for a
 * caller that knows every process the tree can have is among them (see leftover-check.ts).
 */
export function treeAmong(pids: Iterable<number>, rootPid: number, query: TreeQuery): number[] {
  const entry = query.marker === undefined ? undefined : `${RUN_MARKER_ENV}=${query.marker}`;
  const found: ProcessEntry[] = [];
  for (const pid of pids) {
    const read = readEntry(pid, entry);
    if (read) found.push(read);
  }
  return selectTree(found, rootPid, query.rootStartTime ?? 0).map((p) => p.pid);
}

/** The wall-clock time (ms) of a process's /proc/<pid> inode; NaN when it is gone. */
function procInodeTime(pid: number): number {
  return statSync(`/proc/${pid}`, { throwIfNoEntry: false })?.ctimeMs ?? Number.NaN;
}

/** Every process on macOS and other Unixes, from `ps`; `-E` appends the environment for our own processes. */
async function scanPs(marker: string | undefined): Promise<ProcessEntry[]> {
  const entry = marker === undefined ? undefined : `${RUN_MARKER_ENV}=${marker}`;
  const args = ["-axww", "-o", "pid=,ppid=,pgid=,stat=,command="];
  if (entry !== undefined && process.platform === "darwin") args.unshift("-E");
  const stdout = await new Promise<string>((resolve) => {
    execFile("/bin/ps", args, { maxBuffer: 64 * 1024 * 1024 }, (_error, text) => resolve(String(text ?? "")));
  });
  const out: ProcessEntry[] = [];
  for (const line of stdout.split("\n")) {
    const match = /^\s*(\d+)\s+(\d+)\s+(\d+)\s+(\S+)\s?(.*)$/.exec(line);
    if (!match) continue;
    const rest = match[5] ?? "";
    out.push({
      pid: Number(match[1]),
      ppid: Number(match[2]),
      pgid: Number(match[3]),
      sid: -1,
      startTime: 0,
      zombie: (match[4] ?? "").startsWith("Z"),
      hasMarker: () => entry !== undefined && rest.includes(entry),
    });
  }
  return out;
}

/** Pids of the live tree: group or session of the root, ppid descendants, and marker carriers. */
function selectTree(all: ProcessEntry[], rootPid: number, rootStartTime: number): ProcessEntry[] {
  // A process that started before the root cannot belong to it: this keeps a reused pid (and the
  // host itself) out, and spares the environ read for almost every process on the machine. Children
  // of pid 2 are Linux kernel threads.
  const candidates = all.filter(
    (p) => p.startTime >= rootStartTime && p.pid !== process.pid && p.pid > 1 && p.ppid !== 2 && !p.zombie,
  );
  const members = new Map<number, ProcessEntry>();
  for (const p of candidates) {
    if (p.pid === rootPid || p.pgid === rootPid || p.sid === rootPid || p.hasMarker()) members.set(p.pid, p);
  }
  // Children of members, to any depth, even after they dropped the marker from their environment.
  for (let grew = true; grew; ) {
    grew = false;
    for (const p of candidates) {
      const parent = members.get(p.ppid);
      // A child never starts before its parent; one that did sits on a reused parent pid.
      if (!members.has(p.pid) && parent && p.startTime >= parent.startTime) {
        members.set(p.pid, p);
        grew = true;
      }
    }
  }
  return [...members.values()];
}

/** Finds the live processes of a command's tree (root included while it is alive). Unix only. */
export async function findTreePids(rootPid: number, query: TreeQuery = {}): Promise<number[]> {
  return (await scanTree(rootPid, query)).map((p) => p.pid);
}

async function scanTree(rootPid: number, query: TreeQuery): Promise<ProcessEntry[]> {
  if (process.platform === "linux") {
    const rootStartTime = query.rootStartTime ?? readProcessStartTime(rootPid) ?? 0;
    return selectTree(scanLinux(query.marker, inodeTimeFloor(query.startedBefore)), rootPid, rootStartTime);
  }
  return selectTree(await scanPs(query.marker), rootPid, 0);
}

function sendSignal(pid: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(pid, signal);
    return true;
  } catch {
    return false; // already gone (ESRCH) or not ours (EPERM): nothing more to do for it
  }
}

/** Signals the group (one atomic kernel operation on Linux), then each member outside it. */
function signalTree(
  rootPid: number,
  members: ProcessEntry[],
  signal: NodeJS.Signals,
  hit: Set<number>,
): void {
  // Only signal the group while it provably still exists, so a reused pgid can never be hit.
  const grouped = members.some((p) => p.pgid === rootPid) && sendSignal(-rootPid, signal);
  for (const p of members) {
    // Members outside the group (setsid, setpgid) are signalled one by one; group members only
    // when the group signal failed, so none sees the same signal twice.
    if ((grouped && p.pgid === rootPid) || sendSignal(p.pid, signal)) hit.add(p.pid);
    // A stopped process would hold SIGTERM pending forever; let it run so it can handle it.
    if (signal === "SIGTERM") sendSignal(p.pid, "SIGCONT");
  }
}

/**
 * Kills a command's whole process tree and resolves once nothing of it is left: SIGTERM to everything
 * found, SIGKILL after `graceMs` to whatever is still alive, rescanning until a scan comes back empty.
 */
export async function killProcessTree(
  rootPid: number,
  options: KillTreeOptions = {},
): Promise<KillTreeResult> {
  if (process.platform === "win32") return killWindowsTree(rootPid);
  const query: TreeQuery = {
    marker: options.marker,
    rootStartTime: options.rootStartTime ?? readProcessStartTime(rootPid),
    startedBefore: options.startedBefore,
  };
  const graceMs = options.graceMs ?? DEFAULT_GRACE_MS;
  const started = performance.now();
  const deadline = started + (options.maxWaitMs ?? DEFAULT_MAX_WAIT_MS);
  const hit = new Set<number>();
  const termed = new Set<number>();
  let alive = await scanTree(rootPid, query);
  while (alive.length > 0 && performance.now() < started + graceMs) {
    const fresh = alive.filter((p) => !termed.has(p.pid));
    for (const p of fresh) termed.add(p.pid);
    signalTree(rootPid, fresh, "SIGTERM", hit);
    await delay(TERM_POLL_MS);
    alive = await scanTree(rootPid, query);
  }
  while (alive.length > 0 && performance.now() < deadline) {
    signalTree(rootPid, alive, "SIGKILL", hit);
    await delay(KILL_POLL_MS);
    alive = await scanTree(rootPid, query);
  }
  return { killed: hit.size, survivors: alive.map((p) => p.pid) };
}

/**
 * Windows has no process groups or /proc: `taskkill /T` walks the tree while the root is alive.
 * Descendants of a root that already exited are not found; a Job Object would be the real fix.
 */
async function killWindowsTree(rootPid: number): Promise<KillTreeResult> {
  // The System32 path, so the kill does not depend on PATH.
  const taskkill = join(process.env.SystemRoot ?? "C:\\Windows", "System32", "taskkill.exe");
  const code = await new Promise<number | null>((resolve) => {
    const child = spawn(taskkill, ["/pid", String(rootPid), "/T", "/F"], {
      stdio: "ignore",
      windowsHide: true,
    });
    child.once("error", () => resolve(null));
    child.once("exit", (exitCode) => resolve(exitCode));
  });
  return { killed: code === 0 ? 1 : 0, survivors: [] };
}
