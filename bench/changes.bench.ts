/**
 * `npm run bench:changes`: what recording a command's changes costs. On a generated workspace (20,000
 * files / 200 MiB, and 100 files), a command that changes one file runs N times with recording
 * (`before` + command + `after`, the change set and summary included) and N times without, alternating;
 * the table gives p50 and p95 of each, of the recording alone, and their ratio. `--sizes huge` runs the
 * big-repository phase instead (300,000 files, 3 GB: see changes-huge.ts); `--sizes rewind` the rewind of
 * 20 commands against git stash (see changes-rewind.ts). See bench/README.md.
 *
 * Runs directly on Node 22 (type stripping). src/ has extensionless imports Node cannot run as .ts, so
 * src/main/changes is bundled first with Vite (as the app's main process is), then imported.
 */
import { execFile, execFileSync } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import type * as Changes from "../src/main/changes/index.ts";
import type * as ShadowRepoModule from "../src/main/changes/shadow-repo.ts";
import type * as SnapshotterModule from "../src/main/changes/snapshot.ts";
import type * as StoredObjectsModule from "../src/main/changes/stored-objects.ts";
import { measureHuge } from "./changes-huge.ts";
import { measureRewind } from "./changes-rewind.ts";

type SnapshotModule = typeof SnapshotterModule & typeof StoredObjectsModule & typeof ShadowRepoModule;

const MIB = 1024 * 1024;
const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, "..");
// Per checkout: worktrees share node_modules, and two benches building into one folder would mix builds.
const buildDir = join(
  repo,
  "node_modules",
  ".cache",
  `pi-desk-bench-changes-${createHash("sha256").update(repo).digest("hex").slice(0, 12)}`,
);

const { values: args } = parseArgs({
  options: {
    sizes: { type: "string", default: "big,small" },
    iterations: { type: "string", default: "40" },
    "big-files": { type: "string", default: "20000" },
    "big-mib": { type: "string", default: "200" },
    "huge-dir": { type: "string", default: join(tmpdir(), "pi-desk-bench-huge") },
    "keep-huge": { type: "boolean", default: false },
    "huge-iterations": { type: "string", default: "40" },
    "full-scan-iterations": { type: "string", default: "10" },
    /** Another size for the huge tree (files; folders of 10, 10 KB a file, two thirds as many ignored). */
    "huge-files": { type: "string" },
    /** Rounds of the huge phase's first snapshot against git, alternating (ratio of medians). */
    "first-rounds": { type: "string", default: "3" },
    /** Only the huge phase's first-snapshot rounds (no reopen, no per-command phases). */
    "first-only": { type: "boolean", default: false },
    /** The rewind phase (`--sizes rewind`): the tree's files, and rounds of rewind against git stash. */
    "rewind-files": { type: "string", default: "100000" },
    "rewind-rounds": { type: "string", default: "3" },
    out: { type: "string" },
  },
});
const iterations = Number(args.iterations);
const WORKSPACES: Record<string, { files: number; bytes: number; target: number }> = {
  big: { files: Number(args["big-files"]), bytes: Number(args["big-mib"]) * MIB, target: 150 },
  small: { files: 100, bytes: 400 * 1024, target: 20 },
};

const { engine, snapshotModule } = await bundle();
const tmpRoot = mkdtempSync(join(tmpdir(), "pi-desk-bench-changes-"));
const loadAtStart = loadavg();
const results: Record<string, unknown> = {};
try {
  for (const size of args.sizes.split(",")) {
    if (size === "huge") {
      results.huge = await measureHuge(engine, args["huge-dir"], {
        iterations: Number(args["huge-iterations"]),
        fullScanIterations: Number(args["full-scan-iterations"]),
        keep: args["keep-huge"],
        firstRounds: Number(args["first-rounds"]),
        firstOnly: args["first-only"],
        ...(args["huge-files"] ? { files: Number(args["huge-files"]) } : {}),
      });
      continue;
    }
    if (size === "rewind") {
      results.rewind = await measureRewind(engine, tmpRoot, {
        files: Number(args["rewind-files"]),
        rounds: Number(args["rewind-rounds"]),
        log,
      });
      continue;
    }
    const spec = WORKSPACES[size];
    if (!spec) throw new Error(`Unknown size ${size}: big, small or huge.`);
    results[size] = await measure(size, spec);
  }
} finally {
  rmSync(tmpRoot, { recursive: true, force: true });
}
const out =
  args.out ??
  join(
    here,
    "results",
    args.sizes === "huge" || args.sizes === "rewind" ? `changes-${args.sizes}.json` : "changes.json",
  );
