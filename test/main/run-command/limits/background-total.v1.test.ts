import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { BackgroundGroup } from "../../../../src/main/run-command/limits/background-group";
import { runProcess } from "../../../../src/main/run-command/process/process-runner";
import { cgroupsWritable, machineLimiter, until } from "./limits-probe";

const writable = cgroupsWritable();
const MiB = 1024 ** 2;

/** Starts `script` in bash as a background command of the group, with each command's own limits. */
function backgroundRun(
  script: string,
  group: BackgroundGroup,
  own = { memoryBytes: 256 * MiB, processes: 20 },
) {
  const limiter = machineLimiter();
  let dirs: string[] = [];
  const outcome = runProcess({
    argv: ["/bin/bash", "-c", `exec 2>&1\n${script}`],
    cwd: "/tmp",
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin" },
    timeoutMs: 20_000,
    startLimits: () => {
      const run = limiter.start(own, group);
      dirs = run?.cgroupDirs ?? [];
      return run;
    },
  });
  return { outcome, dirs: () => dirs };
}

/** Live `sleep <tag>` processes. */
function sleepers(tag: string): number {
  return execFileSync("ps", ["-eo", "stat=,args="], { encoding: "utf8" })
    .split("\n")
    .filter((line) => line.trim().endsWith(`sleep ${tag}`) && !line.trim().startsWith("Z")).length;
}

describe.skipIf(!writable.ok)(
  `a workspace's total for its background commands${writable.ok ? "" : ` (skipped: ${writable.why})`}`,
  () => {
    it("holds two background commands together: the second is stopped at the total while each is within its own limit", async () => {
      const group: BackgroundGroup = {
        name: `w-test-${process.pid}`,
        total: () => ({ memoryBytes: 512 * MiB, processes: 24 }),
      };
      const tag = `54.${process.pid}`;
      // 1 shell + 12 sleeps: within its own 20, and 13 of the total's 24.
      const first = backgroundRun(`for i in $(seq 12); do sleep ${tag}1 & done; echo started; wait`, group);
      await until(() => sleepers(`${tag}1`) === 12, 5_000);
      // Another 1 + 12 would be 13 of its own 20, but the total has 11 left.
      const second = backgroundRun(`for i in $(seq 12); do sleep ${tag}2 & done; wait`, group);
      const ended = await second.outcome;
      expect(ended.limit).toEqual({ kind: "processes", limit: 24 });
      expect(ended.durationMs).toBeLessThan(5_000);
      expect(sleepers(`${tag}2`)).toBe(0);
      // The first is untouched: all its sleeps still run, in the group's folder.
      expect(sleepers(`${tag}1`)).toBe(12);
      expect(first.dirs().every((dir) => dir.includes(`/${group.name}/c-`))).toBe(true);
      execFileSync("pkill", ["-f", `sleep ${tag}1`]);
      const firstEnded = await first.outcome;
      expect(firstEnded.limit).toBeUndefined();
      await until(() => [...first.dirs(), ...second.dirs()].every((dir) => !existsSync(dir)), 3_000);
    }, 30_000);
  },
);
