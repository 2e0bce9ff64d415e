import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { processIdentity } from "../../../src/main/base/process-identity";
import {
  acquireWorkspaceLock,
  WorkspaceInUseError,
  type WorkspaceOwner,
  workspaceLockFile,
} from "../../../src/main/storage/workspace-lock";

// Real processes take the lock: a live owner is a process that runs, a dead one a process that was
// SIGKILLed (so it had no chance to release), and racers are separate processes started for one moment.

let dir: string;
const started: ChildProcess[] = [];
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "pi-desk-lock-"));
});
afterEach(() => {
  for (const child of started.splice(0)) child.kill("SIGKILL");
  rmSync(dir, { recursive: true, force: true });
});

interface Outcome {
  won: boolean;
  owner?: WorkspaceOwner;
}

/** Starts a lock-taker process; resolves with it and what it found. */
function taker(
  startAt = 0,
  then: "hold" | "exit" | "throw" = "hold",
): Promise<{ child: ChildProcess; outcome: Outcome }> {
  const child = spawn(
    process.execPath,
    ["node_modules/.bin/jiti", "test/main/storage/fixtures/lock-taker.ts", dir, String(startAt), then],
    { stdio: ["ignore", "pipe", "ignore"] },
  );
  started.push(child);
  return new Promise((resolve, reject) => {
    let out = "";
    child.stdout?.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes("\n")) resolve({ child, outcome: JSON.parse(out) as Outcome });
    });
    child.once("exit", (code) => {
      if (!out.includes("\n")) reject(new Error(`the lock taker exited (${code}) without a word`));
    });
  });
}

const exited = (child: ChildProcess) =>
  new Promise<void>((resolve) =>
    child.exitCode !== null || child.signalCode !== null ? resolve() : child.once("exit", () => resolve()),
  );

const lockOwner = () => JSON.parse(readFileSync(workspaceLockFile(dir), "utf8")) as WorkspaceOwner;

describe("the owner lock of a workspace", () => {
  it("is refused while its owner lives, naming the owner", async () => {
    const { child, outcome } = await taker();
    expect(outcome.won).toBe(true);
    const attempt = acquireWorkspaceLock(dir, "desktop app");
    expect(attempt.lock).toBeUndefined();
    expect(attempt.owner).toMatchObject({ pid: child.pid, reach: `racer ${child.pid}` });
    expect(new WorkspaceInUseError(attempt.owner as WorkspaceOwner).message).toBe(
      `This folder is already open in Pi Desk (pid ${child.pid}, racer ${child.pid}). Close it first, or open another folder.`,
    );
    // Refused, it left the owner's lock as it was.
    expect(lockOwner().pid).toBe(child.pid);
  });

  it("is taken over once its owner died without releasing it", async () => {
    const { child } = await taker();
    child.kill("SIGKILL");
    await exited(child);
    expect(lockOwner().pid).toBe(child.pid);
    const attempt = acquireWorkspaceLock(dir, "desktop app");
    expect(attempt.lock).toBeDefined();
    expect(lockOwner()).toMatchObject({ pid: process.pid, reach: "desktop app" });
    attempt.lock?.release();
  });

  it("is taken over when its pid now belongs to a process that started at another time", async () => {
    const bystander = spawn("sleep", ["30"], { stdio: "ignore" });
    started.push(bystander);
    const pid = bystander.pid as number;
    const real = processIdentity(pid);
    expect(real).toBeDefined();
    writeFileSync(
      workspaceLockFile(dir),
      JSON.stringify({ pid, startTime: `${real?.startTime}0`, reach: "desktop app", since: 1, claim: "old" }),
    );
    const attempt = acquireWorkspaceLock(dir, "desktop app");
    expect(attempt.lock).toBeDefined();
    expect(lockOwner().pid).toBe(process.pid);
    // Taking the lock touched no process: the one that reused the pid runs on.
    expect(bystander.exitCode).toBeNull();
    attempt.lock?.release();
  });

  it.each([
    ["not JSON", "{ half a lock"],
    ["empty", ""],
    ["JSON that is no lock", '{"pid":"x"}'],
  ])("is taken over when the lock file is corrupt (%s)", (_, text) => {
    writeFileSync(workspaceLockFile(dir), text);
    const attempt = acquireWorkspaceLock(dir, "desktop app");
    expect(attempt.lock).toBeDefined();
    expect(lockOwner().pid).toBe(process.pid);
    attempt.lock?.release();
  });

  it.each([
    ["free", () => {}],
    [
      "left by a dead owner",
      () =>
        writeFileSync(
          workspaceLockFile(dir),
          JSON.stringify({ pid: 0x7ffffffd, startTime: "1", reach: "desktop app", since: 1, claim: "dead" }),
        ),
    ],
  ])(
    "has exactly one winner among hosts racing for it (%s)",
    async (_, prepare) => {
      prepare();
      const at = Date.now() + 1500;
      const outcomes = await Promise.all(Array.from({ length: 6 }, () => taker(at)));
      const winners = outcomes.filter(({ outcome }) => outcome.won);
      expect(winners).toHaveLength(1);
      const winner = winners[0]?.child.pid;
      for (const { outcome } of outcomes.filter(({ outcome }) => !outcome.won)) {
        expect(outcome.owner?.pid).toBe(winner);
      }
      expect(lockOwner().pid).toBe(winner);
      // No temporary file or takeover guard is left beside it.
      expect(readdirSync(dir)).toEqual(["owner.json"]);
    },
    30_000,
  );

  it("is released by a clean release, and a new host takes it at once", () => {
    const first = acquireWorkspaceLock(dir, "desktop app");
    first.lock?.release();
    expect(existsSync(workspaceLockFile(dir))).toBe(false);
    const second = acquireWorkspaceLock(dir, "desktop app");
    expect(second.lock).toBeDefined();
    second.lock?.release();
  });

  it.each(["exit", "throw"] as const)("is released when its host leaves by %s", async (then) => {
    const { child, outcome } = await taker(0, then);
    expect(outcome.won).toBe(true);
    await exited(child);
    expect(existsSync(workspaceLockFile(dir))).toBe(false);
  });

  it("is never removed by a host whose lock was taken over, and says how to reach its owner", () => {
    const mine = acquireWorkspaceLock(dir, "browser host, starting").lock;
    mine?.update("browser host on http://127.0.0.1:8765");
    expect(lockOwner().reach).toBe("browser host on http://127.0.0.1:8765");
    // Another host judged this one dead and took over (here: the file names another claim).
    writeFileSync(workspaceLockFile(dir), JSON.stringify({ ...lockOwner(), claim: "someone else" }));
    mine?.release();
    expect(lockOwner().claim).toBe("someone else");
  });
});
