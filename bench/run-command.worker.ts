/**
 * One benchmark task in a fresh process, so its RSS belongs to one contender alone. Started by
 * run-command.bench.ts with the task as JSON in argv[2]; prints `BENCH_RESULT <json>` and exits.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as delay } from "node:timers/promises";
import { type Contender, type ContenderId, createContender } from "./contenders";
import { watchKill } from "./kill-watch";

/** What the orchestrator asks a worker to do. */
export type WorkerTask =
  | { kind: "output"; contender: ContenderId; bytes: number }
  | { kind: "memory"; contender: ContenderId; bytes: number }
  | { kind: "overhead"; contender: ContenderId; calls: number }
  | { kind: "one-host"; contender: ContenderId; contenders: ContenderId[]; calls: number; gapMs?: number }
  | { kind: "kill"; contender: ContenderId; runs: number; deadlineMs: number };

/** Width of the `fold` in the output command: every line but the last is this long plus a newline. */
export const FOLD_WIDTH = 100;

/** The command printing `bytes` of 'a' in lines of `FOLD_WIDTH`. */
export function outputCommand(bytes: number): string {
  return `head -c ${bytes} /dev/zero | tr '\\0' 'a' | fold -w ${FOLD_WIDTH}`;
}

/** Exact size of that output: `fold` adds a newline between lines and none after the last one. */
export function expectedOutputSize(bytes: number): number {
  return bytes + Math.floor((bytes - 1) / FOLD_WIDTH);
}

/** Result of one output run. */
export interface OutputRunResult {
  wallMs: number;
  /** CPU time of the host process during the run (all its threads, not the command's processes). */
  cpuMs: number;
  /** RSS after the warm-up, just before the run. */
  rssBeforeBytes: number;
  /** Largest RSS sampled every 10 ms during the run. */
  rssSampledMaxBytes: number;
  /** VmHWM at the end: the true peak RSS of the process. */
  peakRssBytes: number;
  /** Bytes of the whole model-facing text (tail plus the tool's note); null where there is none. */
  modelTextBytes: number | null;
  /** Bytes of the output part of it (the note about truncation removed). */
  modelTailBytes: number | null;
  /** Whether the output part ends with the last line the command printed, whole. */
  endsWithLastLine: boolean | null;
  /** Size of the full-output file; null when the contender saved none. */
  fullOutputBytes: number | null;
  expectedBytes: number;
}

/** Result of the memory task: what one big command costs the host in memory, and how long it took. */
export interface MemoryRunResult {
  /** RSS just before the measured call (after the warm-up, with the peak reset to it). */
  rssBeforeBytes: number;
  /** Peak RSS during the call: VmHWM, reset just before it (or the samples where VmHWM cannot be reset). */
  peakRssBytes: number;
  /** How the peak was read: "VmHWM" (exact) or "sampled" (every 10 ms; may miss a short spike). */
  peakSource: "VmHWM" | "sampled";
  /** Largest growth of `process.memoryUsage().arrayBuffers` (Buffers live or awaiting collection), sampled every 10 ms. */
  arrayBuffersGrowthBytes: number;
  /** Largest growth of V8's used heap (strings, objects, garbage not yet collected), sampled every 10 ms. */
  heapUsedGrowthBytes: number;
  /** Wall time of the measured call. */
  wallMs: number;
  /** Host CPU time of the measured call. */
  cpuMs: number;
}

/** Result of the overhead task: one entry per call. */
export interface OverheadResult {
  callMs: number[];
  /** Host CPU time of all the calls together. */
  cpuMs: number;
}

/** Result of the kill task: one entry per run. */
export interface KillResult {
  runs: { latencyMs: number | null; survivors: number }[];
}

function peakRss(): number {
  const match = /^VmHWM:\s+(\d+) kB/m.exec(readFileSync("/proc/self/status", "latin1"));
  return Number(match?.[1] ?? 0) * 1024;
}

async function outputRun(contender: Contender, bytes: number): Promise<OutputRunResult> {
  const rssBeforeBytes = process.memoryUsage.rss();
  let rssSampledMaxBytes = rssBeforeBytes;
  const sampler = setInterval(() => {
    rssSampledMaxBytes = Math.max(rssSampledMaxBytes, process.memoryUsage.rss());
  }, 10);
  const started = performance.now();
  const cpuBefore = process.cpuUsage();
  const result = await contender.run(outputCommand(bytes));
  const wallMs = performance.now() - started;
  const cpu = process.cpuUsage(cpuBefore);
  clearInterval(sampler);
  const peakRssBytes = peakRss();

  const lastLine = "a".repeat(bytes % FOLD_WIDTH || FOLD_WIDTH);
  let tail: string | undefined;
  if (result.text !== undefined) {
    // Both tools end a cut output with "\n\n[Showing ... Full output: <path>]"; the output part is before it.
    tail = result.text.replace(/\n\n\[Showing [^\n]*\]$/, "");
  }
  let fullOutputBytes: number | null = null;
  if (result.fullOutputPath) {
    fullOutputBytes = statSync(result.fullOutputPath).size;
    rmSync(result.fullOutputPath, { force: true });
  }
  return {
    wallMs,
    cpuMs: (cpu.user + cpu.system) / 1000,
    rssBeforeBytes,
    rssSampledMaxBytes,
    peakRssBytes,
    modelTextBytes: result.text === undefined ? null : Buffer.byteLength(result.text),
    modelTailBytes: tail === undefined ? null : Buffer.byteLength(tail),
    endsWithLastLine:
      tail === undefined ? null : tail.endsWith(`\n${lastLine}`) && !tail.endsWith(`a${lastLine}`),
    fullOutputBytes,
    expectedBytes: expectedOutputSize(bytes),
  };
}

