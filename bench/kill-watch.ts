import { Worker } from "node:worker_threads";

/** When the last watched process was seen gone, or which were still alive at the deadline. */
export interface KillWatchResult {
  /** Milliseconds from `abortNow()` to the first poll that found every watched process gone; null if some survived. */
  latencyMs: number | null;
  /** Pids still alive (and not zombies) at the deadline. */
  survivors: number[];
}

/**
 * Polls /proc from its own thread, every `POLL_MS`, so the measurement does not wait for the host's event
 * loop, which is busy with the kill being measured. A zombie counts as gone: it holds nothing, and PID 1
 * in a container may never reap it.
 */
const WATCHER_SOURCE = `
const { workerData, parentPort } = require("node:worker_threads");
const { openSync, readSync, closeSync } = require("node:fs");
const { pids, deadlineMs, pollMs, shared } = workerData;
const abortAt = new Float64Array(shared, 0, 1);
const gate = new Int32Array(shared, 8, 1);
const buffer = Buffer.alloc(512);
const now = () => performance.timeOrigin + performance.now();
function alive(pid) {
  let fd;
  try { fd = openSync("/proc/" + pid + "/stat", "r"); } catch { return false; }
  try {
    const text = buffer.toString("latin1", 0, readSync(fd, buffer, 0, buffer.length, 0));
    const state = text.slice(text.lastIndexOf(")") + 2, text.lastIndexOf(")") + 3);
    return state !== "Z" && state !== "X";
  } catch { return false; } finally { closeSync(fd); }
}
Atomics.wait(gate, 0, 0);
const started = abortAt[0];
let left = pids.slice();
for (;;) {
  left = left.filter(alive);
  const t = now();
  if (left.length === 0) { parentPort.postMessage({ latencyMs: t - started, survivors: [] }); break; }
  if (t - started > deadlineMs) { parentPort.postMessage({ latencyMs: null, survivors: left }); break; }
  Atomics.wait(gate, 0, 1, pollMs);
}
`;

/** How often the watcher looks, in milliseconds: the resolution of the measurement. */
const POLL_MS = 1;

/**
 * Starts a watcher for `pids`; call `abortNow(abort)` to stamp the start and run the abort, then await
 * `result`. Processes still alive `deadlineMs` after the abort are reported as survivors.
 */
export async function watchKill(
  pids: number[],
  deadlineMs: number,
): Promise<{ abortNow: (abort: () => void) => void; result: Promise<KillWatchResult> }> {
  const shared = new SharedArrayBuffer(16);
  const worker = new Worker(WATCHER_SOURCE, {
    eval: true,
    workerData: { pids, deadlineMs, pollMs: POLL_MS, shared },
  });
  await new Promise<void>((resolve, reject) => {
    worker.once("online", resolve);
    worker.once("error", reject);
  });
  const result = new Promise<KillWatchResult>((resolve, reject) => {
    worker.once("message", (message: KillWatchResult) => {
      void worker.terminate();
      resolve(message);
    });
    worker.once("error", reject);
  });
  const abortNow = (abort: () => void) => {
    new Float64Array(shared, 0, 1)[0] = performance.timeOrigin + performance.now();
    const gate = new Int32Array(shared, 8, 1);
    Atomics.store(gate, 0, 1);
    Atomics.notify(gate, 0);
    abort();
  };
  return { abortNow, result };
}
