import { type ChildProcess, spawn } from "node:child_process";
import { afterEach, describe, expect, it } from "vitest";
import {
  createRunMarker,
  findTreePids,
  killProcessTree,
  RUN_MARKER_ENV,
  readProcessStartTime,
  readStartClock,
  type StartClock,
} from "../../../../src/main/run-command/process/process-tree";
import { liveSleeps, TEST_ENV, uniqueSeconds, waitFor } from "./process-probe";

const started: { child: ChildProcess; marker?: string }[] = [];

/** Starts `script` the way the runner does: own group, marker in the environment, the clocks read before. */
function startTree(script: string, marker = createRunMarker()) {
  const startedBefore: StartClock = readStartClock();
  const child = spawn("/bin/bash", ["-c", script], {
    detached: true,
    stdio: "ignore",
    env: { ...TEST_ENV, [RUN_MARKER_ENV]: marker },
  });
  started.push({ child, marker });
  const pid = child.pid as number;
  return { pid, marker, rootStartTime: readProcessStartTime(pid), startedBefore, child };
}

afterEach(async () => {
  // Whatever a failing test left behind, by the pids it started.
  for (const { child, marker } of started.splice(0)) {
    if (child.pid !== undefined) await killProcessTree(child.pid, { marker, graceMs: 0 });
  }
});

describe.runIf(process.platform === "linux")("process tree on Linux", () => {
  it("finds and kills group members, setsid and double-forked escapees, and a TERM-ignoring child", async () => {
    const inGroup = uniqueSeconds(41);
    const viaSetsid = uniqueSeconds(42);
    const doubleForked = uniqueSeconds(43);
    const ignoresTerm = uniqueSeconds(44);
    const root = uniqueSeconds(45);
    const tree = startTree(`
      sleep ${inGroup} &
      setsid sleep ${viaSetsid} &
      ( ( setsid sleep ${doubleForked} & ) & )
      ( trap '' TERM; exec sleep ${ignoresTerm} ) &
      sleep ${root}
    `);
    const all = [inGroup, viaSetsid, doubleForked, ignoresTerm, root];
    expect(await waitFor(() => all.every((s) => liveSleeps(s).length === 1))).toBe(true);

    const found = await findTreePids(tree.pid, tree);
    for (const s of all) expect(found).toContain(liveSleeps(s)[0]);

    const before = performance.now();
    const result = await killProcessTree(tree.pid, tree);
    const killMs = performance.now() - before;
    expect(result.survivors).toEqual([]);
    expect(result.killed).toBeGreaterThanOrEqual(all.length);
    for (const s of all) expect(liveSleeps(s)).toEqual([]);
    // Loose: the grace is 50 ms; a shared 2-core CI machine gets a wide margin.
    expect(killMs).toBeLessThan(1_000);
  });

  it("finds a process that left group, session and ppid chain only through the marker", async () => {
    const escaped = uniqueSeconds(46);
    const tree = startTree(`( ( setsid sleep ${escaped} & ) & ); sleep 30`);
    expect(await waitFor(() => liveSleeps(escaped).length === 1)).toBe(true);
    const [escapee] = liveSleeps(escaped);

    expect(await findTreePids(tree.pid, { rootStartTime: tree.rootStartTime })).not.toContain(escapee);
    expect(await findTreePids(tree.pid, tree)).toContain(escapee);
    await killProcessTree(tree.pid, tree);
    expect(liveSleeps(escaped)).toEqual([]);
  });

  it("reads every process when the wall clock was stepped since the spawn (no inode-time shortcut)", async () => {
    const escaped = uniqueSeconds(51);
    const tree = startTree(`( ( setsid sleep ${escaped} & ) & ); sleep 30`);
    expect(await waitFor(() => liveSleeps(escaped).length === 1)).toBe(true);
    const [escapee] = liveSleeps(escaped);
    // As if the clock had been an hour fast at the spawn and was then set right: every inode time of the
    // tree is "before" the spawn. A scan that trusted the clock would skip the whole tree.
    const stepped: StartClock = { wallMs: Date.now() + 3_600_000, monoMs: performance.now() };
    expect(await findTreePids(tree.pid, { ...tree, startedBefore: stepped })).toContain(escapee);
    const result = await killProcessTree(tree.pid, { ...tree, startedBefore: stepped });
    expect(result.survivors).toEqual([]);
    expect(liveSleeps(escaped)).toEqual([]);
  });

  it("follows the ppid chain to children that dropped the marker (env -i)", async () => {
    const clean = uniqueSeconds(47);
    const tree = startTree(`env -i /bin/sleep ${clean} & wait`);
    expect(await waitFor(() => liveSleeps(clean).length === 1)).toBe(true);
    expect(await findTreePids(tree.pid, tree)).toContain(liveSleeps(clean)[0]);
    await killProcessTree(tree.pid, tree);
    expect(liveSleeps(clean)).toEqual([]);
  });

  it("leaves processes outside the tree alone", async () => {
    const bystanderSeconds = uniqueSeconds(48);
    const bystander = spawn("/bin/sleep", [bystanderSeconds], { stdio: "ignore", detached: true });
    started.push({ child: bystander });
    const tree = startTree(`sleep ${uniqueSeconds(49)}`);
    await waitFor(() => liveSleeps(bystanderSeconds).length === 1);

    await killProcessTree(tree.pid, tree);
    expect(liveSleeps(bystanderSeconds)).toEqual([bystander.pid]);
  });

  it("does not count processes that started before the root (pid reuse guard)", async () => {
    const tree = startTree(`sleep ${uniqueSeconds(50)}`);
    const future = (tree.rootStartTime ?? 0) + 1_000_000;
    expect(await findTreePids(tree.pid, { marker: tree.marker, rootStartTime: future })).toEqual([]);
  });

  it("treats zombies as gone instead of waiting for someone to reap them", async () => {
    // The exec'd sleep never waits for its child, so the short sleep stays a zombie in the tree.
    const root = uniqueSeconds(51);
    const tree = startTree(`sleep 0.05 & exec sleep ${root}`);
    await waitFor(() => liveSleeps(root).length === 1);
    let found: number[] = [];
    for (let tries = 0; tries < 100 && found.length !== 1; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      found = await findTreePids(tree.pid, tree);
    }
    expect(found).toEqual([tree.pid]);

    const result = await killProcessTree(tree.pid, tree);
    expect(result).toEqual({ killed: 1, survivors: [] });
  });

  it("returns at once for a tree that is already gone", async () => {
    const tree = startTree("exit 0");
    await waitFor(() => readProcessStartTime(tree.pid) === undefined);
    const before = performance.now();
    expect(await killProcessTree(tree.pid, tree)).toEqual({ killed: 0, survivors: [] });
    expect(performance.now() - before).toBeLessThan(500);
  });
});