/**
 * Resets the kernel's peak-RSS mark (VmHWM) to the current RSS: writing 5 to clear_refs does exactly
 * that (Linux 4.0+). False where it cannot (another OS, or /proc not writable).
 */
function resetPeakRss(): boolean {
  try {
    writeFileSync("/proc/self/clear_refs", "5");
    return true;
  } catch {
    return false;
  }
}

/**
 * The memory measure: peak RSS minus RSS before the call, for one big command after one warm-up
 * call of the same command at 1 MiB (so its modules, the JIT and the full-output path have all run once,
 * and what is left is what the big output itself costs). The contender's live-update callback is on.
 */
async function memoryRun(contender: Contender, bytes: number): Promise<MemoryRunResult> {
  await contender.run(outputCommand(1024 * 1024)).then(removeFullOutput);
  const exact = resetPeakRss();
  const before = process.memoryUsage();
  let sampledRss = before.rss;
  let arrayBuffers = before.arrayBuffers;
  let heapUsed = before.heapUsed;
  // Where the memory goes: buffers outside V8's heap, and the heap itself. Every 10 ms, since
  // memoryUsage() walks the heap; the peak RSS is VmHWM's, not these samples', where it can be reset.
  const sampler = setInterval(() => {
    const now = process.memoryUsage();
    sampledRss = Math.max(sampledRss, now.rss);
    arrayBuffers = Math.max(arrayBuffers, now.arrayBuffers);
    heapUsed = Math.max(heapUsed, now.heapUsed);
  }, 10);
  const started = performance.now();
  const cpuBefore = process.cpuUsage();
  const result = await contender.run(outputCommand(bytes));
  const wallMs = performance.now() - started;
  const cpu = process.cpuUsage(cpuBefore);
  clearInterval(sampler);
  const peakRssBytes = exact ? peakRss() : sampledRss;
  removeFullOutput(result);
  return {
    rssBeforeBytes: before.rss,
    peakRssBytes,
    peakSource: exact ? "VmHWM" : "sampled",
    arrayBuffersGrowthBytes: arrayBuffers - before.arrayBuffers,
    heapUsedGrowthBytes: heapUsed - before.heapUsed,
    wallMs,
    cpuMs: (cpu.user + cpu.system) / 1000,
  };
}

function removeFullOutput(result: { fullOutputPath?: string }): void {
  if (result.fullOutputPath) rmSync(result.fullOutputPath, { force: true });
}

async function overhead(contender: Contender, calls: number): Promise<OverheadResult> {
  const callMs: number[] = [];
  const cpuBefore = process.cpuUsage();
  for (let i = 0; i < calls; i++) {
    const started = performance.now();
    await contender.run("true");
    callMs.push(performance.now() - started);
  }
  const cpu = process.cpuUsage(cpuBefore);
  return { callMs, cpuMs: (cpu.user + cpu.system) / 1000 };
}

/** Result of the one-host task: each contender's calls, made in turn from the same process. */
export interface OneHostResult {
  callMs: Partial<Record<ContenderId, number[]>>;
}

/**
 * The contenders in one process, as the app holds them (one host, Pi's bash tool and run_command both
 * loaded), calling in turn: each fork then copies the same process, so what differs is each tool's own work.
 * With `gapMs`, the host idles that long between calls, as it does in the app while the model answers:
 * what a tool prepares for its next command after a result (run_command's next output socket and record
 * file) then falls in the gap; without one it falls in the next call, whichever tool's that is.
 */
async function oneHost(all: Contender[], calls: number, gapMs = 0): Promise<OneHostResult> {
  const callMs: Partial<Record<ContenderId, number[]>> = Object.fromEntries(all.map((c) => [c.id, []]));
  for (let i = 0; i < calls; i++) {
    // The order alternates so that neither always runs right after the other's command.
    for (const contender of i % 2 === 0 ? all : [...all].reverse()) {
      const started = performance.now();
      await contender.run("true");
      callMs[contender.id]?.push(performance.now() - started);
      if (gapMs > 0) await delay(gapMs);
    }
  }
  return { callMs };
}

