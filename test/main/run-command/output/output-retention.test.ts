import { existsSync, mkdtempSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { pruneFullOutputs } from "../../../../src/main/run-command/output/output-retention";

describe("pruneFullOutputs", () => {
  it("removes full outputs older than the retention and keeps recent ones", async () => {
    const dir = mkdtempSync(join(tmpdir(), "pi-desk-outputs-"));
    const old = join(dir, "old.log");
    const recent = join(dir, "recent.log");
    writeFileSync(old, "old");
    writeFileSync(recent, "recent");
    const eightDaysAgo = new Date(Date.now() - 8 * 24 * 60 * 60 * 1000);
    utimesSync(old, eightDaysAgo, eightDaysAgo);
    expect(await pruneFullOutputs(dir, 7)).toBe(1);
    expect(existsSync(old)).toBe(false);
    expect(existsSync(recent)).toBe(true);
  });

  it("does nothing for a folder that does not exist yet", async () => {
    expect(await pruneFullOutputs(join(tmpdir(), "pi-desk-no-such-folder"))).toBe(0);
  });
});
