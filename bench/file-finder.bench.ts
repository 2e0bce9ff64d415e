/**
 * `npm run bench -- --phases finder` (or `node bench/file-finder.bench.ts` after `npm run build`): the
 * composer's `@` finder on the 300,000-file bench tree (issue 38), through the real browser host over its
 * WebSocket, as the page asks it. In one run, against two anchors on the same tree:
 *
 * 1. First listing: the first `findFiles` (the host walks the folder with fd and indexes it), against fd's
 *    own walk of the same files to /dev/null (the raw limit: the host cannot list faster than fd).
 * 2. Per key: a person typing queries after the listing, each prefix one call, in a menu already open and
 *    right after it opens again (the host relisting in the background meanwhile); against Pi's own `@` at
 *    each key (the `pi` command line runs fd twice per key: the folder's own entries, then a search of the
 *    whole tree for the query, at most 100 results).
 * 3. Memory: the host's resident size before the first listing and after.
 *
 * The tree is the changes bench's huge one (`huge-tree.ts`: 300,000 files in 30,000 folders, and a
 * .gitignored node_modules of 200,000 more) with small files, made a git repository so .gitignore counts.
 */
import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { startDeskServer, stopDeskServer } from "../harness/desk-server.ts";
import { connectDesk } from "../harness/desk-socket.ts";
import { loadavg } from "../harness/machine-facts.ts";
import { generateHuge, HUGE } from "./huge-tree.ts";

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, "..");
const { values: args } = parseArgs({
  allowNegative: true,
  options: {
    rounds: { type: "string", default: "3" },
    folder: { type: "string", default: join(tmpdir(), "pi-desk-bench-finder") },
    "delete-tree": { type: "boolean", default: false },
    build: { type: "boolean", default: true },
    out: { type: "string", default: join(here, "results", "file-finder.json") },
  },
});
const rounds = Number(args.rounds);

/** What a person types after `@`, key by key: a name's letters, a path's start, scattered letters. */
const TYPED = ["f123456", "d01234", "src/p02", "txt", "p01d012f01"];

