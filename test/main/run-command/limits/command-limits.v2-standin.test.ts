import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { type CgroupFiles, kernelCgroupFiles } from "../../../../src/main/run-command/limits/cgroup-files";
import { CommandLimiter, type LimitedRun } from "../../../../src/main/run-command/limits/command-limiter";
import { detectLimitsLayer } from "../../../../src/main/run-command/limits/limits-layer";
import { runProcess } from "../../../../src/main/run-command/process/process-runner";
import { allGone } from "./limits-probe";

/*
 * cgroup v2 cannot be written on this machine (its v2 hierarchy has no controllers), so its path is tested
 * against the file protocol alone: a stand-in tree in a temporary folder, laid out as a delegated v2 cgroup,
 * and real commands that move themselves into it (their pid written to cgroup.procs), with the kernel's
 * counters written by the test where the kernel would have written them.
 */

/** The kernel's file operations, except that removing a cgroup removes the files the kernel would have made. */
const standInFiles: CgroupFiles = {
  ...kernelCgroupFiles,
  rmdir: (path) => rmSync(path, { recursive: true }),
};

const MiB = 1024 ** 2;

function standInTree() {
  const mount = mkdtempSync(join(tmpdir(), "pi-desk-cgroup2-"));
  const own = "/user.slice/user-1000.slice/app-pi-desk.scope";
  const base = join(mount, own);
  mkdirSync(base, { recursive: true });
  writeFileSync(join(base, "cgroup.controllers"), "cpuset cpu io memory pids\n");
  writeFileSync(join(base, "cgroup.subtree_control"), "");
  const layer = detectLimitsLayer({
    mounts: `sysfs /sys sysfs rw 0 0\ncgroup2 ${mount} cgroup2 rw,nosuid,nodev,noexec 0 0\n`,
    selfCgroup: `0::${own}\n`,
    platform: "linux",
  });
  return { mount, base, layer, limiter: new CommandLimiter({ layer, files: standInFiles }) };
}

async function run(limiter: CommandLimiter, script: string, env: Record<string, string> = {}) {
  let limited: LimitedRun | undefined;
  const outcome = await runProcess({
    argv: ["/bin/bash", "-c", `exec 2>&1\n${script}`],
    cwd: "/tmp",
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", ...env },
    timeoutMs: 20_000,
    startLimits: () => {
      limited = limiter.start({ memoryBytes: 300 * MiB, processes: 100 });
      return limited;
    },
  });
  return { outcome, dirs: limited?.cgroupDirs ?? [] };
}

/** The script line that finds the command's own cgroup folder in the stand-in tree (where its pid was written). */
const FIND_OWN = `d=$(dirname "$(grep -rlx "$$" "$TREE" --include=cgroup.procs)")`;

describe("cgroup v2 (stand-in tree in a temporary folder, not a kernel)", () => {
  it("is the layer where the host's own cgroup has memory and pids and may be written", () => {
    const { layer, base } = standInTree();
    expect(layer).toEqual({ kind: "cgroup-v2", base, cpu: true });
  });

  it("writes the limits, enables the controllers on the way down, and moves the command in before it runs", async () => {
    const { base, limiter, mount } = standInTree();
    const { outcome, dirs } = await run(
      limiter,
      `echo "pid $$"; ${FIND_OWN}; echo "in $(cat "$d/cgroup.procs") $(cat "$d/memory.max") $(cat "$d/pids.max") swap $(cat "$d/memory.swap.max")"`,
      {
        TREE: mount,
      },
    );
    expect(outcome.exitCode).toBe(0);
    const pid = /pid (\d+)/.exec(outcome.output.text)?.[1];
    // What the command read of its own cgroup: its shell's pid, and the limits, written before it started.
    expect(outcome.output.text).toContain(`in ${pid} ${300 * MiB} 100 swap 0`);
    expect(dirs).toHaveLength(1);
    const [dir] = dirs as [string];
    const hostDir = join(dir, "..");
    const top = join(hostDir, "..");
    for (const level of [base, top, hostDir])
      expect(readFileSync(join(level, "cgroup.subtree_control"), "utf8")).toBe("+memory +pids +cpu");
    expect(readFileSync(join(top, "cpu.weight"), "utf8")).toBe("50");
    expect(outcome.limit).toBeUndefined();
    // Removed after the command (the stand-in's rmdir took the files the kernel would have made with it).
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(allGone(dirs)).toBe(true);
  });

  it("reads memory.events' oom_kill back as the memory limit", async () => {
    const { limiter, mount } = standInTree();
    const { outcome } = await run(
      limiter,
      `${FIND_OWN}; printf 'low 0\\nhigh 0\\nmax 4\\noom 1\\noom_kill 1\\n' >"$d/memory.events"; exit 137`,
      { TREE: mount },
    );
    expect(outcome.exitCode).toBe(137);
    expect(outcome.limit).toEqual({ kind: "memory", limit: 300 * MiB });
  });

  it("stops a running command once pids.events counts a refused fork", async () => {
    const { limiter, mount } = standInTree();
    const { outcome } = await run(limiter, `${FIND_OWN}; printf 'max 3\\n' >"$d/pids.events"; sleep 15`, {
      TREE: mount,
    });
    expect(outcome.limit).toEqual({ kind: "processes", limit: 100 });
    expect(outcome.timedOut).toBe(false);
    expect(outcome.durationMs).toBeLessThan(5_000);
  });
});

