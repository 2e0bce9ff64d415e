import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";

/**
 * A process as another process can recognise it later: its pid and its start time as the OS reports it.
 * The pid alone is not enough: pids are reused, so a recorded pid that is alive may be a stranger's.
 */
export interface ProcessIdentity {
  /** The process id. */
  pid: number;
  /** Its start time as the OS reports it (Linux: clock ticks since boot; elsewhere `ps -o lstart=`); "" where unknown. */
  startTime: string;
}

/** The identity of a process (this one by default), or undefined when it is gone (or a zombie). */
export function processIdentity(pid: number = process.pid): ProcessIdentity | undefined {
  if (!Number.isInteger(pid) || pid <= 0) return undefined;
  const startTime = processStartTime(pid);
  if (startTime === undefined) return undefined;
  return { pid, startTime };
}

/**
 * Whether the process `identity` names still runs: its pid exists and started at the same time. A pid that
 * exists with another start time was reused by a new process, and the one recorded is dead.
 */
export function isProcessAlive(identity: ProcessIdentity): boolean {
  const now = processIdentity(identity.pid);
  if (!now) return false;
  // Where the OS would not say when either started, a live pid has to count as the same process: taking
  // a live owner's place costs more than waiting for a dead one to be noticed.
  if (now.startTime === "" || identity.startTime === "") return true;
  return now.startTime === identity.startTime;
}

/** A process's start time, "" when it exists but the OS does not say, undefined when it is gone. */
function processStartTime(pid: number): string | undefined {
  if (process.platform === "linux") return linuxStartTime(pid);
  if (!pidExists(pid)) return undefined;
  if (process.platform === "win32") return "";
  try {
    const started = execFileSync("ps", ["-o", "lstart=", "-p", String(pid)], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
    }).trim();
    // ps prints nothing (and exits 1) for a pid that ended between the two looks.
    return started === "" ? undefined : started.replace(/\s+/g, " ");
  } catch {
    return pidExists(pid) ? "" : undefined;
  }
}

/** Field 22 of /proc/<pid>/stat (start time in clock ticks since boot); a zombie counts as gone. */
function linuxStartTime(pid: number): string | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, "latin1");
  } catch {
    return undefined;
  }
  // The command name is in parentheses and may itself hold spaces and ')': fields start after the last ')'.
  const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
  if (fields[0] === "Z" || fields[0] === "X") return undefined;
  return fields[19] ?? "";
}

/** Whether any process has this pid (one of another user counts: it exists). */
function pidExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