mkdirSync(dirname(out), { recursive: true });
const summary = {
  machine: {
    cpus: cpus().length,
    model: cpus()[0]?.model,
    git: execFileSync("git", ["--version"]).toString().trim(),
  },
  loadAverage: { start: loadAtStart, end: loadavg() },
  iterations,
  results,
};
writeFileSync(out, `${JSON.stringify(summary, null, 2)}\n`);
console.log(
  `\nwrote ${out} (load average ${fmtLoad(loadAtStart)} at the start, ${fmtLoad(loadavg())} at the end)`,
);

async function measure(size: string, spec: { files: number; bytes: number; target: number }) {
  const root = mkdtempSync(join(tmpRoot, `${size}-`));
  const workspace = join(root, "workspace");
  let began = performance.now();
  generate(workspace, spec.files, spec.bytes);
  log(`${size}: generated ${spec.files} files, ${spec.bytes / MIB} MiB in ${secs(began)} s`);
  const recorder = await engine.ChangeRecorder.open({ workspace, dataDir: join(root, "changes") });
  began = performance.now();
  const state = await recorder.prepare();
  if (state.type === "off") throw new Error(state.reason);
  const firstSnapshotMs = performance.now() - began;
  const storedBytes = await recorder.usage();
  log(
    `${size}: first snapshot ${Math.round(firstSnapshotMs)} ms, shadow repository ${(storedBytes / MIB).toFixed(1)} MiB`,
  );

  // The command: a real process that appends a line to one file, as an agent's edit would. Without
  // recording it appends to an ignored file instead: the same work, but no change for the next
  // recorded command's before-scan to find (commands back to back, nobody editing in between).
  const tracked = join(workspace, "src", "d000", "f00007.txt");
  const ignored = join(workspace, "bench.log");
  const append = (file: string, i: number) => run("/bin/sh", ["-c", `echo "line ${i}" >> "${file}"`]);
  const command = (i: number) => append(tracked, i);
  for (let i = 0; i < 3; i++) await recorded(recorder, `warm-${i}`, () => command(i)); // warm-up, not measured
  const plain: number[] = [];
  const withRecording: number[] = [];
  const recording: number[] = [];
  const before: number[] = [];
  const after: number[] = [];
  for (let i = 0; i < iterations; i++) {
    // Alternate which goes first, so the machine's background load falls on both alike.
    const order = i % 2 === 0 ? ["plain", "recorded"] : ["recorded", "plain"];
    for (const kind of order) {
      if (kind === "plain") {
        const start = performance.now();
        await append(ignored, i);
        plain.push(performance.now() - start);
      } else {
        const t = await recorded(recorder, `c${i}`, () => command(i));
        withRecording.push(t.total);
        recording.push(t.before + t.after);
        before.push(t.before);
        after.push(t.after);
      }
    }
  }
  // CPU per command, which machine load does not inflate the way it does wall time: this process's
  // own CPU plus its finished children's (git, sh), from /proc/self/stat, over back-to-back batches.
  const cpuPerCommand = async (batch: (i: number) => Promise<void>) => {
    const start = cpuTicks();
    for (let i = 0; i < iterations; i++) await batch(i);
    await recorder.close(); // the deferred tree write of the last command counts too
    return Number((((cpuTicks() - start) * 10) / iterations).toFixed(1)); // ticks are 10 ms
  };
  const cpuRecorded = await cpuPerCommand((i) =>
    recorded(recorder, `cpu${i}`, () => command(i)).then(() => {}),
  );
  const cpuPlain = await cpuPerCommand((i) => append(ignored, i));
  const scan = await scanCosts(join(root, "changes"), workspace);
  const floor: number[] = [];
  for (let i = 0; i < 20; i++) {
    const start = performance.now();
    await run("git", ["--version"]);
    floor.push(performance.now() - start);
  }
  await recorder.close();
  rmSync(root, { recursive: true, force: true });
  const row = {
    files: spec.files,
    mib: spec.bytes / MIB,
    firstSnapshotMs: Math.round(firstSnapshotMs),
    shadowMiB: Number((storedBytes / MIB).toFixed(1)),
    plain: stats(plain),
    withRecording: stats(withRecording),
    recording: stats(recording),
    before: stats(before),
    after: stats(after),
    ratioP50: Number((stats(withRecording).p50 / stats(plain).p50).toFixed(1)),
    targetP50Ms: spec.target,
    met: stats(recording).p50 < spec.target,
    gitStartMs: stats(floor),
    cpuMsPerCommand: {
      plain: cpuPlain,
      recorded: cpuRecorded,
      recording: Number((cpuRecorded - cpuPlain).toFixed(1)),
    },
    scan,
  };
  print(size, row);
  return { ...row, raw: { plain, withRecording, before, after } };
}

