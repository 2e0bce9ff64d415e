/**
 * `npm run bench -- --phases worktree` (or `node bench/worktree.bench.ts`): what a new worktree chat costs before
 * it is ready. On a generated repository of 100,000 committed files (folders of 10, about 1 KB a file), each
 * round makes (g) a worktree with `git worktree add` alone, and (p) a worktree chat's folder as the host makes
 * it (`WorktreeFolder.open`: the same `git worktree add`, then its change records opened and their first
 * snapshot taken: "ready with recording on"), alternating, the first arm rotating. The result is the ratio of
 * the medians, p to g, in one run (issue 33's target: at most 1.5). See bench/README.md.
 *
 * Runs directly on Node 22 (type stripping); src/main/worktrees is bundled first with Vite (as the app's main
 * process is), then imported.
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import type * as Folder from "../src/main/worktrees/worktree-folder.ts";
import { generateHuge } from "./huge-tree.ts";

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, "..");
const buildDir = join(
  repo,
  "node_modules",
  ".cache",
  `pi-desk-bench-worktree-${createHash("sha256").update(repo).digest("hex").slice(0, 12)}`,
);

const { values: args } = parseArgs({
  options: {
    files: { type: "string", default: "100000" },
    rounds: { type: "string", default: "3" },
    out: { type: "string", default: join(here, "results", "worktree.json") },
  },
});
const files = Number(args.files);
const rounds = Number(args.rounds);

const { WorktreeFolder } = await bundle();
const tmpRoot = mkdtempSync(join(tmpdir(), "pi-desk-bench-worktree-"));
const began = performance.now();
const loadAtStart = loadavg();
const times: Record<"g" | "p", number[]> = { g: [], p: [] };
const hashed: number[] = [];
const afterOpen: number[] = [];
try {
  const workspace = join(tmpRoot, "repo");
  let since = performance.now();
  generateHuge(workspace, { files, perFolder: 10, bytes: files * 1024, ignoredFiles: 0 });
  log(`wrote ${files.toLocaleString()} files in ${secs(since)} s`);
  since = performance.now();
  git(workspace, "init", "-q", "-b", "main");
  git(workspace, "add", "-A");
  git(workspace, "commit", "-q", "-m", "bench tree");
  log(`committed them in ${secs(since)} s`);
  const dataRoot = join(tmpRoot, "data");
  for (let round = 0; round < rounds; round++) {
    const order: ("g" | "p")[] = round % 2 === 0 ? ["g", "p"] : ["p", "g"];
    for (const arm of order) {
      const name = `${arm}${round}`;
      const start = performance.now();
      if (arm === "g") {
        git(workspace, "worktree", "add", "-q", "-b", `bench/${name}`, join(tmpRoot, "plain", name), "HEAD");
      } else {
        const folder = await WorktreeFolder.open({
          workspace,
          workspaceDataDir: join(dataRoot, "workspace"),
          dataRoot,
          worktreesFolder: join(tmpRoot, "desk"),
          choice: { name },
          changes: {},
          onChangesDropped: () => {},
        });
        const opened = performance.now();
        await folder.changes?.whenPrepared(30 * 60_000);
        // The part after the worktree is made: mostly the first snapshot (it starts as the records open).
        afterOpen.push(performance.now() - opened);
        const state = folder.changes?.state.state.type;
        if (state !== "on") throw new Error(`Recording is ${state} after the first snapshot.`);
        // Files the first snapshot read and hashed: the rest were taken from git's index.
        hashed.push(folder.changes?.recorder.lastHashed ?? 0);
        await folder.close();
      }
      const ms = performance.now() - start;
      times[arm].push(ms);
      log(
        `${arm === "g" ? "git worktree add" : "worktree chat ready, recording on"}: ${(ms / 1000).toFixed(2)} s`,
      );
    }
  }
  report();
} finally {
  // Last: removing 100,000 files and the worktrees' copies takes minutes on a busy disk.
  log("removing the generated repository");
  rmSync(tmpRoot, { recursive: true, force: true });
}

/** Writes the summary (bench/results/worktree.json) and prints the table. */
function report(): void {
  const median = (values: number[]) => {
    const sorted = [...values].sort((a, b) => a - b);
    const mid = Math.floor(sorted.length / 2);
    return sorted.length % 2
      ? (sorted[mid] as number)
      : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
  };
  const ratio = median(times.p) / median(times.g);
  const summary = {
    machine: { cpus: cpus().length, loadAtStart, loadAtEnd: loadavg() },
    files,
    rounds,
    medianMs: { gitWorktreeAdd: median(times.g), worktreeChatReady: median(times.p) },
    ratio,
    target: { ratio: 1.5, met: ratio <= 1.5 },
    raw: times,
    hashedByFirstSnapshot: hashed,
    readyAfterOpenMs: afterOpen,
    seconds: (performance.now() - began) / 1000,
  };
  mkdirSync(dirname(args.out), { recursive: true });
  writeFileSync(args.out, `${JSON.stringify(summary, null, 2)}\n`);
  console.log(
    `\nworktree, ${files.toLocaleString()} files, ${rounds} rounds (medians):\n` +
      `  (g) git worktree add alone             ${(median(times.g) / 1000).toFixed(2)} s\n` +
      `  (p) worktree chat, ready, recording on ${(median(times.p) / 1000).toFixed(2)} s\n` +
      `  p / g ${ratio.toFixed(2)}  (target <= 1.5: ${ratio <= 1.5 ? "MET" : "MISSED"})\n` +
      `  files the first snapshot read and hashed: ${hashed.join(", ")} of ${files.toLocaleString()}\n` +
      `  (p) ready after WorktreeFolder.open returned: ${afterOpen.map((ms) => (ms / 1000).toFixed(2)).join(", ")} s\n` +
      `  load average ${loadAtStart.map((l) => l.toFixed(1)).join(" ")} at the start\n`,
  );
}

function git(cwd: string, ...gitArgs: string[]): void {
  execFileSync("git", ["-c", "user.name=Bench", "-c", "user.email=bench@localhost", ...gitArgs], {
    cwd,
    stdio: ["ignore", "ignore", "inherit"],
  });
}

/** Bundles the worktree folder (and the change engine under it) into node_modules/.cache, dependencies external. */
async function bundle(): Promise<typeof Folder> {
  const { build } = await import("vite");
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
        input: { "worktree-folder": join(repo, "src", "main", "worktrees", "worktree-folder.ts") },
        output: { format: "esm", entryFileNames: "[name].mjs" },
      },
    },
  });
  return import(join(buildDir, "worktree-folder.mjs"));
}

function log(line: string): void {
  console.log(`[${new Date().toISOString().slice(11, 19)}] ${line}`);
}

function secs(since: number): string {
  return ((performance.now() - since) / 1000).toFixed(1);
}
