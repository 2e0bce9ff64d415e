/**
 * `npm run bench`: run_command against Pi's bash tool, a naive spawn and the raw limit. Throughput, host
 * memory, per-command overhead, kill latency and trimming, each measured in a fresh worker process per
 * contender and run, contenders alternating run by run. See bench/README.md.
 *
 * This file runs directly on Node 22 (type stripping), so it imports only node: modules and types. The
 * worker imports src/, whose extensionless imports and parameter properties Node cannot run as .ts: it
 * is bundled first with Vite (a devDependency already, and the same bundler electron-vite builds the app's
 * main process with), deps left external, so the measured code is the code the app ships.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import type { ContenderId } from "./contenders";
import type {
  KillResult,
  MemoryRunResult,
  OneHostResult,
  OutputRunResult,
  OverheadResult,
  WorkerTask,
} from "./run-command.worker";

const MIB = 1024 * 1024;
const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, "..");
// One folder per checkout: worktrees share node_modules, and two of them benching at once must not run
// each other's bundle.
const checkout = createHash("sha256").update(repo).digest("hex").slice(0, 8);
const buildDir = join(repo, "node_modules", ".cache", `pi-desk-bench-${checkout}`);
const ALL: ContenderId[] = ["a", "s", "u", "b", "c", "d"];
const NAMES: Record<ContenderId, string> = {
  a: "(a) run_command",
  s: "(s) sandboxed",
  u: "(u) no limits",
  b: "(b) Pi bash",
  c: "(c) naive",
  d: "(d) raw",
};
/** run_command's default budget for a saved output (DEFAULT_OUTPUT_BUDGET_BYTES). */
const OUTPUT_BUDGET = 256 * MIB;
/** Pi's DEFAULT_MAX_BYTES: the most of the output the model may be shown. */
const MODEL_TAIL_LIMIT = 51_200;

const { values: args } = parseArgs({
  options: {
    rounds: { type: "string", default: "3" },
    calls: { type: "string", default: "200" },
    "kill-runs": { type: "string", default: "20" },
    phases: { type: "string", default: "output,memory,overhead,one-host,kill,changes,network,chats" },
    "changes-iterations": { type: "string", default: "40" },
    "network-rounds": { type: "string", default: "5" },
    "chats-rounds": { type: "string", default: "3" },
    contenders: { type: "string", default: ALL.join(",") },
    "cpu-prof": { type: "string" },
    "worker-flags": { type: "string", default: "" },
    "one-host-gap-ms": { type: "string", default: "0" },
    // A/A control for the limits' ratio: (a) runs with resource limits off too, so a/u is two identical
    // contenders and shows how far the ratio moves by the machine's noise alone in this run.
    "aa-control": { type: "boolean", default: false },
    out: { type: "string", default: join(here, "results", "run-command.json") },
  },
});
const rounds = Number(args.rounds);
const calls = Number(args.calls);
const killRuns = Number(args["kill-runs"]);
const phases = new Set(args.phases.split(","));
const contenders = args.contenders.split(",") as ContenderId[];
/** (u) differs from (a) only in each command's cgroup: it is measured per command (overhead, one host), not in the big runs. */
const bigOutputContenders = contenders.filter((id) => id !== "u");
const KILL_ROUNDS = 4;
/** A process still alive this long after the abort is a survivor (the kill does not get to it at all). */
const KILL_DEADLINE_MS = 500;

// The change engine's phase: what recording a command's changes costs against the command alone. It is
// bench/changes.bench.ts in its own process (its own generated workspaces and results file), so
// `npm run bench -- --phases changes` and `npm run bench:changes` measure the same thing.
if (phases.delete("changes")) await runChangesPhase();
// The allowed-hosts proxy's phase: a download through it against the same with the network fully on, in
// bubblewrap; bench/network.bench.ts in its own process and results file, like the changes phase.
if (phases.delete("network")) await runPhase("network.bench.ts", ["--rounds", args["network-rounds"]]);
// Many chats at once against one (issue 32): bench/chats.bench.ts drives the built browser host, which it builds.
if (phases.delete("chats")) await runPhase("chats.bench.ts", ["--rounds", args["chats-rounds"]]);
// A new worktree chat, ready with recording on, against `git worktree add` alone (issue 33): its own process
// and results file, like the two above; not in the default phases (it writes and commits 100,000 files).
if (phases.delete("worktree")) await runPhase("worktree.bench.ts", []);
// The composer's @ finder on the 300,000-file tree (issue 38): its own process and results file; not in the
// default phases (it writes half a million files once, kept for the next run).
if (phases.delete("finder")) await runPhase("file-finder.bench.ts", []);
if (phases.size === 0) process.exit(0);