const ms = (start: bigint) => Number(process.hrtime.bigint() - start) / 1e6;
const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] as number;
};
const summary = (values: number[]) => ({
  n: values.length,
  p50: +quantile(values, 0.5).toFixed(1),
  p95: +quantile(values, 0.95).toFixed(1),
  max: +Math.max(...values).toFixed(1),
});
const fd = ["fd", "fdfind"].find((name) => {
  try {
    execFileSync(name, ["--version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
});
if (!fd) throw new Error("The finder bench needs fd (or Debian's fdfind) on PATH: the host lists with it.");

/** Runs fd with `args` and waits for it, its output thrown away. */
function runFd(fdArgs: string[]): Promise<void> {
  return new Promise((done, fail) => {
    const child = spawn(fd as string, fdArgs, { stdio: ["ignore", "ignore", "ignore"] });
    child.on("error", fail);
    child.on("close", () => done());
  });
}

/** Pi 1.6's `@` at one key (pi-tui's autocomplete): the folder's own entries, then the tree's, fd each time. */
async function piKey(folder: string, query: string): Promise<void> {
  const common = ["--base-directory", folder, "--max-results", "100", "--type", "f", "--type", "d"];
  const rest = ["--follow", "--hidden", "--exclude", ".git"];
  const pattern = query.includes("/") ? ["--full-path", query.split("/").join("[\\\\/]")] : [query];
  await runFd([...common, ...rest, "--max-depth", "1", ...pattern]);
  await runFd([...common, ...rest, ...pattern]);
}

/** The host's resident size, in MiB. */
const rssMiB = (pid: number) =>
  Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0) / 1024;

if (args.build) execFileSync("npx", ["electron-vite", "build"], { cwd: repo, stdio: "inherit" });
const folder = args.folder;
const spec = { ...HUGE, bytes: HUGE.files * 40 };
const made = generateHuge(folder, spec);
if (!existsSync(join(folder, ".git"))) execFileSync("git", ["init", "-q"], { cwd: folder });
console.log(
  `tree: ${spec.files} files in ${spec.files / spec.perFolder} folders + ${spec.ignoredFiles} ignored${made ? " (made now)" : ""}`,
);

const home = join(tmpdir(), `pi-desk-bench-finder-home-${process.pid}`);
mkdirSync(home, { recursive: true });
writeFileSync(join(home, "script.json"), JSON.stringify([[{ type: "text", text: "ok" }]]));
const loadBefore = loadavg();
const result: Record<string, unknown> = { tree: spec, rounds };
/** The first matches of each whole query, from the first round: what the timings found. */
const sample: Record<string, string[]> = {};
const first: number[] = [];
const fdWalk: number[] = [];
const warmKeys: number[] = [];
const reopenKeys: number[] = [];
const piKeys: number[] = [];
const memory: { before: number; after: number }[] = [];
try {
  for (let round = 0; round < rounds; round++) {
    // fd's walk first in each round, so both start from the same page cache.
    let start = process.hrtime.bigint();
    await runFd(["--type", "f", "--hidden", "--exclude", ".git", "--base-directory", folder]);
    fdWalk.push(ms(start));

    const { server, child } = await startDeskServer(folder, {
      env: {
        PI_DESK_SCRIPT: join(home, "script.json"),
        PI_OFFLINE: "1",
        PI_CODING_AGENT_DIR: join(home, "agent"),
        PI_DESK_DATA_DIR: join(home, `data-${round}`),
      },
    });
    const socket = await connectDesk(server);
    try {
      const chatId = (await socket.call("getState")).chatId as string;
      const before = rssMiB(child.pid as number);
      start = process.hrtime.bigint();
      const listed = await socket.call("findFiles", { chatId, query: "", fresh: true });
      first.push(ms(start));
      if (round === 0) result.searched = listed.searched;
      for (const typed of TYPED) {
        for (let n = 1; n <= typed.length; n++) {
          start = process.hrtime.bigint();
          const found = await socket.call("findFiles", { chatId, query: typed.slice(0, n) });
          warmKeys.push(ms(start));
          if (n === typed.length && round === 0) sample[typed] = found.paths.slice(0, 3);
        }
      }
      // The menu opened again: the host lists anew in the background while the keys are answered.
      for (const typed of TYPED) {
        for (let n = 1; n <= typed.length; n++) {
          start = process.hrtime.bigint();
          await socket.call("findFiles", {
            chatId,
            query: typed.slice(0, n),
            ...(n === 1 ? { fresh: true } : {}),
          });
          reopenKeys.push(ms(start));
        }
      }
      memory.push({ before: +before.toFixed(1), after: +rssMiB(child.pid as number).toFixed(1) });
    } finally {
      socket.close();
      await stopDeskServer(child);
    }
    for (const typed of TYPED) {
      for (let n = 1; n <= typed.length; n++) {
        start = process.hrtime.bigint();
        await piKey(folder, typed.slice(0, n));
        piKeys.push(ms(start));
      }
    }
  }
  Object.assign(result, {
    firstListingMs: summary(first),
    fdWalkMs: summary(fdWalk),
    firstListingVsFd: +(quantile(first, 0.5) / quantile(fdWalk, 0.5)).toFixed(2),
    keyMs: summary(warmKeys),
    keyAfterReopenMs: summary(reopenKeys),
    piKeyMs: summary(piKeys),
    keyP95VsPi: +(quantile(warmKeys, 0.95) / quantile(piKeys, 0.95)).toFixed(3),
    keyAfterReopenP95VsPi: +(quantile(reopenKeys, 0.95) / quantile(piKeys, 0.95)).toFixed(3),
    memoryMiB: memory,
    sample,
    machine: { loadavgBefore: loadBefore, loadavgAfter: loadavg(), fd },
  });
  console.log(JSON.stringify(result, null, 2));
  mkdirSync(dirname(args.out), { recursive: true });
  writeFileSync(args.out, `${JSON.stringify(result, null, 2)}\n`);
} finally {
  rmSync(home, { recursive: true, force: true });
  if (args["delete-tree"]) rmSync(folder, { recursive: true, force: true });
}
