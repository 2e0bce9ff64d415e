import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ChangeRecords } from "../../../src/main/changes";
import { makeScratch, put, removeScratch, type Scratch } from "./changes-harness";

let scratch: Scratch;
beforeEach(async () => {
  scratch = await makeScratch();
});
afterEach(async () => {
  await removeScratch(scratch);
});

describe("one workspace's change records", () => {
  it("are preparing until the first snapshot is taken, then on, with the space in use", async () => {
    await put(scratch.workspace, "a.txt", "a\n");
    const states: string[] = [];
    const records = await ChangeRecords.open({
      workspace: scratch.workspace,
      dataDir: scratch.dataDir,
      onState: (state) => states.push(state.state.type),
    });
    expect(records.state.state.type).toBe("preparing");
    await records.whenPrepared(60_000);
    expect(records.state.state.type).toBe("on");
    // Progress while preparing (see below), then on once.
    expect(states.at(-1)).toBe("on");
    expect(states.filter((type) => type !== "preparing")).toEqual(["on"]);
    expect(records.state.progress).toBeUndefined();
    expect(records.state.usageBytes).toBeGreaterThan(0);
    await records.close();
  });

  it("stop waiting for the first snapshot at once for a command already cancelled, and at the limit otherwise", async () => {
    // Enough files that the first snapshot takes a while.
    await Promise.all(
      Array.from({ length: 2000 }, (_, i) =>
        put(scratch.workspace, `d${i % 40}/f${i}.txt`, `${i}\n`.repeat(200)),
      ),
    );
    const records = await ChangeRecords.open({ workspace: scratch.workspace, dataDir: scratch.dataDir });
    const cancelled = new AbortController();
    cancelled.abort();
    let started = performance.now();
    await records.whenPrepared(60_000, cancelled.signal);
    expect(performance.now() - started).toBeLessThan(50);
    started = performance.now();
    await records.whenPrepared(1);
    expect(performance.now() - started).toBeLessThan(1000);
    expect(records.state.state.type).toBe("preparing");
    await records.whenPrepared(60_000);
    expect(records.state.state.type).toBe("on");
    await records.close();
  });

  it("tell the first snapshot's progress, files scanned of the total, as it is taken", async () => {
    // Enough files that the snapshot yields (and tells) more than once on the way.
    await Promise.all(
      Array.from({ length: 3000 }, (_, i) =>
        put(scratch.workspace, `d${i % 30}/f${i}.txt`, `${i}\n`.repeat(300)),
      ),
    );
    await put(scratch.workspace, ".gitignore", "ignored/\n");
    await Promise.all(
      Array.from({ length: 50 }, (_, i) => put(scratch.workspace, `ignored/f${i}.txt`, "x\n")),
    );
    const told: { type: string; scanned?: number; total?: number }[] = [];
    const records = await ChangeRecords.open({
      workspace: scratch.workspace,
      dataDir: scratch.dataDir,
      onState: (state) => told.push({ type: state.state.type, ...state.progress }),
    });
    await records.whenPrepared(60_000);
    await records.close();
    const preparing = told.filter((event) => event.type === "preparing");
    // Counting first (total 0), then on the way with the total known (ignored files left out), then done.
    expect(preparing[0]).toEqual({ type: "preparing", scanned: 0, total: 0 });
    const counted = preparing.slice(1);
    expect(counted.length).toBeGreaterThanOrEqual(2);
    for (const event of counted) expect(event.total).toBe(3001);
    const scanned = counted.map((event) => event.scanned as number);
    expect(scanned).toEqual([...scanned].sort((a, b) => a - b));
    expect(scanned.at(-1)).toBe(3001);
    expect(scanned.some((n) => n > 0 && n < 3001) || counted.length === 1).toBe(true);
    expect(told.at(-1)).toEqual({ type: "on" });
  });

  it("count towards the total the stat cache names when the workspace opens again", async () => {
    for (let i = 0; i < 20; i++) await put(scratch.workspace, `f${i}.txt`, `${i}\n`);
    await new Promise((resolve) => setTimeout(resolve, 50)); // written well before the scan: not racy
    const first = await ChangeRecords.open({ workspace: scratch.workspace, dataDir: scratch.dataDir });
    await first.whenPrepared(60_000);
    await first.close();
    const told: ({ scanned: number; total: number } | undefined)[] = [];
    const again = await ChangeRecords.open({
      workspace: scratch.workspace,
      dataDir: scratch.dataDir,
      onState: (state) => told.push(state.progress),
    });
    await again.whenPrepared(60_000);
    await again.close();
    // No counting pass this time: the cache knows the total, and nothing was hashed again.
    expect(told.filter(Boolean)).toEqual([{ scanned: 20, total: 20 }]);
    expect(again.recorder.lastHashed).toBe(0);
  });
});
