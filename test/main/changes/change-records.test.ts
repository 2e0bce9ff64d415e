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
    expect(states).toEqual(["on"]);
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
});
