/**
 * The `huge` phase of `npm run bench:changes -- --sizes huge` (issue 23 §1): on 300,000 files in 30,000
 * folders (3 GB) beside a `.gitignore`d node_modules of 200,000, one run of each:
 * - the first snapshot against `git add -A && git write-tree` in a fresh repository (a ratio), with the
 *   host's RSS growth during the snapshot (sampled every 50 ms);
 * - a reopen (a new recorder on the same records, as after a restart): time until recording is on,
 *   and how many files it hashed again (the stat cache's point: none);
 * - per command (append a line to one file, before + after), p50/p95 with the folder watcher, then
 *   with the watcher off (the full-scan fallback of a tree past inotify's limit).
 * See bench/README.md. The tree is kept between runs only with `--keep-huge`.
 */
import { execFile, execFileSync } from "node:child_process";
import { appendFileSync, mkdirSync, rmSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import type * as Changes from "../src/main/changes/index.ts";
import { generateHuge, HUGE, type HugeSpec, hugeFile } from "./huge-tree.ts";

const MIB = 1024 * 1024;

/** Targets from the issue. */
const TARGETS = { reopenMs: 5000, watcherP50: 100, watcherP95: 250, fullScanP50: 1500, rssMiB: 300 };

/** Runs the phase in `root` (the tree under `root/workspace`, reused when complete); returns its figures. */
export async function measureHuge(
  engine: typeof Changes,
  root: string,
  options: {
    iterations: number;
    fullScanIterations: number;
    keep: boolean;
    files?: number;
    /** Rounds of the first snapshot against git, alternating (see `FirstRound`). */
    firstRounds: number;
    /** Stop after the first-snapshot rounds (what to iterate on). */
    firstOnly?: boolean;
  },
) {
  // Another size (`--huge-files N`) keeps the shape: folders of 10, 10 KB a file, two thirds as many ignored.
  const spec: HugeSpec = options.files
    ? {
        files: options.files,
        perFolder: 10,
        bytes: options.files * 10_000,
        ignoredFiles: Math.round((options.files * 2) / 3),
      }
    : HUGE;
  const workspace = join(root, options.files ? `workspace-${options.files}` : "workspace");
  mkdirSync(root, { recursive: true });
  let began = performance.now();
  const wrote = generateHuge(workspace, spec);
  log(
    `huge: ${wrote ? "generated" : "reused"} ${spec.files} files + ${spec.ignoredFiles} ignored in ${secs(began)} s`,
  );
  const dataDir = join(root, "changes");
  const gitDir = join(root, "git-reference");
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(gitDir, { recursive: true, force: true });
  try {
    // The first snapshot against git, alternating in one run (`rounds` of each): git first in even
    // rounds, the engine first in odd ones, each round with a fresh git repository and a fresh records
    // folder, so the machine's load (shared, 2 cores) falls on both alike; the ratio is of the medians.
    // Round 0 is git first: it reads the tree into the page cache for both. The last round's recorder
    // is kept for the phases after it (reopen, per command).
    const rounds: FirstRound[] = [];
    let first: Changes.ChangeRecorder | undefined;
    let worst: EngineFirst | undefined;
    const engineRuns: EngineFirst[] = [];
    for (let round = 0; round < options.firstRounds; round++) {
      const last = round === options.firstRounds - 1;
      const loadBefore = uptimeLoad();
      let gitRun: { ms: number; tree: string } | undefined;
      let engineRun: EngineFirst | undefined;
      for (const who of round % 2 === 0 ? ["git", "engine"] : ["engine", "git"]) {
        // Each side starts with the disk settled: else the one going second pays for writing back the
        // first one's gigabytes of dirty pages (and the removal of its objects).
        settleDisk();
        if (who === "git") {
          rmSync(gitDir, { recursive: true, force: true });
          gitRun = await gitAddAll(workspace, gitDir);
          rmSync(gitDir, { recursive: true, force: true });
        } else {
          rmSync(dataDir, { recursive: true, force: true });
          engineRun = await engineFirst(engine, workspace, dataDir);
          if (!last) {
            await engineRun.recorder.close();
            rmSync(dataDir, { recursive: true, force: true });
          }
        }
      }
      if (!gitRun || !engineRun) throw new Error("a round ran only one side");
      const row: FirstRound = {
        order: round % 2 === 0 ? "git, engine" : "engine, git",
        gitMs: Math.round(gitRun.ms),
        engineMs: Math.round(engineRun.ms),
        ratio: Number((engineRun.ms / gitRun.ms).toFixed(2)),
        rssGrowthMiB: Math.round(engineRun.rssGrowthMiB),
        load: { before: loadBefore, after: uptimeLoad() },
      };
      rounds.push(row);
      log(
        `huge: round ${round + 1}/${options.firstRounds} (${row.order}): git add -A && git write-tree ${row.gitMs} ms ` +
          `(${gitRun.tree.slice(0, 12)}), engine ${row.engineMs} ms: ${row.ratio}x, RSS +${row.rssGrowthMiB} MiB, ` +
          `load ${row.load.before} -> ${row.load.after}`,
      );
      log(
        `huge: at the RSS peak, growth of V8's used heap ${engineRun.peakParts.heapUsedMiB} MiB (total ${engineRun.peakParts.heapTotalMiB}), ` +
          `Buffers ${engineRun.peakParts.arrayBuffersMiB} MiB; event-loop delay max ${engineRun.loopMaxMs} ms, p99 ${engineRun.loopP99Ms} ms, ` +
          `${engineRun.progressEvents} progress events (last ${engineRun.lastProgress.scanned}/${engineRun.lastProgress.total}), longest stall ${Math.round(engineRun.longestStall)} ms`,
      );
      engineRuns.push(engineRun);
      if (!worst || engineRun.rssGrowthMiB > worst.rssGrowthMiB) worst = engineRun;
      if (last) first = engineRun.recorder;
    }
    if (!first || !worst) throw new Error("--first-rounds must be at least 1");
    const gitMedian = median(rounds.map((r) => r.gitMs));
    const engineMedian = median(rounds.map((r) => r.engineMs));
    const alternating = {
      rounds: rounds.length,
      gitMedianMs: Math.round(gitMedian),
      engineMedianMs: Math.round(engineMedian),
      ratioOfMedians: Number((engineMedian / gitMedian).toFixed(2)),
      met: engineMedian <= gitMedian,
      perRound: rounds,
    };
    const firstMs = engineMedian;
    const git = { ms: gitMedian };
    const rssGrowthMiB = worst.rssGrowthMiB;
    const peakParts = worst.peakParts;
    // The worst of the rounds.
    const loopMaxMs = Math.max(...engineRuns.map((r) => r.loopMaxMs));
    const longestStall = Math.max(...engineRuns.map((r) => r.longestStall));
    const progressEvents = worst.progressEvents;
    log(
      `huge: first snapshot, median of ${rounds.length} alternating rounds: engine ${Math.round(engineMedian)} ms, ` +
        `git ${Math.round(gitMedian)} ms: ${alternating.ratioOfMedians}x; most RSS growth +${Math.round(rssGrowthMiB)} MiB`,
    );
    const usageMiB = (await first.usage()) / MIB;
    await first.close();
    if (options.firstOnly) {
      const row = {
        files: spec.files,
        firstSnapshot: {
          alternating,
          rssGrowthMiB: Math.round(rssGrowthMiB),
          eventLoopDelayMaxMs: loopMaxMs,
          shadowMiB: Math.round(usageMiB),
        },
      };
      console.log(`\nhuge: first snapshot only, ${JSON.stringify(row.firstSnapshot)}`);
      return row;
    }

    began = performance.now();
    const reopened = await engine.ChangeRecorder.open({ workspace, dataDir });
    const reopenState = await reopened.prepare();
    const reopenMs = performance.now() - began;
    if (reopenState.type === "off") throw new Error(reopenState.reason);
    log(
      `huge: reopen, recording on in ${Math.round(reopenMs)} ms, ${reopened.lastHashed} files hashed again`,
    );
    const reopenHashed = reopened.lastHashed;

    const watcher = await perCommand(reopened, workspace, options.iterations, "w", spec);
    log(`huge: per command with the watcher p50 ${watcher.p50} ms, p95 ${watcher.p95} ms`);
    const watchLimit = reopened.watchLimit?.message;
    await reopened.close();

    // The fallback: a watcher allowed one folder gives up at once, as one past inotify's limit does.
    const unwatched = await engine.ChangeRecorder.open({ workspace, dataDir, maxWatchedFolders: 1 });
    await unwatched.prepare();
    // Its scans must yield as they go (the host's event loop keeps moving): the longest block during them.
    const scanDelay = monitorEventLoopDelay({ resolution: 5 });
    scanDelay.enable();
    const fullScan = await perCommand(unwatched, workspace, options.fullScanIterations, "f", spec);
    scanDelay.disable();
    const fullScanLoopMaxMs = Math.round(scanDelay.max / 1e6);
    log(
      `huge: per command with full scans p50 ${fullScan.p50} ms, p95 ${fullScan.p95} ms, ` +
        `event-loop delay max ${fullScanLoopMaxMs} ms, p99 ${Math.round(scanDelay.percentile(99) / 1e6)} ms`,
    );
    await unwatched.close();

    const row = {
      files: spec.files,
      ignoredFiles: spec.ignoredFiles,
      gigabytes: spec.bytes / 1e9,
      firstSnapshot: {
        engineMs: Math.round(firstMs),
        gitAddWriteTreeMs: Math.round(git.ms),
        ratio: Number((firstMs / git.ms).toFixed(2)),
        met: firstMs <= git.ms,
        rssGrowthMiB: Math.round(rssGrowthMiB),
        rssMet: rssGrowthMiB < TARGETS.rssMiB,
        progressEvents,
        alternating,
        longestEventLoopStallMs: Math.round(longestStall),
        eventLoopDelayMaxMs: loopMaxMs,
        atRssPeak: peakParts,
        shadowMiB: Math.round(usageMiB),
      },
      reopen: { ms: Math.round(reopenMs), hashedAgain: reopenHashed, met: reopenMs < TARGETS.reopenMs },
      perCommandWatcher: {
        ...watcher,
        met: watcher.p50 < TARGETS.watcherP50 && watcher.p95 < TARGETS.watcherP95,
        ...(watchLimit ? { watchLimit } : {}),
      },
      perCommandFullScan: {
        ...fullScan,
        eventLoopDelayMaxMs: fullScanLoopMaxMs,
        met: fullScan.p50 < TARGETS.fullScanP50,
      },
      targets: TARGETS,
    };
    print(row, spec);
    return row;
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(gitDir, { recursive: true, force: true });
    if (!options.keep) rmSync(root, { recursive: true, force: true });
  }
}

/** One round of the first snapshot against git, both on the same tree, one after the other. */
interface FirstRound {
  /** Which went first. */
  order: string;
  gitMs: number;
  engineMs: number;
  /** engine / git in this round. */
  ratio: number;
  /** The host's RSS growth during the engine's snapshot. */
  rssGrowthMiB: number;
  /** `uptime`'s load averages (1, 5, 15 min) before and after the round. */
  load: { before: string; after: string };
}

/** One first snapshot by the engine into a fresh records folder, with its memory and event-loop figures. */
interface EngineFirst {
  recorder: Changes.ChangeRecorder;
  ms: number;
  rssGrowthMiB: number;
  peakParts: { heapUsedMiB: number; arrayBuffersMiB: number; heapTotalMiB: number };
  loopMaxMs: number;
  loopP99Ms: number;
  longestStall: number;
  progressEvents: number;
  lastProgress: { scanned: number; total: number };
}

/** Opens a recorder on fresh records and takes its first snapshot, sampling RSS every 50 ms. */
async function engineFirst(engine: typeof Changes, workspace: string, dataDir: string): Promise<EngineFirst> {
  const memoryBefore = process.memoryUsage();
  const rssBefore = memoryBefore.rss;
  let rssPeak = rssBefore;
  // Where the memory is, at the RSS peak: V8's heap, Buffers (arrayBuffers), the rest (malloc, code).
  let atPeak = memoryBefore;
  const sampler = setInterval(() => {
    const now = process.memoryUsage();
    if (now.rss > rssPeak) {
      rssPeak = now.rss;
      atPeak = now;
    }
  }, 50);
  // Every block of the event loop, not only those a 5 ms timer happens to see.
  const loopDelay = monitorEventLoopDelay({ resolution: 5 });
  loopDelay.enable();
  let progressEvents = 0;
  let lastProgress = { scanned: 0, total: 0 };
  let longestStall = 0;
  let tick = performance.now();
  const stallTicker = setInterval(() => {
    longestStall = Math.max(longestStall, performance.now() - tick);
    tick = performance.now();
  }, 5);
  const began = performance.now();
  const recorder = await engine.ChangeRecorder.open({
    workspace,
    dataDir,
    // A figure even on a machine so loaded it passes the default 20 minutes.
    firstSnapshotTimeoutMs: 3_600_000,
    onProgress: (progress) => {
      progressEvents++;
      lastProgress = progress;
    },
  });
  const state = await recorder.prepare();
  const ms = performance.now() - began;
  clearInterval(sampler);
  clearInterval(stallTicker);
  loopDelay.disable();
  if (state.type === "off") throw new Error(state.reason);
  return {
    recorder,
    ms,
    rssGrowthMiB: (rssPeak - rssBefore) / MIB,
    peakParts: {
      heapUsedMiB: Math.round((atPeak.heapUsed - memoryBefore.heapUsed) / MIB),
      arrayBuffersMiB: Math.round((atPeak.arrayBuffers - memoryBefore.arrayBuffers) / MIB),
      heapTotalMiB: Math.round((atPeak.heapTotal - memoryBefore.heapTotal) / MIB),
    },
    loopMaxMs: Math.round(loopDelay.max / 1e6),
    loopP99Ms: Math.round(loopDelay.percentile(99) / 1e6),
    longestStall,
    progressEvents,
    lastProgress,
  };
}

/** `uptime`'s three load averages, as it prints them. */
function uptimeLoad(): string {
  return loadavg()
    .map((n) => n.toFixed(2))
    .join(", ");
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/** Writes every dirty page back to disk (`sync`), untimed. */
function settleDisk(): void {
  execFileSync("sync");
}

/** `git add -A && git write-tree` into a fresh repository outside the tree (its work tree is the tree). */
async function gitAddAll(workspace: string, gitDir: string): Promise<{ ms: number; tree: string }> {
  const env = {
    PATH: process.env.PATH,
    HOME: gitDir,
    GIT_DIR: gitDir,
    GIT_WORK_TREE: workspace,
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_CONFIG_GLOBAL: "/dev/null",
  };
  await git(["init", "-q"], env, workspace);
  const start = performance.now();
  await git(["add", "-A"], env, workspace);
  const tree = (await git(["write-tree"], env, workspace)).trim();
  return { ms: performance.now() - start, tree };
}

/** A command that appends a line to one file (a different one each time), timed with before and after. */
async function perCommand(
  recorder: Changes.ChangeRecorder,
  workspace: string,
  iterations: number,
  tag: string,
  spec: HugeSpec,
) {
  const times: number[] = [];
  for (let i = -2; i < iterations; i++) {
    const file = join(workspace, hugeFile(((i + 3) * 9973) % spec.files, spec));
    const start = performance.now();
    const before = await recorder.before(`${tag}${i}`);
    appendFileSync(file, `line ${tag}${i}\n`);
    const after = await recorder.after(`${tag}${i}`);
    const ms = performance.now() - start;
    if (!before.recorded || !after.recorded || after.changes.files.length !== 1) {
      throw new Error(`Recording went wrong: ${JSON.stringify({ before, after }).slice(0, 500)}`);
    }
    if (i >= 0) times.push(ms); // two warm-up commands
  }
  const sorted = [...times].sort((a, b) => a - b);
  const at = (q: number) =>
    Number((sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0).toFixed(1));
  return { p50: at(0.5), p95: at(0.95), n: times.length };
}

function git(argv: string[], env: NodeJS.ProcessEnv, cwd: string): Promise<string> {
  return new Promise((done, fail) => {
    execFile("git", argv, { env, cwd, maxBuffer: 64 * MIB }, (error, stdout) =>
      error ? fail(error) : done(stdout),
    );
  });
}

function print(
  row: {
    firstSnapshot: {
      engineMs: number;
      gitAddWriteTreeMs: number;
      ratio: number;
      met: boolean;
      rssGrowthMiB: number;
      rssMet: boolean;
      alternating: {
        rounds: number;
        engineMedianMs: number;
        gitMedianMs: number;
        ratioOfMedians: number;
        perRound: FirstRound[];
      };
    };
    reopen: { ms: number; hashedAgain: number; met: boolean };
    perCommandWatcher: { p50: number; p95: number; met: boolean };
    perCommandFullScan: { p50: number; p95: number; eventLoopDelayMaxMs: number; met: boolean };
  },
  spec: HugeSpec,
): void {
  const mark = (met: boolean) => (met ? "MET" : "MISSED");
  const f = row.firstSnapshot;
  console.log(
    `\nhuge: ${spec.files} files in ${spec.files / spec.perFolder} folders, ${spec.bytes / 1e9} GB, + ${spec.ignoredFiles} ignored`,
  );
  console.log(
    `  first snapshot          ${f.engineMs} ms vs git add -A && write-tree ${f.gitAddWriteTreeMs} ms: ${f.ratio}x (target <= 1x): ${mark(f.met)}`,
  );
  console.log(
    `  alternating, ${f.alternating.rounds} rounds  engine median ${f.alternating.engineMedianMs} ms vs git ${f.alternating.gitMedianMs} ms: ${f.alternating.ratioOfMedians}x (per round ${f.alternating.perRound.map((r) => r.ratio).join(", ")})`,
  );
  console.log(
    `  RSS growth during it    ${f.rssGrowthMiB} MiB (target < ${TARGETS.rssMiB}): ${mark(f.rssMet)}`,
  );
  console.log(
    `  reopen                  on in ${row.reopen.ms} ms, ${row.reopen.hashedAgain} files hashed again (target < ${TARGETS.reopenMs} ms): ${mark(row.reopen.met)}`,
  );
  const w = row.perCommandWatcher;
  console.log(
    `  per command, watcher    p50 ${w.p50} ms, p95 ${w.p95} ms (target p50 < ${TARGETS.watcherP50}, p95 < ${TARGETS.watcherP95}): ${mark(w.met)}`,
  );
  const s = row.perCommandFullScan;
  console.log(
    `  per command, full scan  p50 ${s.p50} ms, p95 ${s.p95} ms (target p50 < ${TARGETS.fullScanP50}): ${mark(s.met)}, ` +
      `longest event-loop block ${s.eventLoopDelayMaxMs} ms`,
  );
}

function log(line: string): void {
  console.log(`[${new Date().toISOString().slice(11, 19)}] ${line}`);
}

function secs(since: number): string {
  return ((performance.now() - since) / 1000).toFixed(1);
}
