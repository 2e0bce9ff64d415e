// Runs Electronegativity (Doyensec's Electron security linter) over the sources and fails on any
// finding of medium severity or above that SECURITY.md does not accept. It runs from npm's cache in a
// tree of its own (npm exec), not as a devDependency: its TypeScript parser needs TypeScript 4's
// JavaScript API, which the project's TypeScript 7 (the native compiler) does not have. It needs the
// npm registry once; it only warns that it cannot fetch Electron's release list.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** Findings accepted on purpose; SECURITY.md says why. */
const ACCEPTED = new Set(["PRELOAD_JS_CHECK", "OPEN_EXTERNAL_JS_CHECK"]);

const report = join(mkdtempSync(join(tmpdir(), "pi-desk-audit-")), "electronegativity.csv");
const args = ["-i", "src", "-e", "45.5.0", "-s", "medium", "-r", "-v", "false", "-o", report];
const run = spawnSync(
  "npm",
  ["exec", "--yes", "--package=@doyensec/electronegativity@1.10.3", "--", "electronegativity", ...args],
  { encoding: "utf8" },
);
if (run.status !== 0) {
  console.error(run.stdout, run.stderr);
  process.exit(run.status ?? 1);
}
// Its -s filter lets some LOW findings through; only medium and above count here.
const rows = readFileSync(report, "utf8")
  .trim()
  .split("\n")
  .slice(1)
  .filter((row) => /^[A-Z_]+,"(MEDIUM|HIGH|CRITICAL)"/.test(row));
const findings = rows.filter((row) => !ACCEPTED.has(row.split(",")[0]));
for (const row of rows) console.log(`${ACCEPTED.has(row.split(",")[0]) ? "accepted" : "FINDING "}  ${row}`);
console.log(
  `Electronegativity: ${rows.length} finding(s) of medium severity or above, ${findings.length} not accepted.`,
);
process.exit(findings.length === 0 ? 0 : 1);
