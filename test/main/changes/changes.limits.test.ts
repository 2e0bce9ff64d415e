import { randomBytes } from "node:crypto";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ChangeRecorder } from "../../../src/main/changes";
import { makeScratch, openRecorder, put, removeScratch, type Scratch } from "./changes-harness";

let scratch: Scratch;
let recorder: ChangeRecorder | undefined;

beforeEach(async () => {
  scratch = await makeScratch();
  await put(scratch.workspace, "a.txt", "a\n");
});
afterEach(async () => {
  await recorder?.close();
  await removeScratch(scratch);
});

describe("when recording cannot work", () => {
  it("is off with the reason when git is missing, and every call says so instead of throwing", async () => {
    recorder = await openRecorder(scratch, { gitBinary: "/nonexistent/git" });
    expect(recorder.state).toEqual({
      type: "off",
      reason: expect.stringMatching(/git was not found.*Install git/),
    });
    expect(await recorder.before("c1")).toEqual({
      recorded: false,
      reason: expect.stringMatching(/git was not found/),
    });
    expect(await recorder.after("c1")).toMatchObject({ recorded: false });
    expect((await recorder.undo("c1")).refused[0]?.reason).toMatch(/git was not found/);
    expect(await recorder.changeSet("c1")).toBeUndefined();
  });

  it("turns off for a workspace with more files than the limit", async () => {
    for (let i = 0; i < 12; i++) await put(scratch.workspace, `f${i}.txt`, `${i}\n`);
    recorder = await openRecorder(scratch, { maxFiles: 10 });
    expect(recorder.state).toEqual({ type: "on" });
    expect(await recorder.prepare()).toEqual({
      type: "off",
      reason: expect.stringMatching(/more than 10 files not ignored \(13 found\).*\.gitignore/),
    });
    expect(await recorder.before("c1")).toMatchObject({ recorded: false });
  });

  it("turns off when the first snapshot takes longer than allowed", async () => {
    for (let i = 0; i < 200; i++) await put(scratch.workspace, `f${i}.txt`, `${i}\n`.repeat(1000));
    recorder = await openRecorder(scratch, { firstSnapshotTimeoutMs: 1 });
    expect(await recorder.before("c1")).toEqual({
      recorded: false,
      reason: expect.stringMatching(/took too long/),
    });
    expect(recorder.state.type).toBe("off");
  });
});

describe("the first snapshot", () => {
  it("does not hold up a command approved while it is taken: that one runs unrecorded", async () => {
    for (let i = 0; i < 50; i++) await put(scratch.workspace, `f${i}.txt`, `${i}\n`);
    recorder = await openRecorder(scratch);
    const prepared = recorder.prepare();
    expect(await recorder.before("early")).toEqual({
      recorded: false,
      reason: expect.stringMatching(/first snapshot .* still being taken/),
    });
    expect(await prepared).toEqual({ type: "on" });
    expect(await recorder.before("later")).toMatchObject({ recorded: true });
  });
});

describe("space", () => {
  it("reports the space in use and drops the oldest records to fit a budget", async () => {
    recorder = await openRecorder(scratch);
    // Random bytes: zlib cannot shrink them, so each version takes its full size in the repository.
    const noise = () => randomBytes(300_000);
    for (const id of ["c1", "c2", "c3", "c4"]) {
      await recorder.before(id);
      await put(scratch.workspace, "blob.bin", noise());
      await recorder.after(id);
    }
    const used = await recorder.usage();
    expect(used).toBeGreaterThan(4 * 250_000);
    const result = await recorder.prune(used / 2);
    expect(result.dropped[0]).toBe("c1");
    expect(result.dropped).not.toContain("c4");
    expect(result.bytesAfter).toBeLessThanOrEqual(used / 2);
    expect(await recorder.usage()).toBe(result.bytesAfter);
    expect(await recorder.changeSet("c1")).toBeUndefined();
    expect((await recorder.changeSet("c4"))?.files.map((file) => file.path)).toEqual(["blob.bin"]);
    expect((await recorder.undo("c4")).restored).toEqual(["blob.bin"]);
    // A content whose object a prune dropped comes back: it is stored again, so a later undo has it.
    const gone = randomBytes(1000);
    const step = async (id: string, edit: () => Promise<void>) => {
      await recorder?.before(id);
      await edit();
      expect((await recorder?.after(id))?.recorded).toBe(true);
    };
    await step("c5", () => put(scratch.workspace, "blob.bin", gone));
    await step("c6", () => put(scratch.workspace, "blob.bin", "text now\n"));
    await recorder.prune(0);
    await step("c7", () => put(scratch.workspace, "other.bin", gone));
    await step("c8", () => put(scratch.workspace, "other.bin", "changed\n"));
    expect((await recorder.undo("c8")).restored).toEqual(["other.bin"]);
    expect(await readFile(join(scratch.workspace, "other.bin"))).toEqual(gone);
  });

  it("is off with the reason when git is gone from an existing repository", async () => {
    await (await openRecorder(scratch)).close();
    recorder = await openRecorder(scratch, { gitBinary: "/nonexistent/git" });
    expect(recorder.state).toEqual({ type: "off", reason: expect.stringMatching(/git was not found/) });
  });
});
