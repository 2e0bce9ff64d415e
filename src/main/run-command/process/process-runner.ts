import { type ChildProcess, type StdioOptions, spawn } from "node:child_process";
import { stat } from "node:fs/promises";
import type { Socket } from "node:net";
import { constants as osConstants } from "node:os";
import type { Readable } from "node:stream";
import { finished } from "node:stream/promises";
import type { LimitStop, ResourceLimitsLayer } from "../../../shared/commands";
import { errorMessage } from "../../base/errors";
import type { LimitedRun } from "../limits/command-limiter";
import { type CollectedOutput, OutputCollector, type OutputSnapshot } from "../output/output-collector";
import type { OutputSpace } from "../output/output-file";
import { readBeforeSpawn, surelyNothingLeft } from "./leftover-check";
import { openOutputSocket, openOutputSocketAhead } from "./output-socket";
import {
  createRunMarker,
  killProcessTree,
  RUN_MARKER_ENV,
  readProcessStartTime,
  readStartClock,
} from "./process-tree";

/** How to run one command. */
export interface RunProcessOptions {
  /** Program and arguments; the caller builds the shell invocation and any sandbox prefix (e.g. ["/bin/bash", "-c", "exec 2>&1\n" + command]). */
  argv: readonly string[];
  /** Working directory of the command. */
  cwd: string;
  /** The complete environment; nothing from process.env is added (only the `RUN_MARKER_ENV` tree marker). */
  env: Record<string, string>;
  /** The command and everything it started is killed after this many milliseconds. */
  timeoutMs: number;
  /** Aborting kills the command's whole tree; an already-aborted signal runs nothing. */
  signal?: AbortSignal;
  /** Throttled live view (at most ~10 calls a second, plus none after the end): the current tail text and counts. */
  onUpdate?: (update: OutputSnapshot) => void;
  /** Where full-output files go (a private 0700 dir is created under os.tmpdir() when absent). */
  outputDir?: string;
  /** The most the full-output file takes on disk (default `DEFAULT_OUTPUT_BUDGET_BYTES`). */
  outputBudgetBytes?: number;
  /** Where full-output files' disk use is accounted (the workspace's quota). */
  outputSpace?: OutputSpace;
  /** Told the root pid and marker once the program started, so a crash record can be kept (see run-registry). */
  onStart?: (run: { pid: number; marker: string; rootStartTime?: number; cgroups?: string[] }) => () => void;
  /** Opens a pipe as the program's fd 3 and returns what it wrote there as `statusText` (a sandbox reports through it). */
  statusPipe?: boolean;
  /**
   * Opens a Node IPC channel as the program's fd 4 (`CHANNEL_FD`) and gives it to this once the program started:
   * the sandbox's network forwarder hands its listening sockets back over it. Whoever holds it closes it.
   */
  onChannel?: (channel: ChildProcess) => void;
  /** Given, once it runs, a way to move the timeout: to this many ms from the start (a command kept running). */
  onDeadline?: (moveTo: (timeoutMs: number) => void) => void;
  /**
   * Sets up the command's resource limits just before it starts (limits/command-limiter.ts); throws, with
   * the reason, when they cannot be set: the command then does not run. Absent: no limits.
   */
  startLimits?: () => LimitedRun | undefined;
}

/** How a command ended. */
export interface ProcessOutcome {
  /** The real exit code; 128 + signal number when killed by a signal on its own; null when timed out, cancelled or not started. */
  exitCode: number | null;
  /** The signal that ended the main process, if any. */
  signal: string | null;
  /** The command hit `timeoutMs` and was killed. */
  timedOut: boolean;
  /** The command was cancelled through the AbortSignal (wins over `timedOut`). */
  cancelled: boolean;
  /** Why the program could not be started, as a sentence for a person or the model. */
  spawnError?: string;
  /** Wall time from the call to the end, in milliseconds. */
  durationMs: number;
  /** What the command printed (stdout and stderr merged in arrival order). */
  output: CollectedOutput;
  /** What the program wrote to fd 3, when `statusPipe` was asked for (never part of `output`). */
  statusText?: string;
  /** The resource limit it reached (it was stopped, or a process of it killed, for it). */
  limit?: LimitStop;
  /** The layer that held its memory and process limits ("none": nothing did); absent when it never started. */
  limitsLayer?: ResourceLimitsLayer;
}

