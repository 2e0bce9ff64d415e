import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, symlinkSync } from "node:fs";
import { basename, join } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { checkAllowlist } from "../../../../src/main/run-command/policy/command-policy";
import { parseCommandLine } from "../../../../src/main/run-command/shell/shell-parser";
import { EVALUATES_AS_CODE, EVALUATION_ALLOWED, SAFE_EXPANSIONS } from "./fixtures/evaluation-corpus";
import { createPolicyFixture } from "./policy-fixture";

// Differential check against real bash: lines near harmless ones are mutated, and every line the policy
// allows is run by bash with stand-ins that log their names. An allowed line must run only allowed
// names and write no file. This is how the grammar gaps the parser now refuses were found.

const ALLOWED = ["npm", "git", "echo", "grep", "head"];
// By absolute path: spawn looks a bare name up on the child's PATH, which holds only stand-ins.
const BASH = execFileSync("sh", ["-c", "command -v bash"], { encoding: "utf8" }).trim();
const STAND_INS = ["npm", "git", "grep", "head", "cat", "id", "x", "EOF"];
const fixture = createPolicyFixture([]);
afterAll(() => fixture.cleanup());
// Each stand-in logs the path it was run as; nothing else is on PATH, so nothing runs unlogged.
for (const name of STAND_INS) fixture.executable(join(fixture.systemBin, name), 'echo "$0" >> "$LOG"\n');

const BASES = [
  "npm test",
  "npm test && npm run lint",
  "git log --oneline -n 5",
  'npm test -- --grep "a b"',
  "echo '$(cat x)'",
  "git log | head -n 5",
  "npm test >/dev/null 2>&1",
  'grep x <<< "plain text"',
  "grep x <<EOF\nplain\nEOF",
  "echo $(git rev-parse HEAD)",
  // biome-ignore lint/suspicious/noTemplateCurlyInString: shell source, not a template
  "echo ${x:-d}",
  "for f in a b; do echo $f; done",
  // biome-ignore lint/suspicious/noTemplateCurlyInString: shell source, not a template
  "x='a[$(cat)]'; echo ${x} $((1))",
];
// biome-ignore format: a token list reads better packed
const INSERTS = [
  "cat", ";cat", "\ncat", "|cat", "`cat`", "$(cat)", "'", '"', "\\", "\\\n", "#", "$", "{", "}", "(", ")",
  ">f", "<", "&", "`", "$((", "${x:-", "<<EOF\n`cat`\nEOF\n", "\t", "!", "*", "~", "[", "$[",
  "@P", "[x]", "x", "{PATH}", ";unset PATH;",
];

/** A harmless line with one or two tokens an attacker would try inserted at random places. */
const mutatedLine = fc
  .tuple(
    fc.constantFrom(...BASES),
    fc.array(fc.tuple(fc.double({ min: 0, max: 1, noNaN: true }), fc.constantFrom(...INSERTS)), {
      minLength: 1,
      maxLength: 2,
    }),
  )
  .map(([base, edits]) =>
    edits.reduce((line, [where, insert]) => {
      const at = Math.floor(where * (line.length + 1));
      return line.slice(0, at) + insert + line.slice(at);
    }, base),
  );

let runs = 0;
let allowedLines = 0;
let loggedLines = 0;

/** Runs an allowed line in real bash with the logging stand-ins; returns what ran and what was written. */
function runInBash(line: string): { ran: string[]; wrote: string[] } {
  runs += 1;
  const cwd = join(fixture.workspaceRoot, `run-${runs}`);
  mkdirSync(cwd);
  const log = join(cwd, "..", `log-${runs}`);
  const result = spawnSync(BASH, ["--norc", "--noprofile", "-c", line], {
    cwd,
    env: { PATH: fixture.systemBin, LOG: log },
    timeout: 2000,
    stdio: "ignore",
  });
  expect(result.error).toBeUndefined();
  const ran = existsSync(log)
    ? readFileSync(log, "utf8")
        .split("\n")
        .filter(Boolean)
        .map((path) => basename(path))
    : [];
  return { ran, wrote: readdirSync(cwd) };
}

