import { randomBytes } from "node:crypto";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
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

describe("the records' budget on a workspace whose own copy is larger than it", () => {
  const KIB = 1024;
  /** Waits for `check` to hold (the figures are read 2 s after a command's record). */
  async function until(check: () => boolean, ms = 20_000): Promise<void> {
    const end = Date.now() + ms;
    while (!check()) {
      if (Date.now() > end) throw new Error("timed out");
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  it("keeps the history on top of the copy of the workspace's files, and drops the oldest past it", async () => {
    // 320 KiB that does not compress: the copy alone is five times the budget.
    for (let i = 0; i < 8; i++) await put(scratch.workspace, `data/${i}.bin`, randomBytes(40 * KIB));
    const dropped: string[] = [];
    const records = await ChangeRecords.open({
      workspace: scratch.workspace,
      dataDir: scratch.dataDir,
      budgetBytes: 64 * KIB,
      onDropped: (ids) => dropped.push(...ids),
    });
    await records.whenPrepared(60_000);
    await until(() => records.state.copyBytes !== undefined);
    const copy = records.state.copyBytes as number;
    expect(copy).toBeGreaterThan(320 * KIB);
    expect(records.state.budgetBytes).toBe(copy + 64 * KIB);

    // A small command: its record is kept (the copy is not history, so there is nothing to prune).
    const { recorder } = records;
    await recorder.before("c1");
    await writeFile(join(scratch.workspace, "notes.txt"), "a note\n");
    await recorder.after("c1");
    records.settle();
    await until(() => records.state.usageBytes > copy);
    expect(records.has("c1")).toBe(true);
    expect(dropped).toEqual([]);

    // A command that writes more than the history's budget: the oldest records go.
    await recorder.before("c2");
    await writeFile(join(scratch.workspace, "big.bin"), randomBytes(96 * KIB));
    await recorder.after("c2");
    records.settle();
    await until(() => dropped.length > 0);
    expect(dropped[0]).toBe("c1");
    expect(records.has("c1")).toBe(false);
    await records.close();

    // The copy's size is kept: the next open counts the budget on top of it at once.
    const again = await ChangeRecords.open({
      workspace: scratch.workspace,
      dataDir: scratch.dataDir,
      budgetBytes: 64 * KIB,
    });
    expect(again.state.copyBytes).toBeGreaterThan(0);
    expect(again.state.budgetBytes).toBe((again.state.copyBytes as number) + 64 * KIB);
    await again.whenPrepared(60_000);
    await again.close();
  });
});
