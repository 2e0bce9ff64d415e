import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { OutputQuota } from "../../../../src/main/run-command/output/output-quota";
import type { SavedOutputsState } from "../../../../src/shared/host-state";
import { makeWorkspace, runTool } from "../run-command-harness";

const KIB = 1024;
const scratch = mkdtempSync(join(tmpdir(), "output-quota-test-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A folder holding files of the given sizes, the first the oldest (an hour apart). */
function folderWith(...kib: number[]): { dir: string; paths: string[] } {
  const dir = mkdtempSync(join(scratch, "outputs-"));
  const paths = kib.map((size, i) => {
    const path = join(dir, `old-${i}.log`);
    writeFileSync(path, Buffer.alloc(size * KIB, "x"));
    const when = new Date(Date.now() - (kib.length - i) * 60 * 60 * 1000);
    utimesSync(path, when, when);
    return path;
  });
  return { dir, paths };
}

/** What the folder really takes. */
function onDisk(dir: string): number {
  return readdirSync(dir).reduce((sum, name) => sum + statSync(join(dir, name)).size, 0);
}

describe("OutputQuota", () => {
  it("counts what the folder holds, and removes the oldest first when an output needs the room", async () => {
    const { dir, paths } = folderWith(100, 100, 100);
    const told: SavedOutputsState[] = [];
    const quota = await OutputQuota.open({
      dir,
      quotaBytes: 350 * KIB,
      budgetBytes: 64 * KIB,
      onChange: (state) => told.push(state),
    });
    expect(quota.state()).toEqual({
      usedBytes: 300 * KIB,
      files: 3,
      quotaBytes: 350 * KIB,
      budgetBytes: 64 * KIB,
    });
    const fresh = join(dir, "new.log");
    writeFileSync(fresh, Buffer.alloc(60 * KIB));
    await quota.using(fresh, 60 * KIB);
    expect(paths.map(existsSync)).toEqual([false, true, true]);
    expect(quota.state()).toMatchObject({ usedBytes: 260 * KIB, files: 3 });
    expect(onDisk(dir)).toBe(260 * KIB);
    quota.done(fresh, 60 * KIB);
    expect(told.at(-1)).toMatchObject({ usedBytes: 260 * KIB, files: 3 });
  });

  it("never removes an output still being written, even when those alone pass the quota", async () => {
    const { dir } = folderWith();
    const quota = await OutputQuota.open({ dir, quotaBytes: 300 * KIB, budgetBytes: 200 * KIB });
    for (const name of ["a.log", "b.log"]) {
      writeFileSync(join(dir, name), Buffer.alloc(200 * KIB));
      await quota.using(join(dir, name), 200 * KIB);
    }
    expect(readdirSync(dir).sort()).toEqual(["a.log", "b.log"]);
    expect(quota.state().usedBytes).toBe(400 * KIB);
    // Once one is finished it is fair game: the next growth makes room by removing it.
    quota.done(join(dir, "a.log"), 200 * KIB);
    await quota.using(join(dir, "b.log"), 210 * KIB);
    expect(readdirSync(dir)).toEqual(["b.log"]);
  });

  it("makes room when it opens on a folder over the quota (the quota was lowered)", async () => {
    const { dir, paths } = folderWith(300, 300, 300);
    await OutputQuota.open({ dir, quotaBytes: 700 * KIB, budgetBytes: 64 * KIB });
    expect(paths.map(existsSync)).toEqual([false, true, true]);
  });

  it("refuses a quota that cannot hold one command's output, saying what to change", async () => {
    const dir = join(scratch, "never-made");
    await expect(OutputQuota.open({ dir, quotaBytes: 100 * KIB, budgetBytes: 200 * KIB })).rejects.toThrow(
      /quota .* must be a whole number of bytes, at least the per-command budget \(204800\); got 102400\. Raise the quota or lower the budget/,
    );
    await expect(OutputQuota.open({ dir, quotaBytes: Number.NaN })).rejects.toThrow(/got NaN/);
  });
});

describe("run_command: the quota for saved outputs", () => {
  it("removes the oldest saved outputs first, and keeps the folder within the quota", async () => {
    const workspaceRoot = makeWorkspace();
    const outputDir = `${workspaceRoot}-output`;
    mkdirSync(outputDir);
    const old = ["old-1.log", "old-2.log"].map((name, i) => {
      const path = join(outputDir, name);
      writeFileSync(path, Buffer.alloc(200 * KIB, "o"));
      const when = new Date(Date.now() - (2 - i) * 60 * 60 * 1000);
      utimesSync(path, when, when);
      return path;
    });
    const quota = await OutputQuota.open({ dir: outputDir, quotaBytes: 600 * KIB, budgetBytes: 256 * KIB });
    const saved: string[] = [];
    const alive = () => [...old, ...saved].map(existsSync);
    const expected = [
      [false, true, true], // 400 KiB + 224 KiB passes 600: the oldest goes
      [false, false, true, true],
      [false, false, false, true, true], // then the first of the new ones
    ];
    for (const want of expected) {
      // 228,894 bytes: over the model's 50 KB, under the 256 KiB budget.
      const { details } = await runTool(
        { workspaceRoot, outputQuota: quota, outputBudgetBytes: 256 * KIB },
        { command: "seq 1 40000" },
      );
      saved.push(details.fullOutputPath as string);
      expect(statSync(details.fullOutputPath as string).size).toBe(228_894);
      expect(alive()).toEqual(want);
      expect(onDisk(outputDir)).toBeLessThanOrEqual(600 * KIB);
      expect(quota.state()).toMatchObject({
        usedBytes: onDisk(outputDir),
        files: readdirSync(outputDir).length,
      });
    }
  });
});