await buildWorker();
const tmpRoot = mkdtempSync(join(tmpdir(), "pi-desk-bench-"));
const began = performance.now();
const loadAtStart = loadavg();
const raw: Record<string, Record<ContenderId, unknown[]>> = {};
const record = (key: string, id: ContenderId, value: unknown) => {
  raw[key] ??= { a: [], s: [], u: [], b: [], c: [], d: [] };
  raw[key][id].push(value);
};

try {
  if (phases.has("output")) {
    for (let round = 0; round < rounds; round++) {
      for (const size of [32, 256]) {
        for (const id of rotate(bigOutputContenders, round)) {
          const result = await runWorker<OutputRunResult>({
            kind: "output",
            contender: id,
            bytes: size * MIB,
          });
          record(`output${size}`, id, result);
          log(
            `output ${size} MiB ${NAMES[id]}: ${(result.wallMs / 1000).toFixed(2)} s, peak ${mib(result.peakRssBytes)} MiB`,
          );
        }
      }
    }
  }
  if (phases.has("memory")) {
    for (let round = 0; round < rounds; round++) {
      for (const id of rotate(bigOutputContenders, round)) {
        const result = await runWorker<MemoryRunResult>({ kind: "memory", contender: id, bytes: 256 * MIB });
        record("memory", id, result);
        log(
          `memory 256 MiB ${NAMES[id]}: +${mib(result.peakRssBytes - result.rssBeforeBytes)} MiB (${result.peakSource}), ${(result.wallMs / 1000).toFixed(2)} s`,
        );
      }
    }
  }
  if (phases.has("overhead")) {
    for (let round = 0; round < rounds; round++) {
      for (const id of rotate(contenders, round)) {
        const result = await runWorker<OverheadResult>({ kind: "overhead", contender: id, calls });
        record("overhead", id, result);
        log(`overhead ${NAMES[id]}: mean ${mean(result.callMs).toFixed(2)} ms`);
      }
    }
  }
  if (phases.has("one-host")) {
    // Only the tools the app holds together: run_command and Pi's bash tool (the others are anchors), and
    // run_command without limits, so the limits' cost per command is measured in the same process.
    const together = contenders.filter((id) => id === "a" || id === "b" || id === "u");
    for (let round = 0; round < rounds; round++) {
      const task: WorkerTask = {
        kind: "one-host",
        contender: together[0] ?? "a",
        contenders: together,
        calls,
        gapMs: Number(args["one-host-gap-ms"]),
      };
      const result = await runWorker<OneHostResult>(task);
      for (const id of together) record("oneHost", id, result.callMs[id] ?? []);
      log(
        `one host: ${together.map((id) => `${NAMES[id]} mean ${mean(result.callMs[id] ?? []).toFixed(2)} ms`).join(", ")}`,
      );
    }
  }
  if (phases.has("kill")) {
    const perRound = Math.ceil(killRuns / KILL_ROUNDS);
    for (let round = 0; round < KILL_ROUNDS; round++) {
      // Not (s): its pids are the sandbox's PID namespace's, which this watch cannot see from outside.
      for (const id of rotate(bigOutputContenders, round).filter((id) => id !== "s")) {
        const task: WorkerTask = {
          kind: "kill",
          contender: id,
          runs: perRound,
          deadlineMs: KILL_DEADLINE_MS,
        };
        const result = await runWorker<KillResult>(task);
        record("kill", id, result);
        log(
          `kill ${NAMES[id]}: ${result.runs.map((r) => (r.latencyMs === null ? `${r.survivors} left` : r.latencyMs.toFixed(0))).join(" ")}`,
        );
      }
    }
  }
} finally {
  rmSync(tmpRoot, { recursive: true, force: true });
}

const summary = summarize();
const table = renderTable(summary);
const targets = checkTargets(summary);
if (args["aa-control"])
  console.log("\nA/A control: (a) ran with resource limits off, as (u); a/u is the noise floor.");
