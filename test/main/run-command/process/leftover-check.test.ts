import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { afterEach, describe, expect, it } from "vitest";
import {
  readBeforeSpawn,
  readForkCount,
  surelyNothingLeft,
} from "../../../../src/main/run-command/process/leftover-check";
import {
  createRunMarker,
  killProcessTree,
  RUN_MARKER_ENV,
  readProcessStartTime,
} from "../../../../src/main/run-command/process/process-tree";
import { liveSleeps, TEST_ENV, uniqueSeconds, waitFor } from "./process-probe";

const started: { child: ChildProcess; marker: string }[] = [];

afterEach(async () => {
  // Whatever a test left behind, by the pids it started.
  for (const { child, marker } of started.splice(0)) {
    if (child.pid !== undefined) await killProcessTree(child.pid, { marker, graceMs: 0 });
  }
});

/** Runs `script` as the runner does (own group, marker), waits for the root's exit, and asks the check. */
async function runAndCheck(script: string, { busy }: { busy: boolean }) {
  const marker = createRunMarker();
  const before = readBeforeSpawn();
  const child = spawn("/bin/bash", ["-c", script], {
    detached: true,
    stdio: "ignore",
    env: { ...TEST_ENV, [RUN_MARKER_ENV]: marker },
  });
  started.push({ child, marker });
  const pid = child.pid as number;
  const rootStartTime = readProcessStartTime(pid);
  await new Promise((resolve) => child.once("exit", resolve));
  // Other programs on the machine creating processes meanwhile, as on a busy machine.
  if (busy) for (let i = 0; i < 3; i++) spawnSync("/bin/true");
  return surelyNothingLeft(before, pid, { marker, rootStartTime });
}

describe.runIf(process.platform === "linux")("after the root exits: was anything left?", () => {
  it("counts every process the machine creates, so a command that forked is never taken for one that did not", async () => {
    const before = readForkCount() as number;
    expect(before).toBeGreaterThan(0);
    const child = spawn("/bin/bash", ["-c", "sleep 0.05 & sleep 0.05 & wait"], { stdio: "ignore" });
    await new Promise((resolve) => child.once("exit", resolve));
    // The root and its two sleeps at least (the rest of the machine may add more).
    expect((readForkCount() as number) - before).toBeGreaterThanOrEqual(3);
  });

  it("says nothing is left by a command that ran one program, even while other processes start", async () => {
    // A quiet machine takes the first answer (nothing created but the root); a busy one needs the pids.
    // Other tests and programs on this machine create processes too; "not sure" (a scan) is then a
    // right answer, so each is asked a few times and must say "nothing left" at least once.
    const someTime = async (script: string, busy: boolean) => {
      for (let i = 0; i < 5; i++) if (await runAndCheck(script, { busy })) return true;
      return false;
    };
    expect(await someTime("exec /bin/true", false)).toBe(true);
    expect(await someTime("exec /bin/true", true)).toBe(true);
    expect(await someTime("true; /bin/true; /bin/true", true)).toBe(true);
  });

  it("never says so for a command that left a process behind, in its group, in a session of its own, or without the marker", async () => {
    for (const [leftover, script] of [
      ["group", (s: string) => `sleep ${s} & exit 0`],
      ["session", (s: string) => `setsid sleep ${s} & exit 0`],
      ["no marker, reparented", (s: string) => `( env -i /bin/sleep ${s} & ) ; sleep 0.05; exit 0`],
    ] as const) {
      const seconds = uniqueSeconds(61);
      for (const busy of [false, true]) {
        const nothingLeft = await runAndCheck(script(seconds), { busy });
        expect(await waitFor(() => liveSleeps(seconds).length > 0)).toBe(true);
        expect(nothingLeft, `${leftover}, busy: ${busy}`).toBe(false);
        for (const pid of liveSleeps(seconds)) process.kill(pid, "SIGKILL");
      }
    }
  });
});
