import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ARGUMENT_TABLE, argumentHits } from "../../../../src/main/run-command/policy/argument-table";
import { checkAllowlist } from "../../../../src/main/run-command/policy/command-policy";
import { parseCommandLine } from "../../../../src/main/run-command/shell/shell-parser";
import { FIXTURE_SETUP } from "../../approvals/fixtures/rule-corpus";
import { ARGUMENT_CASES, type ArgumentCase } from "./fixtures/argument-corpus";

// Every row of the argument table, as the allowlist policy reads it, in real bash: each line creates its
// marker when bash runs it directly (so its payload is live), and never when run the way run_command does
// (the policy first, bash only if allowed); each neighbour is allowed, and creates no marker.

const BASH = execFileSync("sh", ["-c", "command -v bash"], { encoding: "utf8" }).trim();
const root = mkdtempSync(join(tmpdir(), "pi-desk-arguments-"));
afterAll(() => rmSync(root, { recursive: true, force: true }), 60_000);
const PATH = process.env.PATH ?? "";
const has = (program: string) => spawnSync("sh", ["-c", `command -v ${program}`]).status === 0;

let folders = 0;
/** A fresh folder with the corpus's files, the case's marker program and its setup. */
function prepare(item: ArgumentCase): string {
  const dir = join(root, `case-${folders++}`);
  mkdirSync(dir);
  const run = (script: string) =>
    execFileSync(BASH, ["--norc", "--noprofile", "-c", script], {
      cwd: dir,
      env: { PATH, HOME: dir },
      stdio: "ignore",
    });
  run(FIXTURE_SETUP);
  writeFileSync(join(dir, "mkMARK"), `#!/bin/sh\n: > '${join(dir, "MARK")}'\n`, { mode: 0o755 });
  writeFileSync(join(dir, "KEEP"), "keep me\n");
  if (item.setup) run(item.setup);
  return dir;
}

const spelled = (line: string, dir: string) => line.replaceAll("DIR", dir);

/** Runs a line in real bash in `dir` (with a terminal when the case needs one). */
function runInBash(line: string, dir: string, item: ArgumentCase): void {
  const argv = item.tty ? ["script", "-qec", line, "/dev/null"] : [BASH, "--norc", "--noprofile", "-c", line];
  const result = spawnSync(argv[0] as string, argv.slice(1), {
    cwd: dir,
    env: { PATH, HOME: dir, TERM: "dumb" },
    input: item.input ?? "",
    timeout: 20_000,
    stdio: ["pipe", "ignore", "ignore"],
  });
  expect(result.error).toBeUndefined();
}

const marked = (dir: string, item: ArgumentCase) =>
  item.deletes ? !existsSync(join(dir, "KEEP")) : existsSync(join(dir, "MARK"));

async function verdict(line: string, dir: string, allow: string[]) {
  return checkAllowlist(await parseCommandLine(line), {
    allowedBinaries: allow,
    workspaceRoot: dir,
    pathEnv: PATH,
  });
}

/** The programs a case runs in bash that this machine lacks (`script` gives a case its terminal). */
const missing = (item: ArgumentCase) =>
  [
    ...item.allow.filter((name) => !["test", "declare", "echo"].includes(name)),
    ...(item.tty ? ["script"] : []),
  ].filter((program) => !has(program));

describe("the argument table under an allowlist, in real bash", () => {
  // Reported skipped, not passed, where this machine lacks a program (.ci/run installs them; gawk is not
  // Debian's default awk): the payload cannot be shown live without it.
  const unrunnable = ARGUMENT_CASES.filter((item) => missing(item).length > 0);
  if (unrunnable.length > 0) {
    it.skip.each(unrunnable.map((item) => [item.line, missing(item).join(", ")] as const))(
      "%s (not installed here: %s)",
      () => {},
    );
  }
  const runnable = ARGUMENT_CASES.filter((item) => missing(item).length === 0);
  it.each(runnable.map((item) => [item.line, item] as const))(
    "%s",
    async (_line, item) => {
      const control = prepare(item);
      const line = spelled(item.line, control);
      runInBash(item.afterwards ? `${line}; ${item.afterwards}` : line, control, item);
      expect(marked(control, item), "the payload should be live when bash runs the line directly").toBe(true);

      // The same folder serves the policy's run (nothing runs when it refuses) and then the neighbour's.
      const checked = prepare(item);
      const refused = await verdict(spelled(item.line, checked), checked, item.allow);
      expect(refused.allowed, JSON.stringify(refused)).toBe(false);
      if (!refused.allowed) expect(refused.reason).not.toMatch(/not found on PATH|not on the allowlist/);
      if (refused.allowed) runInBash(spelled(item.line, checked), checked, item);
      expect(marked(checked, item)).toBe(false);

      const neighbour = spelled(item.neighbour, checked);
      expect(await verdict(neighbour, checked, item.allow), neighbour).toEqual({ allowed: true });
      // Without a terminal or input: the neighbour of a pager case would wait in the pager.
      runInBash(neighbour, checked, { ...item, tty: undefined, input: undefined });
      expect(marked(checked, item), `${neighbour} should leave no marker`).toBe(false);
    },
    60_000,
  );

  it("has a live case for every row the policy reads, but the ones this machine cannot run", async () => {
    const covered = new Set<(typeof ARGUMENT_TABLE)[number]>();
    for (const item of ARGUMENT_CASES) {
      for (const command of (await parseCommandLine(item.line)).commands) {
        for (const hit of argumentHits(command.name, command.args)) covered.add(hit.entry);
      }
    }
    const missing = ARGUMENT_TABLE.filter((entry) => !entry.rulesOnly && !covered.has(entry)).map(
      (entry) =>
        `${entry.programs.join("/")}: ${[...(entry.options ?? []), ...(entry.words ?? [])].join(" ")}`,
    );
    // rsync, pnpm and yarn are not on these machines; npm init downloads its initializer; a submodule
    // needs a second repository served to the first. Their refusals are checked without a live run below.
    expect(missing).toEqual([
      "rsync: -e --rsh --rsync-path",
      "rsync: --log-file --write-batch --only-write-batch",
      "git: foreach",
      "npm: ",
      "pnpm/yarn: exec dlx x",
    ]);
  });

  it.each([
    ["rsync", "rsync -e ./mkMARK a.txt host:x", "rsync -e"],
    ["rsync", "rsync --log-file=MARK a.txt b.txt", "rsync --log-file=MARK"],
    ["git", "git submodule foreach ./mkMARK", "git foreach"],
    ["npm", "npm init create-thing", "npm create-thing"],
    ["yarn", "yarn dlx thing", "yarn dlx"],
    ["pnpm", "pnpm exec thing", "pnpm exec"],
  ])("refuses the %s row it cannot run live: %j", async (program, line, says) => {
    const refused = await verdict(line, root, [program]);
    expect(refused.allowed).toBe(false);
    if (!refused.allowed) expect(refused.reason).toContain(says);
  });
});
