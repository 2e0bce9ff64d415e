import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { mkdtempSync, readdirSync, renameSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { processIdentity } from "../../../../src/main/base/process-identity";
import { runProcess } from "../../../../src/main/run-command/process/process-runner";
import { readProcessStartTime } from "../../../../src/main/run-command/process/process-tree";
import { RunRegistry, reapOrphanedRuns } from "../../../../src/main/run-command/process/run-registry";

const started: ChildProcess[] = [];
afterEach(() => {
  for (const child of started.splice(0)) child.kill("SIGKILL");
});

/** Live processes whose whole command line is `sleep <tag>`. */
function sleeps(tag: string): number[] {
  return execFileSync("ps", ["-eo", "pid=,stat=,args="], { encoding: "utf8" })
    .split("\n")
    .map((line) => line.trim().split(/\s+/))
    .filter(([, stat, ...args]) => !stat?.startsWith("Z") && args.join(" ") === `sleep ${tag}`)
    .map(([pid]) => Number(pid));
}

async function until(check: () => boolean, ms: number): Promise<void> {
  for (const end = Date.now() + ms; Date.now() < end; ) {
    if (check()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error("timed out waiting");
}

/** The records in a registry folder (beside them, a live host keeps one spare file made ahead). */
const records = (dir: string) => readdirSync(dir).filter((name) => name.endsWith(".json"));

describe.runIf(process.platform === "linux")("crash recovery", () => {
  it("kills, at the next start, the command trees a SIGKILLed host left running", async () => {
    const workspace = mkdtempSync(join(tmpdir(), "pi-desk-crash-ws-"));
    const registry = mkdtempSync(join(tmpdir(), "pi-desk-crash-reg-"));
    // A real host process running a real command tree (one child left the group with setsid).
    const host = spawn(
      process.execPath,
      [
        "node_modules/.bin/jiti",
        "test/main/run-command/process/fixtures/crash-host.ts",
        workspace,
        registry,
        "sleep 45.51 & setsid sleep 45.52 & wait",
      ],
      { stdio: ["ignore", "pipe", "inherit"] },
    );
    started.push(host);
    await new Promise<void>((resolve) => host.stdout?.on("data", () => resolve()));
    await until(() => sleeps("45.51").length === 1 && sleeps("45.52").length === 1, 10_000);

    // A second host starting while this one lives (Pi Desk opened twice) leaves its running command alone.
    expect(await reapOrphanedRuns(registry)).toEqual({ records: 0, reaped: [], killed: 0 });
    expect(sleeps("45.51")).toHaveLength(1);
    expect(sleeps("45.52")).toHaveLength(1);
    expect(records(registry)).toHaveLength(1);

    host.kill("SIGKILL");
    await new Promise((resolve) => host.once("exit", resolve));
    // Detached, the tree outlives its host: this is what the record is for.
    expect(sleeps("45.51")).toHaveLength(1);
    expect(records(registry)).toHaveLength(1);

    const reaped = await reapOrphanedRuns(registry);
    expect(reaped.records).toBe(1);
    expect(reaped.killed).toBeGreaterThanOrEqual(2);
    expect(sleeps("45.51")).toEqual([]);
    expect(sleeps("45.52")).toEqual([]);
    expect(readdirSync(registry)).toEqual([]);
  }, 60_000);

  it("kills, at the next start, a background command a SIGKILLed host left running", async () => {
    const workspace = mkdtempSync(join(tmpdir(), "pi-desk-crash-ws-"));
    const registry = mkdtempSync(join(tmpdir(), "pi-desk-crash-reg-"));
    const host = spawn(
      process.execPath,
      [
        "node_modules/.bin/jiti",
        "test/main/run-command/process/fixtures/crash-host.ts",
        workspace,
        registry,
        "sleep 45.53",
        "background",
      ],
      { stdio: ["ignore", "pipe", "inherit"] },
    );
    started.push(host);
    await new Promise<void>((resolve) => host.stdout?.on("data", () => resolve()));
    expect(sleeps("45.53")).toHaveLength(1);
    expect((await reapOrphanedRuns(registry)).records).toBe(0);
    expect(sleeps("45.53")).toHaveLength(1);
    host.kill("SIGKILL");
    await new Promise((resolve) => host.once("exit", resolve));
    expect(sleeps("45.53")).toHaveLength(1);

    const reaped = await reapOrphanedRuns(registry);
    expect(reaped.records).toBe(1);
    expect(sleeps("45.53")).toEqual([]);
  }, 60_000);

  it("leaves alone a process that reused a recorded pid", async () => {
    const registry = mkdtempSync(join(tmpdir(), "pi-desk-crash-reg-"));
    const bystander = spawn("sleep", ["46.61"], { stdio: "ignore" });
    started.push(bystander);
    await until(() => sleeps("46.61").length === 1, 5000);
    const pid = bystander.pid as number;
    const record = {
      pid,
      rootStartTime: (readProcessStartTime(pid) ?? 0) - 1,
      marker: "not-its-marker",
      command: "x",
    };
    writeFileSync(join(registry, `${pid}.json`), JSON.stringify(record));
    await reapOrphanedRuns(registry);
    expect(sleeps("46.61")).toEqual([pid]);
  });

  it("has nothing to do when no record was left", async () => {
    expect(await reapOrphanedRuns(join(tmpdir(), "pi-desk-no-registry"))).toEqual({
      records: 0,
      reaped: [],
      killed: 0,
    });
  });

  it("gives back whose command each record was, so its end can be written down", async () => {
    const dir = mkdtempSync(join(tmpdir(), "pi-desk-crash-reg-"));
    const owner = { sessionId: "s-1", auditFile: "/data/audit.jsonl" };
    // A host that is gone: a pid no process has.
    const registry = new RunRegistry(dir, undefined, { pid: 0x7ffffffc, startTime: "1" }).withOwner(
      () => owner,
    );
    registry.add({ pid: 0x7ffffffd, marker: "gone-marker", command: "make build", commandId: "call-7" });
    const { reaped } = await reapOrphanedRuns(dir);
    expect(reaped).toEqual([expect.objectContaining({ command: "make build", commandId: "call-7", owner })]);
    expect(records(dir)).toEqual([]);
  });

  it("removes, at the next start, the file a dead host made ahead for its next record, and leaves a live host's", async () => {
    const dir = mkdtempSync(join(tmpdir(), "pi-desk-crash-reg-"));
    // A host that ran a command: once it ended, an empty file waits for the next command's record.
    const live = new RunRegistry(dir, undefined, processIdentity());
    live.add({ pid: 0x7ffffffd, marker: "m-done", command: "true" })();
    await until(() => readdirSync(dir).some((name) => name.startsWith(".spare-")), 5000);
    const spare = readdirSync(dir).filter((name) => name.startsWith(".spare-"));
    expect(spare).toHaveLength(1);
    expect(await reapOrphanedRuns(dir)).toEqual({ records: 0, reaped: [], killed: 0 });
    // This process (the host that made it) is alive: its file is its own.
    expect(readdirSync(dir)).toEqual(spare);
    // The same file as a host that is gone left it (a pid no process has).
    renameSync(join(dir, spare[0] as string), join(dir, ".spare-2147483644-31-0011aabb"));
    await reapOrphanedRuns(dir);
    expect(readdirSync(dir)).toEqual([]);
  });

  it("adds no exit handler per command, however many ran (a leak Node warns about past ten)", async () => {
    const registry = new RunRegistry(mkdtempSync(join(tmpdir(), "pi-desk-crash-reg-")));
    const run = () =>
      runProcess({
        argv: ["/bin/sh", "-c", "true"],
        cwd: tmpdir(),
        env: { PATH: "/usr/bin:/bin" },
        timeoutMs: 10_000,
        onStart: (started) => registry.add({ ...started, command: "true" }),
      });
    await run();
    await new Promise((resolve) => setTimeout(resolve, 20));
    const handlers = process.listenerCount("exit");
    for (let i = 0; i < 15; i++) {
      await run();
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    expect(process.listenerCount("exit")).toBe(handlers);
  });

  it("leaves the records of a live host, and reaps those of a host whose pid was reused", async () => {
    const dir = mkdtempSync(join(tmpdir(), "pi-desk-crash-reg-"));
    const bystander = spawn("sleep", ["46.62"], { stdio: "ignore" });
    started.push(bystander);
    const pid = bystander.pid as number;
    await until(() => processIdentity(pid) !== undefined, 5000);
    const startTime = processIdentity(pid)?.startTime as string;
    new RunRegistry(dir, undefined, { pid, startTime }).add({
      pid: 0x7ffffffd,
      marker: "m-live",
      command: "a",
    });
    new RunRegistry(dir, undefined, { pid, startTime: `${startTime}9` }).add({
      pid: 0x7ffffffd,
      marker: "m-reused",
      command: "b",
    });
    const { reaped } = await reapOrphanedRuns(dir);
    expect(reaped.map((record) => record.command)).toEqual(["b"]);
    expect(records(dir)).toEqual([`${0x7ffffffd}-m-live.json`]);
  });
});
