import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { chmod, mkdir, rm, symlink, unlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { changesFromGit } from "../../../src/main/changes/change-set-git";
import { changesInProcess } from "../../../src/main/changes/change-set-in-process";
import { DEFAULT_EXCLUDES } from "../../../src/main/changes/defaults";
import { ShadowRepo } from "../../../src/main/changes/shadow-repo";
import { Snapshotter } from "../../../src/main/changes/snapshot";
import { StoredObjects } from "../../../src/main/changes/stored-objects";
import { makeScratch, put, removeScratch, type Scratch } from "./changes-harness";

let scratch: Scratch;
let repo: ShadowRepo;
let snapshots: Snapshotter;
let objects: StoredObjects;

beforeEach(async () => {
  scratch = await makeScratch();
  repo = await ShadowRepo.open({
    workspace: scratch.workspace,
    dataDir: scratch.dataDir,
    excludes: DEFAULT_EXCLUDES,
  });
  objects = new StoredObjects(repo);
  snapshots = new Snapshotter(
    scratch.workspace,
    objects,
    { maxFileBytes: 1024 * 1024, maxFiles: 10_000 },
    DEFAULT_EXCLUDES,
    join(scratch.dataDir, "watch"),
  );
});
afterEach(async () => {
  snapshots.close();
  await removeScratch(scratch);
});

/** The tree `git add -A` then `git write-tree` gives for the workspace, in a scratch index of the shadow repository. */
function gitsTree(...pathspecs: string[]): string {
  const env = {
    PATH: process.env.PATH,
    HOME: scratch.root,
    GIT_DIR: repo.gitDir,
    GIT_WORK_TREE: scratch.workspace,
    GIT_INDEX_FILE: join(scratch.root, "reference-index"),
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_CONFIG_GLOBAL: "/dev/null",
  };
  const git = (...args: string[]) =>
    execFileSync("git", ["-c", "core.autocrlf=false", "-c", "core.symlinks=true", ...args], {
      cwd: scratch.workspace,
      env,
    }).toString("utf8");
  git("add", "-A", "--", ".", ...pathspecs);
  return git("write-tree").trim();
}

describe("the in-process snapshot", () => {
  it("writes the tree git would write: ignore rules at every level, links, modes, git's entry order", async () => {
    await put(scratch.workspace, ".gitignore", "*.log\n/build-here/\nkeep/*\n!keep/this.txt\n");
    await put(scratch.workspace, "src/.gitignore", "generated/\n!important.log\n");
    await put(scratch.workspace, "src/a.ts", "a\n");
    await put(scratch.workspace, "src/important.log", "kept by the negation\n");
    await put(scratch.workspace, "src/other.log", "ignored\n");
    await put(scratch.workspace, "src/generated/x.ts", "ignored folder\n");
    await put(scratch.workspace, "build-here/out.js", "ignored at the root only\n");
    await put(scratch.workspace, "lib/build-here/in.js", "not ignored: the pattern is anchored\n");
    await put(scratch.workspace, "keep/this.txt", "re-included\n");
    await put(scratch.workspace, "keep/that.txt", "ignored\n");
    await put(scratch.workspace, "deep/node_modules/m.js", "engine exclude at depth\n");
    await put(scratch.workspace, "run.sh", "#!/bin/sh\n", 0o755);
    // Names whose order differs between plain sorting and git's (a folder sorts as `name/`).
    for (const name of ["a-b", "a.b", "a0", "a/inner", "ü.txt", "with space"]) {
      await put(scratch.workspace, `order/${name}`, `${name}\n`);
    }
    await symlink("src/a.ts", join(scratch.workspace, "link"));
    await mkdir(join(scratch.workspace, "empty/deeper"), { recursive: true });
    await put(scratch.workspace, "vendor/lib/file.c", "int x;\n");
    execFileSync("git", ["init", "-q"], { cwd: join(scratch.workspace, "vendor/lib") });
    const snapshot = await snapshots.scan();
    await objects.flushTrees();
    expect(snapshot.nested).toEqual(["vendor/lib/"]);
    expect(snapshot.tree).toBe(gitsTree(":!vendor/lib"));
    const listed = (await repo.run(["ls-tree", "-r", "--name-only", "-z", snapshot.tree]))
      .toString("utf8")
      .split("\0")
      .filter(Boolean);
    expect(listed).toContain("src/important.log");
    expect(listed).toContain("keep/this.txt");
    expect(listed).toContain("lib/build-here/in.js");
    expect(listed).toContain("order/a/inner");
    for (const path of ["src/other.log", "src/generated/x.ts", "build-here/out.js", "keep/that.txt"]) {
      expect(listed).not.toContain(path);
    }
    expect(listed.some((path) => path.includes("node_modules") || path.startsWith("vendor"))).toBe(false);
  });

  it("finds the same changes as git's diff-tree, and a file touched but not changed is no change", async () => {
    const files = Array.from({ length: 30 }, (_, i) => `dir${i % 4}/file${i}.txt`);
    for (const [i, path] of files.entries()) await put(scratch.workspace, path, `line\n`.repeat(i + 1));
    let previous = (await snapshots.scan()).tree;
    const steps: (() => Promise<void>)[] = [
      () => put(scratch.workspace, "dir0/file0.txt", "changed\nline\n"),
      () => put(scratch.workspace, "dir1/file1.txt", "line\nline\n"), // same bytes, written again
      () => put(scratch.workspace, "new/one.txt", "no newline at the end"),
      () => unlink(join(scratch.workspace, "dir2/file2.txt")),
      () => chmod(join(scratch.workspace, "dir3/file3.txt"), 0o755),
      () => put(scratch.workspace, "dir0/file4.txt", Buffer.concat([Buffer.from("bin\0"), randomBytes(100)])),
      () => put(scratch.workspace, "dir1/file5.txt", "line\r\nline\r\nline\r\nline\r\nline\r\nline\r\n"),
      () => put(scratch.workspace, "dir2/file6.txt", "other\n".repeat(3) + "line\n".repeat(4)),
      async () => {
        await chmod(join(scratch.workspace, "dir3/file7.txt"), 0o755);
        await put(scratch.workspace, "dir3/file7.txt", "mode and content\n", 0o755);
      },
      () => rm(join(scratch.workspace, "dir1"), { recursive: true }),
      // The workspace's attributes do not make a text file binary for the engine (nor for its git).
      () => put(scratch.workspace, ".gitattributes", "*.txt binary\n"),
      () => put(scratch.workspace, "dir0/file8.txt", "text all the same\n"),
    ];
    for (const step of steps) {
      await step();
      const next = (await snapshots.scan()).tree;
      const mine = await changesInProcess(objects, previous, next);
      await objects.flushTrees();
      expect(mine).toBeDefined();
      expect(mine).toEqual(await changesFromGit(repo, previous, next));
      previous = next;
    }
    const touched = await snapshots.scan();
    expect(touched.tree).toBe(previous);
  });

  it("leaves renames and type changes to git", async () => {
    await put(scratch.workspace, "a.txt", "a file long enough to be found again after a move\n".repeat(3));
    await put(scratch.workspace, "b.txt", "b\n");
    const before = (await snapshots.scan()).tree;
    await writeFile(
      join(scratch.workspace, "moved.txt"),
      "a file long enough to be found again after a move\n".repeat(3),
    );
    await unlink(join(scratch.workspace, "a.txt"));
    const moved = (await snapshots.scan()).tree;
    expect(await changesInProcess(objects, before, moved)).toBeUndefined();
    await unlink(join(scratch.workspace, "b.txt"));
    await symlink("moved.txt", join(scratch.workspace, "b.txt"));
    const linked = (await snapshots.scan()).tree;
    expect(await changesInProcess(objects, moved, linked)).toBeUndefined();
  });
});
