/**
 * `npm run bench -- --phases network` (or `node bench/network.bench.ts`): what the allowed-hosts proxy costs a
 * sandboxed command. The same 100 MiB download from a loopback server runs in bubblewrap with the network
 * fully on (straight to the server) and through the proxy (CONNECT by name: the forwarder in the sandbox,
 * the Unix socket, the host's proxy), alternating, in one run; the ratio of their throughputs is the
 * result. Connection set-up is curl's time to a ready tunnel (`time_pretransfer`) for a small request,
 * p50 over many. A third arm, where python3 has os.splice, is a relay that copies nothing through user space: the same download
 * with the network fully on through a kernel relay (`splice-relay.py`, no copy through user space) on the
 * host's loopback. See bench/README.md.
 *
 * Runs directly on Node 22 (type stripping); src/main/run-command is bundled first with Vite (as the app's
 * main process is), then imported.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import type * as RunCommand from "../src/main/run-command/index.ts";

const MIB = 1024 * 1024;
const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, "..");
const buildDir = join(repo, "node_modules", ".cache", "pi-desk-bench-network");

const { values: args } = parseArgs({
  options: {
    rounds: { type: "string", default: "5" },
    mib: { type: "string", default: "100" },
    setups: { type: "string", default: "100" },
    out: { type: "string", default: join(here, "results", "network.json") },
  },
});
const rounds = Number(args.rounds);
const bytes = Number(args.mib) * MIB;
const setups = Number(args.setups);
const UPSTREAM = "127.0.0.2";
const NAME = "bench.test";

const run = await bundle();
const tmpRoot = mkdtempSync(join(tmpdir(), "pi-desk-bench-network-"));
const began = performance.now();
const loadAtStart = loadavg();
const upstream = await startUpstream(bytes);
const sandbox = (allowedHosts?: string[]) => ({
  enabled: true,
  network: allowedHosts === undefined,
  allowedHosts,
  resolveHost: async () => [UPSTREAM],
  allowLoopbackTargets: true,
});
const relay = await startSpliceRelay(upstream.port);
type Arm = "full" | "proxy" | "splice";
const downloads: Record<Arm, { seconds: number; bytesPerSecond: number }[]> = {
  full: [],
  proxy: [],
  splice: [],
};
const setupMs: Record<"full" | "proxy", number[]> = { full: [], proxy: [] };
try {
  const arms: Arm[] = relay ? ["full", "proxy", "splice"] : ["full", "proxy"];
  for (let round = 0; round < rounds; round++) {
    // Rotated each round: background load falls on every arm, and none always goes first.
    const order = arms.map((_, i) => arms[(i + round) % arms.length] as Arm);
    for (const how of order) {
      const url = {
        full: `http://${UPSTREAM}:${upstream.port}/big`,
        proxy: `http://${NAME}:${upstream.port}/big`,
        splice: `http://127.0.0.1:${relay?.port}/big`,
      }[how];
      const tunnel = how === "proxy" ? "--proxytunnel " : "";
      const text = await command(
        how === "proxy" ? sandbox([NAME]) : sandbox(),
        `curl -sS ${tunnel}-o /dev/null -w '%{size_download} %{time_total}' ${url}`,
      );
      const [size, seconds] = text.trim().split(" ").map(Number) as [number, number];
      if (size !== bytes) throw new Error(`${how}: downloaded ${size} bytes, not ${bytes}: ${text}`);
      downloads[how].push({ seconds, bytesPerSecond: size / seconds });
      log(`${how}: ${args.mib} MiB in ${seconds.toFixed(3)} s (${(size / seconds / MIB).toFixed(0)} MiB/s)`);
    }
  }
  for (const how of ["full", "proxy"] as const) {
    const url =
      how === "full" ? `http://${UPSTREAM}:${upstream.port}/tiny` : `http://${NAME}:${upstream.port}/tiny`;
    const tunnel = how === "proxy" ? "--proxytunnel " : "";
    const text = await command(
      how === "full" ? sandbox() : sandbox([NAME]),
      `for i in $(seq ${setups}); do curl -sS ${tunnel}-o /dev/null -w '%{time_pretransfer}\\n' ${url}; done`,
    );
    setupMs[how] = text
      .trim()
      .split("\n")
      .map((line) => Number(line) * 1000);
    log(
      `${how}: connection set-up p50 ${percentile(setupMs[how], 50).toFixed(2)} ms over ${setupMs[how].length}`,
    );
  }
} finally {
  upstream.child.kill("SIGKILL");
  relay?.child.kill("SIGKILL");
  rmSync(tmpRoot, { recursive: true, force: true });
}

const median = (values: number[]) => percentile(values, 50);
const full = median(downloads.full.map((d) => d.bytesPerSecond));
const proxied = median(downloads.proxy.map((d) => d.bytesPerSecond));
const ratio = proxied / full;
const spliced = relay ? median(downloads.splice.map((d) => d.bytesPerSecond)) : undefined;
const setupP50 = median(setupMs.proxy);
const summary = {
  downloadMiB: Number(args.mib),
  rounds,
  fullMiBs: full / MIB,
  proxyMiBs: proxied / MIB,
  ratio,
  // A kernel relay (two loopback hops instead of one, no copy through user space), and the proxy against it.
  spliceMiBs: spliced === undefined ? null : spliced / MIB,
  spliceRatio: spliced === undefined ? null : spliced / full,
  proxyToSplice: spliced === undefined ? null : proxied / spliced,
  setupP50Ms: { proxy: setupP50, full: median(setupMs.full) },
  setupP95Ms: { proxy: percentile(setupMs.proxy, 95), full: percentile(setupMs.full, 95) },
};
const targets = [
  { target: "proxy throughput / full network >= 0.8", measured: ratio.toFixed(2), met: ratio >= 0.8 },
  {
    target: "connection set-up through the proxy < 5 ms p50",
    measured: `${setupP50.toFixed(2)} ms`,
    met: setupP50 < 5,
  },
];
console.log(
  `\n${args.mib} MiB download: full network ${summary.fullMiBs.toFixed(0)} MiB/s, through the proxy ` +
    `${summary.proxyMiBs.toFixed(0)} MiB/s, ratio ${ratio.toFixed(2)}\n` +
    (spliced === undefined
      ? "kernel relay: skipped (needs python3 with os.splice)\n"
      : `through a kernel splice relay ${(spliced / MIB).toFixed(0)} MiB/s: ratio ${(spliced / full).toFixed(2)} ` +
        `to the full network; the proxy is ${(proxied / spliced).toFixed(2)} of it\n`) +
    `connection set-up p50: proxy ${setupP50.toFixed(2)} ms, full network ${summary.setupP50Ms.full.toFixed(2)} ms\n`,
);
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
      loadAverage: { start: loadAtStart, end: loadavg() },
      durationSeconds: Math.round((performance.now() - began) / 1000),
      summary,
      targets,
      raw: { downloads, setupMs },
    },
    null,
    2,
  )}\n`,
);
console.log(`\nwrote ${args.out}`);
process.exit(0);

/** Runs one command through run_command (auto-approved) and returns its output; throws unless it succeeded. */
async function command(settings: ReturnType<typeof sandbox>, line: string): Promise<string> {
  const workspaceRoot = mkdtempSync(join(tmpRoot, "ws-"));
  const tool = run.createRunCommandTool({
    workspaceRoot,
    outputDir: join(tmpRoot, "out"),
    sandbox: settings,
    maxTimeoutSeconds: 600,
  });
  const result = await tool.execute(
    "bench",
    { command: line, timeout: 600 },
    undefined,
    undefined,
    undefined as never,
  );
  const text = result.content.map((part) => (part.type === "text" ? part.text : "")).join("");
  if (result.details.status !== "succeeded") throw new Error(`"${line}" ${result.details.status}: ${text}`);
  return text;
}

