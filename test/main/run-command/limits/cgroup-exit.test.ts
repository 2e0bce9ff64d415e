import { execFileSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { hierarchiesOf, PI_DESK_GROUP } from "../../../../src/main/run-command/limits/cgroup-places";
import { machineLimitsLayer } from "../../../../src/main/run-command/limits/command-limiter";
import { cgroupsWritable } from "./limits-probe";

const writable = cgroupsWritable();

describe.skipIf(!writable.ok)(`a host's exit${writable.ok ? "" : ` (skipped: ${writable.why})`}`, () => {
  it("removes its commands' cgroups, a workspace's background group and its own folders, even right after the results", () => {
    const out = execFileSync(
      process.execPath,
      ["node_modules/.bin/jiti", "test/main/run-command/limits/fixtures/one-command-host.ts"],
      { encoding: "utf8" },
    );
    // The host's folder is named `<pid>-<start time>`; the command saw it in its own /proc/self/cgroup.
    const hostName = new RegExp(`/${PI_DESK_GROUP}/(\\d+-[0-9a-f]+)/c-`).exec(out)?.[1];
    expect(hostName).toBeDefined();
    const left = hierarchiesOf(machineLimitsLayer())
      .map(({ base }) => join(base, PI_DESK_GROUP, hostName as string))
      .filter((dir) => existsSync(dir));
    expect(out).toContain("in the background group");
    expect(left.map((dir) => [dir, readdirSync(dir).filter((n) => /^[cw]-/.test(n))])).toEqual([]);
  }, 30_000);
});
