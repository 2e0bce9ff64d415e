import { randomUUID } from "node:crypto";
import { linkSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { isProcessAlive, type ProcessIdentity, processIdentity } from "../base/process-identity";

/** Who holds a workspace open: what its lock file says. */
export interface WorkspaceOwner extends ProcessIdentity {
  /** How a person reaches it: "desktop app", or "browser host on <its URL without the token>". */
  reach: string;
  /** When it took the workspace (ms since the epoch). */
  since: number;
  /** This claim's random id, so a host only ever removes or rewrites its own lock. */
  claim: string;
}

/** What `acquireWorkspaceLock` found: the lock, now ours, or the live owner that holds it. */
export type LockAttempt =
  | { lock: WorkspaceLock; owner?: undefined }
  | { lock?: undefined; owner: WorkspaceOwner };

/** A workspace that a live Pi Desk holds open: its message names that owner and the ways out. */
export class WorkspaceInUseError extends Error {
  /** The host that holds it. */
  readonly owner: WorkspaceOwner;
  constructor(owner: WorkspaceOwner) {
    super(
      `This folder is already open in Pi Desk (pid ${owner.pid}, ${owner.reach}). ` +
        "Close it first, or open another folder.",
    );
    this.name = "WorkspaceInUseError";
    this.owner = owner;
  }
}

/** The lock file in a workspace's data folder. */
export function workspaceLockFile(dataDir: string): string {
  return join(dataDir, "owner.json");
}

/** A guard older than this was left by a host that died in the middle of a takeover (which takes milliseconds). */
const STALE_GUARD_MS = 10_000;
/** How long a host waits for another's takeover to finish before it gives up. */
const GUARD_WAIT_MS = 3_000;

/** The locks this process holds, released on its way out whatever the path (`process.exit`, an uncaught error). */
const held = new Set<WorkspaceLock>();
let exitHook = false;

/** One host's hold on one workspace; `release` gives it up. Everything is synchronous, so it works in an exit handler. */
export class WorkspaceLock {
  constructor(
    /** The lock file. */
    readonly file: string,
    private current: WorkspaceOwner,
  ) {}

  /** What the lock says about its owner (this host). */
  get owner(): WorkspaceOwner {
    return this.current;
  }

  /** Says how to reach this host from now on (the browser host knows its URL only once it listens). */
  update(reach: string): void {
    if (!this.isOurs()) return;
    const next = { ...this.current, reach };
    const temp = `${this.file}.${randomUUID()}.tmp`;
    writeFileSync(temp, JSON.stringify(next), { mode: 0o600 });
    // A rename replaces the file whole: a reader sees the old owner or the new, never half a file.
    renameSync(temp, this.file);
    this.current = next;
  }

  /** Gives the workspace up; a lock that another host has since taken over (ours was judged dead) is left to it. */
  release(): void {
    held.delete(this);
    if (this.isOurs()) rmSync(this.file, { force: true });
  }

  private isOurs(): boolean {
    return parseOwner(readIfPresent(this.file))?.claim === this.current.claim;
  }
}

/**
 * Takes the owner lock of a workspace's data folder for this process, unless a live host holds it. A lock
 * whose owner is dead (its pid is gone, or now belongs to a process that started at another time) or
 * that cannot be read is taken over. Of hosts racing for it, exactly one wins: the lock appears only by a
 * hard link of a fully written file (which fails when the name exists), and a dead owner's lock is removed
 * only under a takeover guard (an exclusive mkdir) after checking it is still the one judged dead.
 */
export function acquireWorkspaceLock(dataDir: string, reach: string): LockAttempt {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const file = workspaceLockFile(dataDir);
  const self = processIdentity() ?? { pid: process.pid, startTime: "" };
  const owner: WorkspaceOwner = { ...self, reach, since: Date.now(), claim: randomUUID() };
  const temp = `${file}.${owner.claim}.tmp`;
  writeFileSync(temp, JSON.stringify(owner), { mode: 0o600 });
  try {
    for (const giveUp = Date.now() + GUARD_WAIT_MS; ; ) {
      try {
        linkSync(temp, file);
        const lock = new WorkspaceLock(file, owner);
        hold(lock);
        return { lock };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      }
      const raw = readIfPresent(file);
      if (raw === undefined) continue; // released between the two looks: try again
      const found = parseOwner(raw);
      if (found && isProcessAlive(found)) return { owner: found };
      if (!removeStale(file, raw) && Date.now() > giveUp) {
        throw new Error(
          `Another Pi Desk is taking over the lock ${file} and has not finished. Try again in a moment.`,
        );
      }
    }
  } finally {
    rmSync(temp, { force: true });
  }
}

/** Removes the lock if it still reads `raw` (a dead owner's or unreadable); false when the guard was busy. */
function removeStale(file: string, raw: string): boolean {
  const guard = `${file}.takeover`;
  try {
    mkdirSync(guard, { mode: 0o700 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    const age = Date.now() - (statMtime(guard) ?? Date.now());
    if (age > STALE_GUARD_MS) rmSync(guard, { recursive: true, force: true });
    else pause(10);
    return false;
  }
  try {
    // Under the guard nobody else removes it, and a dead owner neither rewrites nor releases it: when it
    // still reads the same, it is still the dead one.
    if (readIfPresent(file) === raw) rmSync(file, { force: true });
  } finally {
    rmSync(guard, { recursive: true, force: true });
  }
  return true;
}

/** The owner a lock file names, or undefined when it is missing or is not a lock (a corrupt file). */
function parseOwner(raw: string | undefined): WorkspaceOwner | undefined {
  if (raw === undefined) return undefined;
  try {
    const value = JSON.parse(raw) as Partial<WorkspaceOwner> | null;
    if (
      value &&
      Number.isInteger(value.pid) &&
      typeof value.startTime === "string" &&
      typeof value.reach === "string" &&
      typeof value.claim === "string"
    ) {
      return value as WorkspaceOwner;
    }
  } catch {
    // Not JSON: an unreadable lock names no owner.
  }
  return undefined;
}

function hold(lock: WorkspaceLock): void {
  held.add(lock);
  if (exitHook) return;
  exitHook = true;
  // 'exit' runs on process.exit() and after an uncaught error, where nothing asynchronous can run any more.
  process.on("exit", () => {
    for (const lock of [...held]) lock.release();
  });
}

function readIfPresent(file: string): string | undefined {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return undefined;
  }
}

function statMtime(path: string): number | undefined {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return undefined;
  }
}

/** A short synchronous wait: the lock is taken synchronously, and contention lasts milliseconds. */
function pause(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}