/** before + command + after, each timed; `after` includes the change set and the model's summary. */
async function recorded(recorder: Changes.ChangeRecorder, id: string, command: () => Promise<void>) {
  const t0 = performance.now();
  const b = await recorder.before(id);
  const t1 = performance.now();
  await command();
  const t2 = performance.now();
  const a = await recorder.after(id);
  const t3 = performance.now();
  if (!b.recorded || !a.recorded || a.changes.files.length !== 1) {
    throw new Error(`Recording went wrong: ${JSON.stringify({ b, a })}`);
  }
  return { before: t1 - t0, after: t3 - t2, total: t3 - t0 };
}

/**
 * What a scan costs when the watcher cannot narrow it (the first after an overflow or a lost watch, and
 * the idle scan after each command): the engine's full in-process scan of an unchanged workspace (a
 * second `Snapshotter` on the same shadow repository, its first scan, which hashes every file, not
 * timed), and for comparison `git ls-files -m -d -o --exclude-standard`, the scan the engine ran twice
 * per command before.
 */
async function scanCosts(dataDir: string, workspace: string) {
  const repository = await snapshotModule.ShadowRepo.open({
    workspace,
    dataDir,
    excludes: engine.DEFAULT_EXCLUDES,
  });
  const objects = new snapshotModule.StoredObjects(repository);
  const snapshotter = new snapshotModule.Snapshotter(
    workspace,
    objects,
    { maxFileBytes: engine.DEFAULT_MAX_FILE_BYTES, maxFiles: engine.DEFAULT_MAX_FILES },
    engine.DEFAULT_EXCLUDES,
    join(dataDir, "watch-bench"),
  );
  await snapshotter.scan();
  await objects.flushTrees();
  const env = {
    PATH: process.env.PATH,
    GIT_DIR: repository.gitDir,
    GIT_WORK_TREE: workspace,
    GIT_INDEX_FILE: join(dataDir, "bench-index"),
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_CONFIG_GLOBAL: "/dev/null",
    HOME: tmpRoot,
  };
  // An index of the same state with its stat data filled in, as the engine's index was.
  await run("git", ["read-tree", snapshotter.current as string], { env, cwd: workspace });
  await run("git", ["update-index", "-q", "--refresh"], { env, cwd: workspace }).catch(() => {});
  const variants: Record<string, () => Promise<unknown>> = {
    "full in-process scan (engine)": () => snapshotter.scan(undefined, true),
    "git ls-files -m -d -o (before)": () =>
      run("git", ["ls-files", "-z", "-m", "-d", "-o", "--exclude-standard"], { env, cwd: workspace }),
  };
  const out: Record<string, ReturnType<typeof stats>> = {};
  for (const [name, call] of Object.entries(variants)) {
    const times: number[] = [];
    for (let i = 0; i < Math.max(10, Math.floor(iterations / 2)) + 2; i++) {
      const start = performance.now();
      await call();
      if (i >= 2) times.push(performance.now() - start);
    }
    out[name] = stats(times);
  }
  snapshotter.close();
  return out;
}

/**
 * `files` files of about `bytes / files` each under src/dNNN/ (50 a folder): half random hex, half
 * repeated text, so they compress about as source does. Plus a .gitignore and a node_modules/ of 500
 * files the engine must skip.
 */
function generate(workspace: string, files: number, bytes: number): void {
  const each = Math.max(16, Math.floor(bytes / files));
  const text = "const value = computeSomething(input, options); // a line of ordinary source\n";
  for (let i = 0; i < files; i++) {
    const dir = join(workspace, "src", `d${String(Math.floor(i / 50)).padStart(3, "0")}`);
    if (i % 50 === 0) mkdirSync(dir, { recursive: true });
    const hex = randomBytes(Math.ceil(each / 4))
      .toString("hex")
      .slice(0, each / 2);
    const body = hex + text.repeat(Math.ceil((each - hex.length) / text.length));
    writeFileSync(join(dir, `f${String(i).padStart(5, "0")}.txt`), body.slice(0, each));
  }
  writeFileSync(join(workspace, ".gitignore"), "*.log\n");
  for (let i = 0; i < 500; i++) {
    const dir = join(workspace, "node_modules", `pkg${Math.floor(i / 20)}`);
    if (i % 20 === 0) mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, `m${i}.js`), "module.exports = 1;\n");
  }
}