/** Live updates at most this often, so a chatty command does not flood the UI. */
const UPDATE_INTERVAL_MS = 100;

/** After the tree is gone, how long a silent pipe may stay open before we stop reading it. */
const PIPE_IDLE_MS = 250;

/** After the tree is gone, stop reading pipes after this long even if something still writes. */
const PIPE_MAX_WAIT_MS = 2_000;

/** Largest delay setTimeout takes; beyond it Node fires after 1 ms instead. */
const MAX_TIMER_MS = 2_147_483_647;

/** How the main process ended. */
type Exit = { code: number | null; signal: NodeJS.Signals | null };

/** A usable timer delay: huge values are capped (never "fire now"), NaN counts as 0 (never "no limit"). */
function clampTimeout(timeoutMs: number): number {
  return Number.isNaN(timeoutMs) ? 0 : Math.min(Math.max(timeoutMs, 0), MAX_TIMER_MS);
}

/** Runs a program with its own process group, a timeout and cancellation; never throws for a failing command. */
export async function runProcess(options: RunProcessOptions): Promise<ProcessOutcome> {
  const startedAt = performance.now();
  const elapsed = () => Math.round(performance.now() - startedAt);
  const onChange = options.onUpdate ? () => updates.schedule() : undefined;
  const collector = new OutputCollector({
    outputDir: options.outputDir,
    onChange,
    budgetBytes: options.outputBudgetBytes,
    space: options.outputSpace,
  });
  const updates = throttle(() => options.onUpdate?.(collector.snapshot()));
  const notRun = async (extra: Partial<ProcessOutcome>): Promise<ProcessOutcome> => ({
    exitCode: null,
    signal: null,
    timedOut: false,
    cancelled: false,
    ...extra,
    durationMs: elapsed(),
    output: await collector.finish(),
  });

  if (options.signal?.aborted) return notRun({ cancelled: true });
  if (options.argv[0] === undefined)
    return notRun({ spawnError: "No program was given to run (argv is empty)." });

  // One reused read buffer instead of a new one per read (why: output-socket.ts); a plain pipe if it fails.
  let reader: Socket | undefined;
  const socket = await openOutputSocket((bytes) => collector.take(bytes, () => reader?.resume())).catch(
    () => undefined,
  );
  reader = socket?.reader;
  const closeSocket = () => {
    socket?.childEnd.destroy();
    socket?.reader.destroy();
  };
  if (options.signal?.aborted) {
    closeSocket();
    return notRun({ cancelled: true });
  }
  const out = socket?.childEnd ?? "pipe";
  let limited: LimitedRun | undefined;
  try {
    limited = options.startLimits?.();
  } catch (error) {
    closeSocket();
    return notRun({ spawnError: errorMessage(error) });
  }
  const argv = limited ? limited.wrap(options.argv) : options.argv;
  const [program, ...args] = argv as [string, ...string[]];

  const marker = createRunMarker();
  // Before the spawn: every process of the command starts after this (the tree scan's pre-filter).
  const startedBefore = readStartClock();
  const beforeSpawn = readBeforeSpawn();
  let child: ChildProcess;
  try {
    child = spawn(program, args, {
      cwd: options.cwd,
      env: { ...options.env, [RUN_MARKER_ENV]: marker },
      // Own session and process group, so the whole command can be signalled at once (not on Windows,
      // where detached means a new console window).
      detached: process.platform !== "win32",
      stdio: stdioFor(out, options),
      windowsHide: true,
    });
  } catch (error) {
    closeSocket();
    await limited?.finish();
    return notRun({ spawnError: await describeSpawnError(error, program, options.cwd) });
  }
  // The child has its own copies of the socket's end; ours would keep the reader from ever ending.
  socket?.childEnd.destroy();
  const pid = child.pid;
  if (pid === undefined) {
    closeSocket();
    await limited?.finish();
    const error = await new Promise<unknown>((resolve) => child.once("error", resolve));
    return notRun({ spawnError: await describeSpawnError(error, program, options.cwd) });
  }
  // Spawn errors were handled above; this keeps a late one from becoming an uncaught exception.
  child.on("error", () => {});
  options.onChannel?.(child);
  // Read now, while the pid is surely ours: later scans use it to tell our tree from a reused pid.
  const rootStartTime = readProcessStartTime(pid);
  const cgroups = limited?.cgroupDirs.length ? { cgroups: limited.cgroupDirs } : {};
  const forget = options.onStart?.({ pid, marker, rootStartTime, ...cgroups });
  const pipes = socket
    ? [socket.reader]
    : [child.stdout, child.stderr].filter((s): s is Readable => s !== null);
  if (!socket) for (const pipe of pipes) collector.follow(pipe);
  const status = options.statusPipe ? readStatus(child.stdio[3] as Readable | null | undefined) : undefined;

  let timedOut = false;
  let cancelled = false;
  let exited = false;
  let killing: Promise<void> | undefined;
  let giveUp: (exit: Exit) => void = () => {};
  const killTree = () => {
    killing ??= killProcessTree(pid, { marker, rootStartTime, startedBefore }).then((result) => {
      // A root that survives SIGKILL (stuck in the kernel) would never report its exit: stop waiting.
      if (result.survivors.includes(pid)) giveUp({ code: null, signal: null });
    });
    return killing;
  };
  const onAbort = () => {
    if (exited) return;
    cancelled = true;
    timedOut = false;
    void killTree();
  };
  const onTimeout = () => {
    if (exited || cancelled) return;
    timedOut = true;
    void killTree();
  };
  let timer = setTimeout(onTimeout, clampTimeout(options.timeoutMs));
  options.onDeadline?.((timeoutMs) => {
    clearTimeout(timer);
    timer = setTimeout(onTimeout, clampTimeout(timeoutMs - elapsed()));
  });
  options.signal?.addEventListener("abort", onAbort, { once: true });
  // A command at its process limit is stopped at once: a fork bomb would otherwise spin until its timeout.
  limited?.watch(() => {
    if (!exited && !cancelled) void killTree();
  });

  const exit = await new Promise<Exit>((resolve) => {
    giveUp = resolve;
    child.once("exit", (code, signal) => resolve({ code, signal }));
  });
  exited = true;
  // Its cgroup holds every process it started: emptied first (exactly, and fast even for a fork bomb).
  const limitEnd = await limited?.finish();
  // The main process is gone; whatever it left behind (background jobs, daemons) goes too, so nothing
  // outlives the command and the pipes close. Same path as timeout and cancel. Unless it surely left
  // nothing (leftover-check.ts): then the scan is skipped.
  if (killing || !surelyNothingLeft(beforeSpawn, pid, { marker, rootStartTime })) await killTree();
  clearTimeout(timer);
  options.signal?.removeEventListener("abort", onAbort);
  await drainPipes(pipes, collector);
  updates.stop();
  const statusText = await status?.();
  const output = await collector.finish();
  // The tree is gone: its record goes. What is made ahead for the next command (its output socket, its
  // record's file) is made once this one's result is on its way: not before a command (on its path),
  // not while it runs (the connect's turns of the event loop competed with the program for the CPU: a
  // small command's run went from 1.3 to 2.5 ms on the loaded 2-core machine).
  forget?.();
  if (socket) setImmediate(openOutputSocketAhead);

  const byItself = !timedOut && !cancelled;
  const signalNumber = exit.signal ? (osConstants.signals[exit.signal] ?? 0) : 0;
  return {
    exitCode: byItself ? (exit.code ?? 128 + signalNumber) : null,
    signal: exit.signal,
    timedOut,
    cancelled,
    durationMs: elapsed(),
    output,
    ...(statusText !== undefined ? { statusText } : {}),
    ...(limitEnd?.stop && !cancelled ? { limit: limitEnd.stop } : {}),
    limitsLayer: limited?.layer ?? "none",
  };
}