it("runs nothing outside the allowlist, and writes nothing, for any line it allows (fast-check)", async () => {
  await fc.assert(
    fc.asyncProperty(mutatedLine, async (line) => {
      const parsed = await parseCommandLine(line);
      const verdict = checkAllowlist(parsed, {
        allowedBinaries: ALLOWED,
        workspaceRoot: fixture.workspaceRoot,
        pathEnv: fixture.systemBin,
      });
      if (!verdict.allowed) return;
      allowedLines += 1;
      const { ran, wrote } = runInBash(line);
      // The stand-ins must be seen to log, or "ran nothing unlisted" would hold of a run that ran nothing:
      // in a plain line (commands joined by && || ; | only) the first command always runs.
      const first = parsed.commands[0];
      if (parsed.plain && first && STAND_INS.includes(first.name)) {
        loggedLines += 1;
        expect(ran, `${JSON.stringify(line)} ran ${first.name}, which logged nothing`).toContain(first.name);
      }
      expect(
        ran.filter((name) => !ALLOWED.includes(name)),
        `${JSON.stringify(line)} ran ${ran}`,
      ).toEqual([]);
      expect(wrote, `${JSON.stringify(line)} wrote files`).toEqual([]);
    }),
    // A fixed seed, so a failure reproduces (fast-check then shrinks it to the smallest line).
    { numRuns: 400, seed: 20_260_101 },
  );
  expect(allowedLines).toBeGreaterThan(25);
  expect(loggedLines).toBeGreaterThanOrEqual(10);
});

// The same stand-ins on harmless lines whose runs are known: each logs every program the line runs.
it.each([
  ["npm test && npm run lint", ["npm", "npm"]],
  ["git log | head -n 5", ["git", "head"]],
  ["echo $(git rev-parse HEAD)", ["git"]],
  ["grep x <<EOF\nplain\nEOF", ["grep"]],
  ["git log --oneline -n 5; npm test", ["git", "npm"]],
])("an allowed %j runs in bash, and its stand-ins log %j", async (line, expected) => {
  const verdict = checkAllowlist(await parseCommandLine(line), {
    allowedBinaries: ALLOWED,
    workspaceRoot: fixture.workspaceRoot,
    pathEnv: fixture.systemBin,
  });
  expect(verdict).toEqual({ allowed: true });
  const { ran, wrote } = runInBash(line);
  expect([...ran].sort()).toEqual(expected);
  expect(wrote).toEqual([]);
});

// The corpus of ways bash evaluates text from a variable as code. Each line creates the marker file M
// when bash runs it directly, which proves its payload is live; run the way run_command does (the
// policy first, bash only if allowed), none may. The safe forms next to them are allowed and create no M.
describe("text from a variable evaluated as code, in real bash", () => {
  const marker = createPolicyFixture(["git", "ls"]);
  afterAll(() => marker.cleanup());
  const touch = execFileSync("sh", ["-c", "command -v touch"], { encoding: "utf8" }).trim();
  symlinkSync(touch, join(marker.systemBin, "touch"));

  /** Runs a line in a fresh folder whose own `git` (and `10/git`..`19/git`) creates M; true if M appeared. */
  function createsMarker(line: string): boolean {
    const cwd = mkdtempSync(join(marker.workspaceRoot, "run-"));
    // A line that moves PATH into the working folder (`unset PATH`, `{PATH}>&1`) finds these.
    for (const folder of ["", ..."0123456789".split("").map((digit) => `1${digit}`)]) {
      marker.executable(join(cwd, folder, "git"), ": > M\n");
    }
    const result = spawnSync(BASH, ["--norc", "--noprofile", "-c", line], {
      cwd,
      env: { PATH: marker.systemBin },
      timeout: 5000,
      stdio: "ignore",
    });
    expect(result.error).toBeUndefined();
    return existsSync(join(cwd, "M"));
  }

  /** What run_command would do: check the line, and run it only if the policy allows it. */
  async function createsMarkerThroughPolicy(line: string): Promise<boolean> {
    const verdict = checkAllowlist(await parseCommandLine(line), {
      allowedBinaries: EVALUATION_ALLOWED,
      workspaceRoot: marker.workspaceRoot,
      pathEnv: marker.systemBin,
    });
    return verdict.allowed && createsMarker(line);
  }

  const cases = Object.entries(EVALUATES_AS_CODE).flatMap(([group, { lines }]) =>
    lines.map((line) => [group, line] as const),
  );

  it.each(cases)("(%s) %j creates M in bash, and never through the policy", async (_group, line) => {
    expect(createsMarker(line), "the payload should be live when bash runs the line directly").toBe(true);
    expect(await createsMarkerThroughPolicy(line)).toBe(false);
  });

  it.each(SAFE_EXPANSIONS)("allows the safe %j, and bash creates no M", async (line) => {
    const verdict = checkAllowlist(await parseCommandLine(line), {
      allowedBinaries: EVALUATION_ALLOWED,
      workspaceRoot: marker.workspaceRoot,
      pathEnv: marker.systemBin,
    });
    expect(verdict).toEqual({ allowed: true });
    expect(createsMarker(line)).toBe(false);
  });
});
