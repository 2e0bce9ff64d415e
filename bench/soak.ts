/**
 * `npm run soak`: 1,000 commands through the approval path (auto-approved by "always allow" rules), 4 at a
 * time, with random outputs, exits, timeouts and cancels, against the real browser host with the scripted
 * model. Prints what it found and writes bench/results/soak.json; exits 1 when anything leaked or was
 * lost. The test suite runs a small version of the same soak (e2e/soak.spec.ts). See bench/README.md.
 *
 * Runs directly on Node 22 (type stripping), on the harness the e2e specs use.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { runSoak } from "../harness/soak.ts";

const here = dirname(fileURLToPath(import.meta.url));

const { values: args } = parseArgs({
  options: {
    commands: { type: "string", default: "1000" },
    parallel: { type: "string", default: "4" },
    "per-batch": { type: "string", default: "100" },
    seed: { type: "string" },
    out: { type: "string", default: join(here, "results", "soak.json") },
  },
});
const seed = args.seed === undefined ? Math.floor(Math.random() * 2 ** 31) : Number(args.seed);
const began = performance.now();
const report = await runSoak({
  commands: Number(args.commands),
  parallel: Number(args.parallel),
  perBatch: Number(args["per-batch"]),
  seed,
  log: (line) => console.log(`[${Math.round((performance.now() - began) / 1000)}s] ${line}`),
});

const problems = Object.entries(report.problems).filter(([, found]) => found.length > 0);
console.log(`
${report.commands} commands (${Object.entries(report.kinds)
  .map(([kind, n]) => `${n} ${kind}`)
  .join(", ")}) in ${report.durationSeconds} s, seed ${seed}
host RSS after the first batch ${report.samples[0]?.rssMiB.toFixed(1)} MiB, after the last ${report.samples.at(-1)?.rssMiB.toFixed(1)} MiB (growth ${report.rssGrowthMiB.toFixed(1)} MiB)
host file descriptors: growth ${report.fdGrowth} (${report.samples.map((s) => s.fds).join(" ")})
audit log: ${report.audit.decisions} decisions, ${report.audit.finished} ends
${problems.length === 0 ? "no problems: nothing leaked, every result as the command did, one decision each" : problems.map(([name, found]) => `${name}: ${found.length}\n  ${found.slice(0, 10).join("\n  ")}`).join("\n")}`);

mkdirSync(dirname(args.out), { recursive: true });
writeFileSync(
  args.out,
  `${JSON.stringify({ date: new Date().toISOString(), node: process.version, cpus: cpus().length, loadAverage: loadavg(), ...report }, null, 2)}\n`,
);
console.log(`wrote ${args.out}`);
process.exitCode = problems.length === 0 ? 0 : 1;