console.log(`\n${table}\n`);
for (const t of targets) console.log(`${t.met ? "MET   " : "MISSED"} ${t.target}: ${t.measured}`);
mkdirSync(dirname(args.out), { recursive: true });
writeFileSync(
  args.out,
  `${JSON.stringify(
    {
      date: new Date().toISOString(),
      node: process.version,
      cpus: cpus().length,
      cpuModel: cpus()[0]?.model,
      settings: {
        rounds,
        calls,
        killRuns,
        killDeadlineMs: KILL_DEADLINE_MS,
        contenders,
        phases: [...phases],
        workerFlags: args["worker-flags"],
        aaControl: args["aa-control"],
      },
      loadAverage: { start: loadAtStart, end: loadavg() },
      durationSeconds: Math.round((performance.now() - began) / 1000),
      summary,
      targets,
      table,
      raw,
    },
    null,
    2,
  )}\n`,
);
const load = (l: number[]) => l.map((x) => x.toFixed(2)).join(" ");
console.log(
  `\nwrote ${args.out} (${Math.round((performance.now() - began) / 1000)} s; load average ${load(loadAtStart)} at the start, ${load(loadavg())} at the end)`,
);

/** Runs bench/changes.bench.ts with this process's Node, its output passed through. */
async function runChangesPhase(): Promise<void> {
  await runPhase("changes.bench.ts", ["--iterations", args["changes-iterations"]]);
}

/** Runs a phase that is a bench file of its own, with this process's Node, its output passed through. */
async function runPhase(file: string, flags: string[]): Promise<void> {
  const child = spawn(process.execPath, [join(here, file), ...flags], { stdio: "inherit" });
  const code = await new Promise<number | null>((done) => child.on("close", done));
  if (code !== 0) throw new Error(`The ${file} phase failed (exit ${code}).`);
}

/** Bundles the worker and its src/ imports into node_modules/.cache, dependencies external. */
async function buildWorker(): Promise<void> {
  const { build } = await import("vite");
  await build({
    configFile: false,
    root: repo,
    logLevel: "warn",
    build: {
      ssr: join(here, "run-command.worker.ts"),
      outDir: buildDir,
      emptyOutDir: true,
      target: "node22",
      minify: false,
      sourcemap: true,
      rolldownOptions: {
        output: { format: "esm", entryFileNames: "[name].mjs", chunkFileNames: "[name].mjs" },
      },
    },
  });
}

function rotate<T>(items: T[], by: number): T[] {
  const k = by % items.length;
  return [...items.slice(k), ...items.slice(0, k)];
}

function log(line: string): void {
  console.log(`[${Math.round((performance.now() - began) / 1000)}s] ${line}`);
}

/** Runs one task in a fresh Node process (this same Node 22); its last `BENCH_RESULT` line is the result. */
async function runWorker<T>(task: WorkerTask): Promise<T> {
  const nodeArgs = ["--enable-source-maps", ...args["worker-flags"].split(" ").filter(Boolean)];
  // The worker profiles only its measured part (see startProfiler in the worker).
  const profile = args["cpu-prof"] ? { BENCH_CPU_PROF_DIR: resolve(args["cpu-prof"]) } : {};
  const workerTmp = mkdtempSync(join(tmpRoot, "w-"));
  const child: ChildProcess = spawn(
    process.execPath,
    [...nodeArgs, join(buildDir, "run-command.worker.mjs"), JSON.stringify(task)],
    // TMPDIR: Pi's bash tool writes its full-output files to os.tmpdir(); they land here and are removed.
    // SHLVL as a terminal has it: bash started with a socket on stdin (the naive spawn's) and SHLVL 0 takes
    // itself for an ssh session and sources ~/.bashrc on every command (measured: 0.6 s each here, where a
    // harness started npm with SHLVL=0). That is the runner's quirk, not the contender's cost.
    {
      stdio: ["ignore", "pipe", "inherit"],
      env: {
        ...process.env,
        ...profile,
        ...(args["aa-control"] ? { BENCH_AA_CONTROL: "1" } : {}),
        TMPDIR: workerTmp,
        PI_OFFLINE: "1",
        SHLVL: shellLevel(),
      },
    },
  );
  let stdout = "";
  child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
    stdout += chunk;
  });
  const timer = setTimeout(() => child.kill("SIGKILL"), 300_000);
  const code = await new Promise<number | null>((done) => child.once("close", done));
  clearTimeout(timer);
  rmSync(workerTmp, { recursive: true, force: true });
  const line = stdout.split("\n").find((l) => l.startsWith("BENCH_RESULT "));
  if (!line) throw new Error(`worker ${JSON.stringify(task)} exited ${code} without a result:\n${stdout}`);
  return JSON.parse(line.slice("BENCH_RESULT ".length)) as T;
}

