import { mkdtemp, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { withFileLock, writeFileAtomic } from "../../../src/main/storage/atomic-file";

let root: string;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), "pi-desk-data-"));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe("writeFileAtomic", () => {
  it("replaces a file whole, 0600, leaving no temporary file behind", async () => {
    const file = join(root, "a", "b.json");
    await writeFileAtomic(file, "one");
    await writeFileAtomic(file, "two");
    expect(await readFile(file, "utf8")).toBe("two");
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect((await stat(join(root, "a"))).mode & 0o777).toBe(0o700);
    const { readdir } = await import("node:fs/promises");
    expect(await readdir(join(root, "a"))).toEqual(["b.json"]);
  });
});

describe("withFileLock", () => {
  it("runs tasks on one file one at a time, in order, past a failing one", async () => {
    const order: string[] = [];
    const task =
      (name: string, fail = false) =>
      async () => {
        order.push(`start ${name}`);
        await new Promise((resolve) => setTimeout(resolve, 5));
        order.push(`end ${name}`);
        if (fail) throw new Error(name);
        return name;
      };
    const results = await Promise.allSettled([
      withFileLock(join(root, "f"), task("a")),
      withFileLock(join(root, "f"), task("b", true)),
      withFileLock(join(root, ".", "f"), task("c")),
    ]);
    expect(results.map((r) => r.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
    expect(order).toEqual(["start a", "end a", "start b", "end b", "start c", "end c"]);
  });
});