describe("a workspace's background total on cgroup v2 (stand-in tree, not a kernel)", () => {
  const group = { name: "w-standin", total: () => ({ memoryBytes: 500 * MiB, processes: 150 }) };

  async function inGroup(limiter: CommandLimiter, script: string, env: Record<string, string>) {
    let limited: LimitedRun | undefined;
    const outcome = await runProcess({
      argv: ["/bin/bash", "-c", `exec 2>&1\n${script}`],
      cwd: "/tmp",
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin", ...env },
      timeoutMs: 20_000,
      startLimits: () => {
        limited = limiter.start({ memoryBytes: 300 * MiB, processes: 100 }, group);
        return limited;
      },
    });
    return { outcome, dirs: limited?.cgroupDirs ?? [] };
  }

  it("makes the command's cgroup inside the group, whose folder holds the total and passes the controllers on", async () => {
    const { limiter, mount } = standInTree();
    const { outcome, dirs } = await inGroup(limiter, `${FIND_OWN}; echo "own $d"`, { TREE: mount });
    const own = /own (.+)$/m.exec(outcome.output.text)?.[1] as string;
    expect(own.split("/").at(-2)).toBe("w-standin");
    expect(dirs).toEqual([own]);
    const groupDir = join(own, "..");
    expect(readFileSync(join(groupDir, "memory.max"), "utf8")).toBe(String(500 * MiB));
    expect(readFileSync(join(groupDir, "pids.max"), "utf8")).toBe("150");
    expect(readFileSync(join(groupDir, "cgroup.subtree_control"), "utf8")).toBe("+memory +pids");
  });

  it("names the total when a fork was refused while the command stayed under its own limit", async () => {
    const { limiter, mount } = standInTree();
    // As kernels since 6.x count it: in the group whose limit refused it, and in the command's own too.
    const refused = `${FIND_OWN}; printf '5\n' >"$d/pids.peak"; printf 'max 1\n' >"$d/pids.events"; printf 'max 1\n' >"$d/../pids.events"; sleep 15`;
    const { outcome } = await inGroup(limiter, refused, { TREE: mount });
    expect(outcome.limit).toEqual({ kind: "processes", limit: 150 });
    // At its own limit, its own is named.
    const own = `${FIND_OWN}; printf '100\n' >"$d/pids.peak"; printf 'max 1\n' >"$d/pids.events"; printf 'max 2\n' >"$d/../pids.events"; sleep 15`;
    expect((await inGroup(limiter, own, { TREE: mount })).outcome.limit).toEqual({
      kind: "processes",
      limit: 100,
    });
  });
});

describe("the layer on other machines (from their /proc files)", () => {
  it("is cgroup v1 where memory and pids are mounted and writable", () => {
    const root = mkdtempSync(join(tmpdir(), "pi-desk-cgroup1-"));
    for (const c of ["memory", "pids", "cpu"]) mkdirSync(join(root, c, "host"), { recursive: true });
    const layer = detectLimitsLayer({
      mounts: ["memory", "pids", "cpu"]
        .map((c) => `cgroup ${root}/${c} cgroup rw,relatime,${c} 0 0`)
        .join("\n"),
      selfCgroup: "4:memory:/host\n3:pids:/host\n2:cpu:/host\n0::/\n",
      platform: "linux",
    });
    expect(layer).toEqual({
      kind: "cgroup-v1",
      memory: join(root, "memory/host"),
      pids: join(root, "pids/host"),
      cpu: join(root, "cpu/host"),
    });
  });

  it("is per-process limits on Linux without writable cgroups, and none where per-process memory is not enforced", () => {
    const bare = detectLimitsLayer({ mounts: "", selfCgroup: "", platform: "linux" });
    expect(bare.kind).toBe("rlimit");
    expect(detectLimitsLayer({ platform: "darwin" })).toMatchObject({ kind: "none", cause: "no-cgroups" });
    expect(detectLimitsLayer({ platform: "win32" })).toMatchObject({ kind: "none", cause: "windows" });
  });
});
