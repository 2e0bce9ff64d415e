import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { LimitedRun } from "../../../../src/main/run-command/limits/command-limiter";
import { runProcess } from "../../../../src/main/run-command/process/process-runner";
import { allGone, cgroupsWritable, machineLimiter, until } from "./limits-probe";

const writable = cgroupsWritable();
const MiB = 1024 ** 2;

/** Runs `script` in bash with the given limits; returns the outcome and the cgroup's folders. */
async function limitedRun(
  script: string,
  limits: { memoryBytes: number; processes: number },
  timeoutMs = 20_000,
) {
  const limiter = machineLimiter();
  let run: LimitedRun | undefined;
  const outcome = await runProcess({
    argv: ["/bin/bash", "-c", `exec 2>&1\n${script}`],
    cwd: "/tmp",
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin" },
    timeoutMs,
    startLimits: () => {
      run = limiter.start(limits);
      return run;
    },
  });
  return { outcome, dirs: run?.cgroupDirs ?? [] };
}

describe.skipIf(!writable.ok)(
  `resource limits on this machine's cgroups${writable.ok ? "" : ` (skipped: ${writable.why})`}`,
  () => {
    it("runs a command inside a cgroup of its own, which holds nothing of it afterwards", async () => {
      const limits = { memoryBytes: 256 * MiB, processes: 64 };
      const { outcome, dirs } = await limitedRun("cat /proc/self/cgroup; sleep 30 & echo started", limits);
      expect(outcome.exitCode).toBe(0);
      expect(dirs.length).toBeGreaterThan(0);
      for (const dir of dirs) {
        const name = dir.split("/").at(-1) as string;
        expect(outcome.output.text).toContain(name);
      }
      expect(outcome.limit).toBeUndefined();
      // Its background sleep is gone with it; the cgroup is kept for the next command, or removed.
      await until(() => dirs.every((dir) => !existsSync(dir) || membersOf(dir).length === 0), 3_000);
    });

    it("runs two commands at once in two cgroups, and a command after one that reached its limit clean", async () => {
      const limits = { memoryBytes: 64 * MiB, processes: 64 };
      const [first, second] = await Promise.all([
        limitedRun("sleep 0.3", limits),
        limitedRun("sleep 0.3", limits),
      ]);
      expect(first.dirs).not.toEqual(second.dirs);
      // What a command's end does with its cgroup runs once its result is out: let both have run.
      await afterResults();
      const hog = await limitedRun("python3 -c \"b = b'x' * (256 * 1024 * 1024)\"", limits);
      expect(hog.outcome.limit).toEqual({ kind: "memory", limit: 64 * MiB });
      // Kept cgroups are only ever clean ones: a cgroup that counted an out-of-memory kill would make the
      // next command look stopped by its memory limit too.
      await afterResults();
      const next = await limitedRun("echo fine", limits);
      expect(next.outcome.output.text).toContain("fine");
      expect(next.outcome.limit).toBeUndefined();
    });

    it("gives a command started the moment the previous result is out that command's cgroup, not new folders", async () => {
      // Limits no other test here uses: the kept cgroup is the process's one, and these find only their own.
      const limits = { memoryBytes: 96 * MiB, processes: 48 };
      const limiter = machineLimiter();
      const first = limiter.start(limits) as LimitedRun;
      const ran = spawnSync("/bin/bash", first.wrap(["/bin/bash", "-c", "cat /proc/self/cgroup"]).slice(1), {
        encoding: "utf8",
      });
      expect(ran.stdout).toContain(first.cgroupDirs[0]?.split("/").at(-1));
      await first.finish();
      // No turn of the event loop in between, as when an agent's next command follows at once: it must not
      // pay for making folders and writing limits on its path (seen failing when the cgroup was kept only
      // after a setImmediate: the second command made new folders).
      const second = limiter.start(limits) as LimitedRun;
      expect(second.cgroupDirs).toEqual(first.cgroupDirs);
      await second.finish();
    });

    it("stops a fork bomb at its process limit within seconds, while another command runs, and leaves nothing", async () => {
      // A number sleep takes, unlikely to be anyone else's: how its leftovers are found.
      const tag = `1000.${process.pid}${Date.now() % 10_000}`;
      // The bomb's first shell stays, forking sleepers without end: only the limit stops it before its timeout.
      const bomb = limitedRun(`while true; do sleep ${tag} 2>/dev/null & done`, {
        memoryBytes: 256 * MiB,
        processes: 64,
      });
      await new Promise((resolve) => setTimeout(resolve, 300));
      const startedAt = performance.now();
      const other = await limitedRun("echo second done", { memoryBytes: 256 * MiB, processes: 64 });
      expect(other.outcome.output.text).toContain("second done");
      expect(performance.now() - startedAt).toBeLessThan(2_000);
      const { outcome, dirs } = await bomb;
      expect(outcome.limit).toEqual({ kind: "processes", limit: 64 });
      expect(outcome.timedOut).toBe(false);
      expect(outcome.durationMs).toBeLessThan(5_000);
      expect(leftovers(tag)).toEqual([]);
      await until(() => allGone(dirs), 3_000);
    });

    it("kills a program that allocates past its memory limit alone, and says it was the memory", async () => {
      const hog = "python3 -c \"b = b'x' * (256 * 1024 * 1024); print('allocated')\"";
      const { outcome, dirs } = await limitedRun(`${hog}; echo "hog ended $?"`, {
        memoryBytes: 64 * MiB,
        processes: 64,
      });
      // Its shell lived on to say how the hog ended: only the hog was killed.
      expect(outcome.output.text).toContain("hog ended 137");
      expect(outcome.output.text).not.toMatch(/^allocated$/m);
      expect(outcome.limit).toEqual({ kind: "memory", limit: 64 * MiB });
      await until(() => allGone(dirs), 3_000);
    });
  },
);

/** Live processes whose command line holds `tag`. */
function leftovers(tag: string): string[] {
  return execFileSync("ps", ["-eo", "pid=,stat=,args="], { encoding: "utf8" })
    .split("\n")
    .filter((line) => line.includes(`sleep ${tag}`) && !/^\s*\d+\s+Z/.test(line));
}

/** The pids in one cgroup folder. */
function membersOf(dir: string): string[] {
  return readFileSync(join(dir, "cgroup.procs"), "utf8").split("\n").filter(Boolean);
}

/** Lets what runs after a command's result (its cgroup kept or removed) run. */
function afterResults(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
