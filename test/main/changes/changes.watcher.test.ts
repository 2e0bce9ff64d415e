import { execFileSync } from "node:child_process";
import { chmod, mkdir, rename, rm, symlink, unlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import { DEFAULT_EXCLUDES } from "../../../src/main/changes/defaults";
import { ShadowRepo } from "../../../src/main/changes/shadow-repo";
import { Snapshotter } from "../../../src/main/changes/snapshot";
import { StoredObjects } from "../../../src/main/changes/stored-objects";
import { makeScratch, put, removeScratch, type Scratch } from "./changes-harness";

let scratch: Scratch;
let narrowed: Snapshotter;
let full: Snapshotter;

beforeEach(async () => {
  scratch = await makeScratch();
  const repo = await ShadowRepo.open({
    workspace: scratch.workspace,
    dataDir: scratch.dataDir,
    excludes: DEFAULT_EXCLUDES,
  });
  const make = (watch: string) =>
    new Snapshotter(
      scratch.workspace,
      new StoredObjects(repo),
      { maxFileBytes: 1000, maxFiles: 10_000 },
      DEFAULT_EXCLUDES,
      join(scratch.dataDir, watch),
    );
  narrowed = make("watch-a");
  full = make("watch-b");
});
afterEach(async () => {
  narrowed.close();
  full.close();
  await removeScratch(scratch);
});

it("a scan narrowed by the watcher finds what a full scan finds, step after step", async () => {
  const ws = scratch.workspace;
  for (let i = 0; i < 6; i++) await put(ws, `a/b/c/f${i}.txt`, `${i}\n`);
  await put(ws, "a/x.txt", "x\n");
  await put(ws, "keep/one.txt", "1\n");
  await narrowed.scan();
  const steps: [string, () => Promise<unknown>][] = [
    ["edit deep", () => put(ws, "a/b/c/f1.txt", "changed\n")],
    ["new folders", () => put(ws, "n/e/w/deep.txt", "new\n")],
    ["move a folder", () => rename(join(ws, "a/b"), join(ws, "moved"))],
    [
      "replace a folder",
      async () => {
        await rm(join(ws, "keep"), { recursive: true });
        await put(ws, "keep/two.txt", "2\n");
      },
    ],
    ["ignore a folder from below", () => put(ws, "moved/.gitignore", "c/\n")],
    ["un-ignore it", () => put(ws, "moved/.gitignore", "nothing\n")],
    ["ignore from the root", () => put(ws, ".gitignore", "*.txt\n!keep/*\n")],
    ["drop that", () => unlink(join(ws, ".gitignore"))],
    [
      "become a nested repository",
      async () => {
        execFileSync("git", ["init", "-q"], { cwd: join(ws, "n/e") });
      },
    ],
    ["stop being one", () => rm(join(ws, "n/e/.git"), { recursive: true })],
    ["grow past the size limit", () => put(ws, "a/x.txt", "x".repeat(2000))],
    ["an oversized file grows", () => put(ws, "a/x.txt", "x".repeat(3000))],
    ["another, deep", () => put(ws, "n/e/w/big.bin", "y".repeat(5000))],
    ["the first one goes", () => unlink(join(ws, "a/x.txt"))],
    ["and comes back", () => put(ws, "a/x.txt", "x".repeat(2500))],
    [
      "a link and a mode",
      async () => {
        await symlink("keep", join(ws, "a/link"));
        await chmod(join(ws, "keep/two.txt"), 0o755);
      },
    ],
    [
      "a folder becomes a file",
      async () => {
        await rm(join(ws, "moved"), { recursive: true });
        await writeFile(join(ws, "moved"), "now a file\n");
      },
    ],
    ["touched, not changed", () => put(ws, "keep/two.txt", "2\n", 0o755)],
    ["an empty folder", () => mkdir(join(ws, "empty/inner"), { recursive: true })],
  ];
  for (const [name, step] of steps) {
    await step();
    const quick = await narrowed.scan();
    if (name === "become a nested repository") expect(quick.nested).toEqual(["n/e/"]);
    const whole = await full.scan(undefined, true);
    expect({ name, tree: quick.tree, oversized: quick.oversized, nested: quick.nested }).toEqual({
      name,
      tree: whole.tree,
      oversized: whole.oversized,
      nested: whole.nested,
    });
  }
});