/** Processes in the tree: plain background sleeps, ones that left via setsid, and one that ignores SIGTERM. */
const PLAIN = 13;
const SETSID = 6;
export const TREE_SIZE = PLAIN + SETSID + 1;

/** Starts the tree and writes each process's pid to `pids` in the workspace; then waits. */
function killCommand(file: string): string {
  return [
    `for i in $(seq ${PLAIN}); do sleep 300 & echo $! >> ${file}; done`,
    `for i in $(seq ${SETSID}); do setsid sleep 300 & echo $! >> ${file}; done`,
    `(trap '' TERM; exec sleep 300) & echo $! >> ${file}`,
    "wait",
  ].join("\n");
}

function isSleeping(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/comm`, "latin1").trim() === "sleep";
  } catch {
    return false;
  }
}

async function killRuns(
  contender: Contender,
  workspace: string,
  runs: number,
  deadlineMs: number,
): Promise<KillResult> {
  const out: KillResult["runs"] = [];
  for (let run = 0; run < runs; run++) {
    const file = `pids-${run}`;
    const controller = new AbortController();
    const done = contender.run(killCommand(file), controller.signal);
    // Ready when every process has exec'd sleep: by then setsid and the ignored SIGTERM are in place.
    let pids: number[] = [];
    const until = performance.now() + 10_000;
    while (performance.now() < until) {
      try {
        pids = readFileSync(join(workspace, file), "latin1").split("\n").filter(Boolean).map(Number);
      } catch {
        pids = [];
      }
      if (pids.length === TREE_SIZE && pids.every(isSleeping)) break;
      await delay(5);
    }
    if (pids.length !== TREE_SIZE) {
      controller.abort();
      throw new Error(`the tree did not start: ${pids.length} pids`);
    }
    const watch = await watchKill(pids, deadlineMs);
    watch.abortNow(() => controller.abort());
    const { latencyMs, survivors } = await watch.result;
    // Survivors are this benchmark's own processes: end them by pid so the next run starts clean.
    for (const pid of survivors) {
      try {
        process.kill(pid, "SIGKILL");
      } catch {
        // gone meanwhile
      }
    }
    await Promise.race([done, delay(5_000)]);
    out.push({ latencyMs, survivors: survivors.length });
  }
  return { runs: out };
}

/**
 * With BENCH_CPU_PROF_DIR set, a CPU profile of the measured part only (not module loading or the
 * warm-up), written as `<kind>-<contender>-<pid>.cpuprofile` for Chrome DevTools or any .cpuprofile reader.
 */
async function startProfiler(): Promise<{ stop: (name: string) => Promise<void> } | undefined> {
  const dir = process.env.BENCH_CPU_PROF_DIR;
  if (!dir) return undefined;
  const { Session } = await import("node:inspector/promises");
  const session = new Session();
  session.connect();
  await session.post("Profiler.enable");
  await session.post("Profiler.setSamplingInterval", { interval: 100 });
  await session.post("Profiler.start");
  return {
    async stop(name) {
      const { profile } = await session.post("Profiler.stop");
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, `${name}-${process.pid}.cpuprofile`), JSON.stringify(profile));
      session.disconnect();
    },
  };
}

/** Runs the task given in argv[2] in a private temp folder and prints its result. */
async function main(): Promise<void> {
  const task = JSON.parse(process.argv[2] ?? "{}") as WorkerTask;
  const root = mkdtempSync(join(tmpdir(), `bench-${task.contender}-`));
  const workspace = join(root, "workspace");
  const outputDir = join(root, "output");
  mkdirSync(workspace);
  try {
    const ids = task.kind === "one-host" ? task.contenders : [task.contender];
    const all: Contender[] = [];
    for (const id of ids) all.push(await createContender(id, { workspace, outputDir: join(outputDir, id) }));
    const contender = all[0] as Contender;
    // Warm-up: loads the shell parser and the contender's modules, so the first measured call is not a cold start.
    for (const each of all) for (let i = 0; i < 3; i++) await each.run("true");
    const profiler = await startProfiler();
    const result =
      task.kind === "one-host"
        ? await oneHost(all, task.calls, task.gapMs)
        : task.kind === "output"
          ? await outputRun(contender, task.bytes)
          : task.kind === "memory"
            ? await memoryRun(contender, task.bytes)
            : task.kind === "overhead"
              ? await overhead(contender, task.calls)
              : await killRuns(contender, workspace, task.runs, task.deadlineMs);
    await profiler?.stop(`${task.kind}-${task.contender}`);
    process.stdout.write(`BENCH_RESULT ${JSON.stringify(result)}\n`);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

// Last in the file: everything above must be initialised before it runs.
await main();
process.exit(0);