function median(values: number[]): number {
  const sorted = [...values].sort((x, y) => x - y);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? (sorted[mid] ?? Number.NaN) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

function mean(values: number[]): number {
  return values.reduce((s, v) => s + v, 0) / values.length;
}

/** The caller's SHLVL, at least 1 (what a shell started from a terminal would see). */
function shellLevel(): string {
  return String(Math.max(1, Number(process.env.SHLVL) || 0));
}

/** Nearest-rank percentile; `Infinity` entries (runs with survivors) sort last. */
function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((x, y) => x - y);
  return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}

function mib(bytes: number): string {
  return (bytes / MIB).toFixed(1);
}

/** Per contender, the medians the table shows. */
interface ContenderSummary {
  wall256Ms?: number;
  wall32Ms?: number;
  cpu256Ms?: number;
  throughputMiBs?: number;
  peakRss256MiB?: number;
  peakRss32MiB?: number;
  growthMiB?: number;
  callPeakMiB?: number;
  callBuffersMiB?: number;
  callHeapMiB?: number;
  callWallMs?: number;
  callCpuMs?: number;
  overheadMeanMs?: number;
  overheadP95Ms?: number;
  overheadCpuMs?: number;
  oneHostMeanMs?: number;
  oneHostP95Ms?: number;
  killP50Ms?: number;
  killP95Ms?: number;
  killRuns?: number;
  killSurvivors?: number;
  killRunsWithSurvivors?: number;
  modelTextBytes?: number | null;
  modelTailBytes?: number | null;
  endsWithLastLine?: string;
  fullOutputExact?: string;
  fullOutputInBudget?: string;
}

function summarize(): Record<ContenderId, ContenderSummary> {
  const out = {} as Record<ContenderId, ContenderSummary>;
  for (const id of contenders) {
    const s: ContenderSummary = {};
    const o256 = (raw.output256?.[id] ?? []) as OutputRunResult[];
    const o32 = (raw.output32?.[id] ?? []) as OutputRunResult[];
    if (o256.length > 0 && o32.length > 0) {
      s.wall256Ms = median(o256.map((r) => r.wallMs));
      s.wall32Ms = median(o32.map((r) => r.wallMs));
      s.cpu256Ms = median(o256.map((r) => r.cpuMs));
      s.throughputMiBs = 256 / (s.wall256Ms / 1000);
      s.peakRss256MiB = median(o256.map((r) => r.peakRssBytes)) / MIB;
      s.peakRss32MiB = median(o32.map((r) => r.peakRssBytes)) / MIB;
      s.growthMiB = s.peakRss256MiB - s.peakRss32MiB;
      const texts = o256.map((r) => r.modelTextBytes);
      s.modelTextBytes = texts[0] === null ? null : median(texts as number[]);
      const tails = o256.map((r) => r.modelTailBytes);
      s.modelTailBytes = tails[0] === null ? null : median(tails as number[]);
      const ends = o256.map((r) => r.endsWithLastLine);
      s.endsWithLastLine = ends[0] === null ? "n/a" : `${ends.filter(Boolean).length}/${ends.length}`;
      // 32 MiB is under the 256 MiB budget for saved output: every byte is owed. 256 MiB of `a` plus
      // fold's newlines is over it: the file keeps the first and last parts, within the budget.
      s.fullOutputExact =
        o32[0]?.fullOutputBytes === null
          ? "no file"
          : `${o32.filter((r) => r.fullOutputBytes === r.expectedBytes).length}/${o32.length}`;
      s.fullOutputInBudget =
        o256[0]?.fullOutputBytes === null
          ? "no file"
          : `${o256.filter((r) => (r.fullOutputBytes ?? Number.POSITIVE_INFINITY) <= OUTPUT_BUDGET).length}/${o256.length}`;
    }
    const memory = (raw.memory?.[id] ?? []) as MemoryRunResult[];
    if (memory.length > 0) {
      s.callPeakMiB = median(memory.map((r) => r.peakRssBytes - r.rssBeforeBytes)) / MIB;
      s.callBuffersMiB = median(memory.map((r) => r.arrayBuffersGrowthBytes)) / MIB;
      s.callHeapMiB = median(memory.map((r) => r.heapUsedGrowthBytes)) / MIB;
      s.callWallMs = median(memory.map((r) => r.wallMs));
      s.callCpuMs = median(memory.map((r) => r.cpuMs));
    }
    const overhead = (raw.overhead?.[id] ?? []) as OverheadResult[];
    if (overhead.length > 0) {
      s.overheadMeanMs = median(overhead.map((r) => mean(r.callMs)));
      s.overheadP95Ms = median(overhead.map((r) => percentile(r.callMs, 95)));
      s.overheadCpuMs = median(overhead.map((r) => r.cpuMs / r.callMs.length));
    }
    // Medians over the rounds of each round's mean (or p95) per command.
    const oneHost = (raw.oneHost?.[id] ?? []) as number[][];
    if (oneHost.length > 0) {
      s.oneHostMeanMs = median(oneHost.map((callMs) => mean(callMs)));
      s.oneHostP95Ms = median(oneHost.map((callMs) => percentile(callMs, 95)));
    }
    const kills = ((raw.kill?.[id] ?? []) as KillResult[]).flatMap((r) => r.runs);
    if (kills.length > 0) {
      const latencies = kills.map((r) => r.latencyMs ?? Number.POSITIVE_INFINITY);
      s.killP50Ms = percentile(latencies, 50);
      s.killP95Ms = percentile(latencies, 95);
      s.killRuns = kills.length;
      s.killSurvivors = kills.reduce((n, r) => n + r.survivors, 0);
      s.killRunsWithSurvivors = kills.filter((r) => r.survivors > 0).length;
    }
    out[id] = s;
  }
  return out;
}