/** utime + stime + cutime + cstime of this process, in clock ticks (fields 14-17 of /proc/self/stat). */
function cpuTicks(): number {
  const stat = readFileSync("/proc/self/stat", "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return [11, 12, 13, 14].reduce((sum, i) => sum + Number(fields[i]), 0);
}

function run(file: string, argv: string[], options: { env?: NodeJS.ProcessEnv; cwd?: string } = {}) {
  return new Promise<void>((done, fail) => {
    execFile(file, argv, { maxBuffer: 256 * MIB, ...options }, (error) => (error ? fail(error) : done()));
  });
}

function stats(values: number[]) {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  return { p50: Number(at(0.5).toFixed(1)), p95: Number(at(0.95).toFixed(1)), n: values.length };
}

function print(
  size: string,
  row: {
    files: number;
    mib: number;
    plain: ReturnType<typeof stats>;
    withRecording: ReturnType<typeof stats>;
    recording: ReturnType<typeof stats>;
    before: ReturnType<typeof stats>;
    after: ReturnType<typeof stats>;
    ratioP50: number;
    targetP50Ms: number;
    met: boolean;
    gitStartMs: ReturnType<typeof stats>;
    cpuMsPerCommand: { plain: number; recorded: number; recording: number };
    scan: Record<string, ReturnType<typeof stats>>;
  },
): void {
  const ms = (s: ReturnType<typeof stats>) => `p50 ${s.p50} ms, p95 ${s.p95} ms`;
  console.log(`\n${size}: ${row.files} files, ${row.mib} MiB`);
  console.log(`  command alone          ${ms(row.plain)}`);
  console.log(
    `  command + recording    ${ms(row.withRecording)}   (${row.ratioP50}x the command alone at p50)`,
  );
  console.log(`  recording (before+after) ${ms(row.recording)}`);
  console.log(`    before               ${ms(row.before)}`);
  console.log(`    after (+ change set)  ${ms(row.after)}`);
  console.log(
    `  target: recording p50 < ${row.targetP50Ms} ms: ${row.met ? "MET" : "MISSED"} (${row.recording.p50} ms)`,
  );
  console.log(
    `  one git process (git --version)  ${ms(row.gitStartMs)}: recording starts none for this command (it started 5 before the in-process engine)`,
  );
  const cpu = row.cpuMsPerCommand;
  console.log(
    `  CPU per command        ${cpu.recorded} ms recorded, ${cpu.plain} ms alone: recording ${cpu.recording} ms`,
  );
  for (const [name, s] of Object.entries(row.scan)) console.log(`  scan only: ${name.padEnd(32)} ${ms(s)}`);
}

/** The engine's public surface, and `Snapshotter` alone for the full-scan measurement. */
async function bundle(): Promise<{ engine: typeof Changes; snapshotModule: SnapshotModule }> {
  const { build } = await import("vite");
  const source = join(repo, "src", "main", "changes");
  await build({
    configFile: false,
    root: repo,
    logLevel: "warn",
    build: {
      ssr: true,
      outDir: buildDir,
      emptyOutDir: true,
      target: "node22",
      minify: false,
      rolldownOptions: {
        input: {
          changes: join(source, "index.ts"),
          snapshot: join(source, "snapshot.ts"),
          "stored-objects": join(source, "stored-objects.ts"),
          "shadow-repo": join(source, "shadow-repo.ts"),
        },
        output: { format: "esm", entryFileNames: "[name].mjs" },
      },
    },
  });
  return {
    engine: await import(join(buildDir, "changes.mjs")),
    snapshotModule: {
      ...(await import(join(buildDir, "snapshot.mjs"))),
      ...(await import(join(buildDir, "stored-objects.mjs"))),
      ...(await import(join(buildDir, "shadow-repo.mjs"))),
    },
  };
}

function log(line: string): void {
  console.log(`[${new Date().toISOString().slice(11, 19)}] ${line}`);
}

function secs(since: number): string {
  return ((performance.now() - since) / 1000).toFixed(1);
}

function fmtLoad(l: number[]): string {
  return l.map((x) => x.toFixed(2)).join(" ");
}