/** The descriptor `onChannel`'s IPC channel is on in the program (Node says which in NODE_CHANNEL_FD). */
export const CHANNEL_FD = 4;

/** stdin closed (a command waiting for input ends instead of hanging the run), output, then fds 3 and 4 if asked. */
function stdioFor(out: Socket | "pipe", options: RunProcessOptions): StdioOptions {
  const stdio: (Socket | "pipe" | "ignore" | "ipc")[] = ["ignore", out, out];
  if (options.statusPipe || options.onChannel) stdio.push(options.statusPipe ? "pipe" : "ignore");
  if (options.onChannel) stdio.push("ipc");
  return stdio;
}

/**
 * Collects the status pipe. The writer closes it when it exits; one kept open by something that escaped
 * the kill is read for at most `PIPE_MAX_WAIT_MS` more, so the run still ends.
 */
function readStatus(pipe: Readable | null | undefined): () => Promise<string> {
  const chunks: Buffer[] = [];
  pipe?.on("data", (chunk: Buffer) => chunks.push(chunk));
  // Only the reading side: Node opens fd 3 as a socket, whose writing side we never end.
  const closed = pipe ? finished(pipe, { writable: false }).catch(() => {}) : Promise.resolve();
  return async () => {
    const hardStop = setTimeout(() => pipe?.destroy(), PIPE_MAX_WAIT_MS);
    await closed;
    clearTimeout(hardStop);
    return Buffer.concat(chunks).toString("utf8");
  };
}