/**
 * The download server, in its own process so the proxy (in this one) does not share an event loop with it:
 * `/big` is `size` bytes from one buffer, `/tiny` a few.
 */
async function startUpstream(size: number): Promise<{ child: ChildProcess; port: number }> {
  const source = `
    const http = require("http");
    const chunk = Buffer.alloc(1024 * 1024, 97);
    const server = http.createServer((req, res) => {
      if (req.url === "/tiny") return res.end("ok");
      res.writeHead(200, { "content-length": ${size} });
      let left = ${size};
      const more = () => {
        while (left > 0) {
          const n = Math.min(left, chunk.length);
          left -= n;
          if (!res.write(n === chunk.length ? chunk : chunk.subarray(0, n))) return res.once("drain", more);
        }
        res.end();
      };
      more();
    });
    server.keepAliveTimeout = 1;
    server.listen(0, "${UPSTREAM}", () => console.log(server.address().port));`;
  const child = spawn(process.execPath, ["-e", source], { stdio: ["ignore", "pipe", "inherit"] });
  const port = await new Promise<number>((done, fail) => {
    child.stdout?.once("data", (data: Buffer) => done(Number(data.toString().trim())));
    child.once("exit", (code) => fail(new Error(`the upstream server exited (${code})`)));
  });
  return { child, port };
}

async function bundle(): Promise<typeof RunCommand> {
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
        input: { "run-command": join(repo, "src", "main", "run-command", "index.ts") },
        output: { format: "esm", entryFileNames: "[name].mjs" },
      },
    },
  });
  return import(join(buildDir, "run-command.mjs"));
}

/**
 * The kernel relay to the upstream (`splice-relay.py`), or undefined where python3 or its os.splice (Linux,
 * Python 3.10+) is missing: that arm is then skipped, and said so.
 */
async function startSpliceRelay(port: number): Promise<{ child: ChildProcess; port: number } | undefined> {
  const child = spawn("python3", [join(here, "splice-relay.py"), UPSTREAM, String(port)], {
    stdio: ["ignore", "pipe", "ignore"],
  });
  return new Promise((done) => {
    child.stdout?.once("data", (data: Buffer) => done({ child, port: Number(data.toString().trim()) }));
    child.once("error", () => done(undefined));
    child.once("exit", () => done(undefined));
  });
}

/** Nearest-rank percentile. */
function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((x, y) => x - y);
  return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}

function log(line: string): void {
  console.log(`[${Math.round((performance.now() - began) / 1000)}s] ${line}`);
}