type Row = { label: string; key: keyof ContenderSummary; fmt: (v: number) => string; ratio: boolean };

function renderTable(summary: Record<ContenderId, ContenderSummary>): string {
  const num = (digits: number) => (v: number) =>
    Number.isFinite(v) ? v.toFixed(digits) : `>${KILL_DEADLINE_MS}`;
  const rows: Row[] = [
    { label: "256 MiB wall time (s)", key: "wall256Ms", fmt: (v) => (v / 1000).toFixed(2), ratio: true },
    { label: "256 MiB throughput (MiB/s)", key: "throughputMiBs", fmt: num(0), ratio: false },
    { label: "256 MiB host CPU time (s)", key: "cpu256Ms", fmt: (v) => (v / 1000).toFixed(2), ratio: true },
    { label: "32 MiB wall time (s)", key: "wall32Ms", fmt: (v) => (v / 1000).toFixed(2), ratio: true },
    { label: "peak RSS, 256 MiB run (MiB)", key: "peakRss256MiB", fmt: num(1), ratio: true },
    { label: "peak RSS, 32 MiB run (MiB)", key: "peakRss32MiB", fmt: num(1), ratio: true },
    { label: "RSS growth 32->256 MiB (MiB)", key: "growthMiB", fmt: num(1), ratio: false },
    { label: "one 256 MiB call: peak - before (MiB)", key: "callPeakMiB", fmt: num(1), ratio: true },
    { label: "  of it Buffers, peak growth (MiB)", key: "callBuffersMiB", fmt: num(1), ratio: true },
    { label: "  V8 heap used, peak growth (MiB)", key: "callHeapMiB", fmt: num(1), ratio: true },
    {
      label: "one 256 MiB call: wall time (s)",
      key: "callWallMs",
      fmt: (v) => (v / 1000).toFixed(2),
      ratio: true,
    },
    {
      label: "one 256 MiB call: host CPU (s)",
      key: "callCpuMs",
      fmt: (v) => (v / 1000).toFixed(2),
      ratio: true,
    },
    { label: "per command, mean (ms)", key: "overheadMeanMs", fmt: num(2), ratio: true },
    { label: "per command, p95 (ms)", key: "overheadP95Ms", fmt: num(2), ratio: true },
    { label: "per command, host CPU (ms)", key: "overheadCpuMs", fmt: num(2), ratio: true },
    { label: "per command in one host, mean (ms)", key: "oneHostMeanMs", fmt: num(2), ratio: true },
    { label: "per command in one host, p95 (ms)", key: "oneHostP95Ms", fmt: num(2), ratio: true },
    { label: "kill, p50 (ms)", key: "killP50Ms", fmt: num(1), ratio: true },
    { label: "kill, p95 (ms)", key: "killP95Ms", fmt: num(1), ratio: true },
    { label: "kill, survivors (processes)", key: "killSurvivors", fmt: num(0), ratio: false },
    { label: "kill, runs with survivors", key: "killRunsWithSurvivors", fmt: num(0), ratio: false },
    { label: "model text, bytes (tail+note)", key: "modelTextBytes", fmt: num(0), ratio: false },
    { label: "model text, tail bytes", key: "modelTailBytes", fmt: num(0), ratio: false },
  ];
  const textRows: { label: string; key: "endsWithLastLine" | "fullOutputExact" | "fullOutputInBudget" }[] = [
    { label: "tail ends with the last line", key: "endsWithLastLine" },
    { label: "full-output file exact, 32 MiB", key: "fullOutputExact" },
    { label: "full-output file <= budget, 256 MiB", key: "fullOutputInBudget" },
  ];
  const ratioCols = contenders.includes("d")
    ? contenders.filter((id) => id !== "d").map((id) => ({ head: `${id}/d`, x: id, y: "d" as ContenderId }))
    : [];
  if (contenders.includes("a") && contenders.includes("b")) ratioCols.push({ head: "a/b", x: "a", y: "b" });
  if (contenders.includes("s") && contenders.includes("a")) ratioCols.push({ head: "s/a", x: "s", y: "a" });
  if (contenders.includes("u") && contenders.includes("a")) ratioCols.push({ head: "a/u", x: "a", y: "u" });
  const header = ["", ...contenders.map((id) => NAMES[id]), ...ratioCols.map((c) => c.head)];
  const lines: string[][] = [header];
  for (const row of rows) {
    const cells = contenders.map((id) => {
      const v = summary[id]?.[row.key];
      return typeof v === "number" ? row.fmt(v) : "-";
    });
    const ratios = ratioCols.map(({ x, y }) => {
      const vx = summary[x]?.[row.key];
      const vy = summary[y]?.[row.key];
      if (!row.ratio || typeof vx !== "number" || typeof vy !== "number") return "";
      if (!Number.isFinite(vx) || !Number.isFinite(vy) || vy === 0) return "-";
      return `${(vx / vy).toFixed(2)}x`;
    });
    lines.push([row.label, ...cells, ...ratios]);
  }
  for (const row of textRows) {
    lines.push([
      row.label,
      ...contenders.map((id) => summary[id]?.[row.key] ?? "-"),
      ...ratioCols.map(() => ""),
    ]);
  }
  const widths = header.map((_, i) => Math.max(...lines.map((l) => (l[i] ?? "").length)));
  const body = lines
    .map((l) =>
      l.map((cell, i) => (i === 0 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0))).join("  "),
    )
    .join("\n");
  return (
    `${body}\n\nMedians over runs; ratios x/y of the medians (for time and memory, lower is better). Kill ` +
    `>${KILL_DEADLINE_MS}: processes were still alive ${KILL_DEADLINE_MS} ms after the abort (survivors).`
  );
}

