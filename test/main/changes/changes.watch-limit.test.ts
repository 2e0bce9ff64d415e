import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ChangeRecords } from "../../../src/main/changes";
import { watchLimit } from "../../../src/main/changes/folder-watcher";
import { makeScratch, put, removeScratch, type Scratch } from "./changes-harness";

let scratch: Scratch;
beforeEach(async () => {
  scratch = await makeScratch();
});
afterEach(async () => {
  await removeScratch(scratch);
});

describe("inotify's watch limit", () => {
  it("is named in Settings with the one-line fix when the tree has more folders than may be watched", async () => {
    for (let i = 0; i < 10; i++) await put(scratch.workspace, `d${i}/f.txt`, `${i}\n`);
    const told: (string | undefined)[] = [];
    const records = await ChangeRecords.open({
      workspace: scratch.workspace,
      dataDir: scratch.dataDir,
      maxWatchedFolders: 4,
      onState: (state) => told.push(state.watchLimit),
    });
    await records.whenPrepared(60_000);
    const message = records.state.watchLimit as string;
    expect(message).toMatch(/more folders \(at least 5\) than the system lets Pi Desk watch/);
    expect(message).toMatch(/slower/);
    expect(message).toMatch(
      /echo fs\.inotify\.max_user_watches=\d+ \| sudo tee \/etc\/sysctl\.d\/60-pi-desk\.conf && sudo sysctl --system/,
    );
    expect(told.at(-1)).toBe(message);

    // Recording goes on, by full scans: a command's change is still found.
    const { recorder } = records;
    expect(await recorder.before("c1")).toMatchObject({ recorded: true });
    await writeFile(join(scratch.workspace, "d7", "f.txt"), "changed\n");
    const after = await recorder.after("c1");
    expect(after.recorded && after.changes.files.map((file) => file.path)).toEqual(["d7/f.txt"]);
    await records.close();
  });

  it("is not mentioned for a tree the watches cover", async () => {
    for (let i = 0; i < 10; i++) await put(scratch.workspace, `d${i}/f.txt`, `${i}\n`);
    const records = await ChangeRecords.open({ workspace: scratch.workspace, dataDir: scratch.dataDir });
    await records.whenPrepared(60_000);
    expect(records.state.state.type).toBe("on");
    expect(records.state.watchLimit).toBeUndefined();
    await records.close();
  });

  it("asks for a limit that covers the tree twice over (the watcher takes half) and names today's", () => {
    const limit = watchLimit(300_000, 65_536);
    expect(limit.message).toContain("fs.inotify.max_user_watches is 65,536");
    expect(limit.message).toContain("at least 300,000");
    expect(limit.message).toContain("max_user_watches=2097152 |");
    expect(watchLimit(30_000, 8192).message).toContain("max_user_watches=524288 |");
    expect(watchLimit(30_000, undefined).message).not.toContain("is undefined");
  });
});