/**
 * Reads what is left in the pipes. They close once every writer is gone; one held by a process that
 * escaped the kill (or is stuck) is abandoned once it stayed silent for a whole `PIPE_IDLE_MS`, or at
 * the latest after `PIPE_MAX_WAIT_MS`.
 */
async function drainPipes(pipes: Readable[], collector: OutputCollector): Promise<void> {
  const closed = Promise.all(pipes.map((pipe) => finished(pipe).catch(() => {})));
  let seen = collector.receivedBytes;
  const idle = setInterval(() => {
    // Paused only while the full-output file catches up: that is progress, not silence.
    if (collector.paused || collector.receivedBytes !== seen) {
      seen = collector.receivedBytes;
      return;
    }
    for (const pipe of pipes) pipe.destroy();
  }, PIPE_IDLE_MS);
  const hardStop = setTimeout(() => {
    for (const pipe of pipes) pipe.destroy();
  }, PIPE_MAX_WAIT_MS);
  await closed;
  clearInterval(idle);
  clearTimeout(hardStop);
}

/** Calls `fn` at most every `UPDATE_INTERVAL_MS`, first call right away; nothing after `stop()`. */
function throttle(fn: () => void): { schedule: () => void; stop: () => void } {
  let last = Number.NEGATIVE_INFINITY;
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const fire = () => {
    timer = undefined;
    if (stopped) return;
    last = performance.now();
    try {
      fn();
    } catch {
      // A broken listener must not break the run; the final outcome still carries the output.
    }
  };
  return {
    schedule: () => {
      if (stopped || timer) return;
      const wait = last + UPDATE_INTERVAL_MS - performance.now();
      if (wait <= 0) fire();
      else timer = setTimeout(fire, wait);
    },
    stop: () => {
      stopped = true;
      clearTimeout(timer);
    },
  };
}

/** Turns a spawn failure into a sentence that says what happened and what to do. */
async function describeSpawnError(error: unknown, program: string, cwd: string): Promise<string> {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const cwdOk = await stat(cwd).then(
    (s) => s.isDirectory(),
    () => false,
  );
  // Node reports a missing cwd as ENOENT of the program, which would send people looking in the wrong place.
  if (!cwdOk)
    return `Could not start ${program}: the working directory ${cwd} does not exist or is not a directory.`;
  if (code === "ENOENT")
    return `Could not start ${program}: no such program (ENOENT). Check that it is installed and the path is right.`;
  if (code === "EACCES")
    return `Could not start ${program}: permission denied (EACCES). Check that it is an executable file.`;
  const message = errorMessage(error);
  return `Could not start ${program}: ${message}.`;
}