/** The issue's targets for run_command, each with what was measured. */
function checkTargets(summary: Record<ContenderId, ContenderSummary>) {
  const a = summary.a ?? {};
  const b = summary.b ?? {};
  const d = summary.d ?? {};
  const ratio = (x?: number, y?: number) => (x !== undefined && y !== undefined ? x / y : Number.NaN);
  const targets: { target: string; met: boolean; measured: string }[] = [];
  if (a.wall256Ms !== undefined) {
    const ad = ratio(a.wall256Ms, d.wall256Ms);
    const ab = ratio(a.wall256Ms, b.wall256Ms);
    // A ratio target is checked only when both of its contenders ran.
    if (!Number.isNaN(ad)) {
      targets.push({
        target: "throughput of (a) within 1.25x of (d)",
        met: ad <= 1.25,
        measured: `${ad.toFixed(2)}x`,
      });
    }
    if (!Number.isNaN(ab)) {
      targets.push({
        target: "throughput of (a) no slower than (b)",
        met: ab <= 1,
        measured: `${ab.toFixed(2)}x`,
      });
    }
    targets.push({
      target: "host memory growth 32->256 MiB under 32 MiB",
      met: (a.growthMiB ?? Number.POSITIVE_INFINITY) < 32,
      measured: `${a.growthMiB?.toFixed(1)} MiB`,
    });
    targets.push({
      target: `model-facing tail at most ${MODEL_TAIL_LIMIT} bytes, ends with the last line`,
      met:
        (a.modelTailBytes ?? Number.POSITIVE_INFINITY) <= MODEL_TAIL_LIMIT &&
        /^(\d+)\/\1$/.test(a.endsWithLastLine ?? ""),
      measured: `${a.modelTailBytes} bytes (${a.modelTextBytes} with the note), last line ${a.endsWithLastLine}`,
    });
    targets.push({
      target:
        "full-output file has every byte under the budget (32 MiB), at most the budget over it (256 MiB)",
      met: /^(\d+)\/\1$/.test(a.fullOutputExact ?? "") && /^(\d+)\/\1$/.test(a.fullOutputInBudget ?? ""),
      measured: `${a.fullOutputExact} runs exact, ${a.fullOutputInBudget} within the budget`,
    });
  }
  if (a.callPeakMiB !== undefined && b.callPeakMiB !== undefined) {
    targets.push({
      target: "memory of one 256 MiB call: (a) no more than (b)",
      met: a.callPeakMiB <= b.callPeakMiB,
      measured: `${a.callPeakMiB.toFixed(1)} MiB vs ${b.callPeakMiB.toFixed(1)} MiB (${ratio(a.callPeakMiB, b.callPeakMiB).toFixed(2)}x)`,
    });
    if (a.callWallMs !== undefined && b.callWallMs !== undefined) {
      targets.push({
        target: "same call: (a) no slower than (b)",
        met: a.callWallMs <= b.callWallMs,
        measured: `${ratio(a.callWallMs, b.callWallMs).toFixed(2)}x`,
      });
    }
  }
  if (a.overheadMeanMs !== undefined && b.overheadMeanMs !== undefined) {
    const ab = ratio(a.overheadMeanMs, b.overheadMeanMs);
    targets.push({
      target: "per-command overhead of (a) within 1.2x of (b)",
      met: ab <= 1.2,
      measured: `${ab.toFixed(2)}x`,
    });
  }
  if (a.oneHostMeanMs !== undefined && b.oneHostMeanMs !== undefined) {
    const ab = ratio(a.oneHostMeanMs, b.oneHostMeanMs);
    targets.push({
      target: "per command, both tools in one host process (as in the app): (a) no more than (b)",
      met: ab <= 1,
      measured: `${ab.toFixed(2)}x`,
    });
  }
  const u = summary.u ?? {};
  // The limits' cost: (a) is (u) with each command in a cgroup of its own; in one host where measured so.
  const limitsOn = a.oneHostMeanMs ?? a.overheadMeanMs;
  const limitsOff = a.oneHostMeanMs !== undefined ? u.oneHostMeanMs : u.overheadMeanMs;
  if (limitsOn !== undefined && limitsOff !== undefined) {
    targets.push({
      target: `per command with resource limits (a) at most 1.1x without (u)${a.oneHostMeanMs !== undefined ? ", in one host" : ""}`,
      met: ratio(limitsOn, limitsOff) <= 1.1,
      measured: `${ratio(limitsOn, limitsOff).toFixed(2)}x (${limitsOn.toFixed(2)} against ${limitsOff.toFixed(2)} ms)`,
    });
  }
  // The issue's own figure is the overhead phase (each in its own process): reported too when both ran.
  if (a.oneHostMeanMs !== undefined && a.overheadMeanMs !== undefined && u.overheadMeanMs !== undefined) {
    const phase = ratio(a.overheadMeanMs, u.overheadMeanMs);
    targets.push({
      target: "per command with resource limits (a) at most 1.1x without (u), overhead phase",
      met: phase <= 1.1,
      measured: `${phase.toFixed(2)}x (${a.overheadMeanMs.toFixed(2)} against ${u.overheadMeanMs.toFixed(2)} ms)`,
    });
  }
  if (a.killRuns !== undefined) {
    targets.push({
      target: "kill: zero survivors in every run",
      met: a.killSurvivors === 0,
      measured: `${a.killSurvivors} survivors in ${a.killRuns} runs`,
    });
    targets.push({
      target: "kill: p95 under 100 ms",
      met: (a.killP95Ms ?? Number.POSITIVE_INFINITY) < 100,
      measured: `${a.killP95Ms?.toFixed(1)} ms`,
    });
  }
  return targets;
}
