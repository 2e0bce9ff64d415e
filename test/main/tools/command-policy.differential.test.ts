import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync } from "node:fs";
import { basename, join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { checkAllowlist } from "../../../src/main/tools/command-policy";
import { parseCommandLine } from "../../../src/main/tools/shell-parser";
import { createPolicyFixture } from "./policy-fixture";

// Differential check against real bash: lines near harmless ones are mutated, and every line the policy
// allows is run by bash with stand-ins that log their names. An allowed line must run only allowed
// names and write no file. This is how the grammar gaps the parser now refuses were found.

const ALLOWED = ["npm", "git", "echo", "grep", "head"];
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
];
// biome-ignore format: a token list reads better packed
const INSERTS = [
  "cat", ";cat", "\ncat", "|cat", "`cat`", "$(cat)", "'", '"', "\\", "\\\n", "#", "$", "{", "}", "(", ")",
  ">f", "<", "&", "`", "$((", "${x:-", "<<EOF\n`cat`\nEOF\n", "\t", "!", "*", "~", "[", "$[",
];

/** A small deterministic generator, so a failure reproduces. */
function generator(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
}

it("runs nothing outside the allowlist, and writes nothing, for any line it allows", async () => {
  const random = generator(20_260_101);
  const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)] as T;
  const failures: string[] = [];
  let allowedLines = 0;
  for (let k = 0; k < 200; k++) {
    let line = pick(BASES);
    for (let edit = 0; edit < 1 + Math.floor(random() * 2); edit++) {
      const at = Math.floor(random() * (line.length + 1));
      line = line.slice(0, at) + pick(INSERTS) + line.slice(at);
    }
    const parsed = await parseCommandLine(line);
    const verdict = checkAllowlist(parsed, {
      allowedBinaries: ALLOWED,
      workspaceRoot: fixture.workspaceRoot,
      pathEnv: fixture.systemBin,
    });
    if (!verdict.allowed) continue;
    allowedLines++;
    const cwd = join(fixture.workspaceRoot, `run-${k}`);
    mkdirSync(cwd);
    const log = join(cwd, "..", `log-${k}`);
    spawnSync("bash", ["--norc", "--noprofile", "-c", line], {
      cwd,
      env: { PATH: fixture.systemBin, LOG: log },
      timeout: 2000,
      stdio: "ignore",
    });
    const ran = existsSync(log)
      ? readFileSync(log, "utf8")
          .split("\n")
          .filter(Boolean)
          .map((path) => basename(path))
      : [];
    const outside = ran.filter((name) => !ALLOWED.includes(name));
    if (outside.length > 0 || readdirSync(cwd).length > 0) {
      failures.push(
        `${JSON.stringify(line)} ran ${ran.join(", ") || "nothing"}; wrote ${readdirSync(cwd).join(", ")}`,
      );
    }
  }
  expect(failures).toEqual([]);
  expect(allowedLines).toBeGreaterThan(30);
});
