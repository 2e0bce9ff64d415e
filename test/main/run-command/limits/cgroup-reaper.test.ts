import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type ProcessIdentity, processIdentity } from "../../../../src/main/base/process-identity";
import {
  hierarchiesOf,
  hostGroupName,
  PI_DESK_GROUP,
} from "../../../../src/main/run-command/limits/cgroup-places";
import { machineLimitsLayer } from "../../../../src/main/run-command/limits/command-limiter";
import { reapOrphanedRuns } from "../../../../src/main/run-command/process/run-registry";
import { cgroupsWritable, until } from "./limits-probe";

const writable = cgroupsWritable();
const started: ChildProcess[] = [];
afterEach(() => {
  for (const child of started.splice(0)) child.kill("SIGKILL");
});

/** The command cgroups of one host, in every hierarchy of this machine's layer. */
function commandCgroupsOf(hostPid: number): string[] {
  const host = processIdentity(hostPid);
  if (!host) return [];
  return hierarchiesOf(machineLimitsLayer()).flatMap(({ base }) => {
    const dir = join(base, PI_DESK_GROUP, hostGroupName(host));
    return existsSync(dir)
      ? readdirSync(dir, { withFileTypes: true })
          .filter((e) => e.isDirectory())
          .map((e) => join(dir, e.name))
      : [];
  });
}

/** Live processes whose whole command line is `sleep <tag>`. */
function sleeps(tag: string): number[] {
  return execFileSync("ps", ["-eo", "pid=,stat=,args="], { encoding: "utf8" })
    .split("\n")
    .map((line) => line.trim().split(/\s+/))
    .filter(
      ([, stat, ...args]) =>
        !stat?.startsWith("Z") && /^(\/bin\/)?sleep$/.test(args[0] ?? "") && args.slice(1).join(" ") === tag,
    )
    .map(([pid]) => Number(pid));
}

describe.skipIf(!writable.ok)(
  `a crashed host's cgroups${writable.ok ? "" : ` (skipped: ${writable.why})`}`,
  () => {
    it("are removed at the next start, with what was still running in them", async () => {
      const workspace = mkdtempSync(join(tmpdir(), "pi-desk-cg-ws-"));
      const registry = mkdtempSync(join(tmpdir(), "pi-desk-cg-reg-"));
      const host = spawn(
        process.execPath,
        [
          "node_modules/.bin/jiti",
          "test/main/run-command/process/fixtures/crash-host.ts",
          workspace,
          registry,
          // The third escapes every other trace: no marker variable, a session of its own, its parent gone.
          "sleep 46.61 & setsid sleep 46.62 & (setsid env -i /bin/sleep 46.63 &); wait",
        ],
        { stdio: ["ignore", "pipe", "inherit"] },
      );
      started.push(host);
      await new Promise<void>((resolve) => host.stdout?.on("data", () => resolve()));
      const pid = host.pid as number;
      // Once both sleeps run, the command's cgroup is whole (made before its first process started).
      await until(() => ["46.61", "46.62", "46.63"].every((tag) => sleeps(tag).length === 1), 10_000);
      const cgroups = commandCgroupsOf(pid);
      // One folder per hierarchy but cpu's (a command joins its host's cpu folder).
      const owned = hierarchiesOf(machineLimitsLayer()).filter((h) => h.controller !== "cpu");
      expect(cgroups).toHaveLength(owned.length);
      const hostDirs = hierarchiesOf(machineLimitsLayer()).map(({ base }) =>
        join(base, PI_DESK_GROUP, hostGroupName(processIdentity(pid) as ProcessIdentity)),
      );

      // While the host lives, another host's start leaves its cgroups alone.
      await reapOrphanedRuns(registry);
      expect(cgroups.every((dir) => existsSync(dir))).toBe(true);

      host.kill("SIGKILL");
      await new Promise((resolve) => host.once("exit", resolve));
      expect(cgroups.every((dir) => existsSync(dir))).toBe(true);

      // Detached, the command outlives its host; its run record names its cgroup, which the next start empties.
      expect(sleeps("46.61")).toHaveLength(1);
      const reaped = await reapOrphanedRuns(registry);
      expect(reaped.killed).toBeGreaterThanOrEqual(3);
      expect(sleeps("46.61")).toEqual([]);
      expect(sleeps("46.62")).toEqual([]);
      expect(sleeps("46.63")).toEqual([]);
      expect(cgroups.filter((dir) => existsSync(dir))).toEqual([]);
      expect(hostDirs.filter((dir) => existsSync(dir))).toEqual([]);
    }, 60_000);
  },
);
