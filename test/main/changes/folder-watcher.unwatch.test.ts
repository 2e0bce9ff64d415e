import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import { FolderWatcher } from "../../../src/main/changes/folder-watcher";
import { makeScratch, removeScratch, type Scratch } from "./changes-harness";

let scratch: Scratch;
let watcher: FolderWatcher;

beforeEach(async () => {
  scratch = await makeScratch();
  for (const folder of ["a/b/c", "a/bb", "ab", "z"])
    await mkdir(join(scratch.workspace, folder), { recursive: true });
  watcher = new FolderWatcher(scratch.workspace, join(scratch.dataDir, "watch"));
});
afterEach(async () => {
  watcher.close();
  await removeScratch(scratch);
});

/** Writes a file in each of `folders`, then the folders the watcher saw change. */
async function touched(folders: string[]): Promise<string[]> {
  for (const folder of folders) await writeFile(join(scratch.workspace, folder, "x.txt"), `${Math.random()}`);
  await watcher.settle();
  return [...watcher.take().dirty].sort();
}

it.runIf(process.platform === "linux")(
  "unwatching a folder (a file written in each folder marks only that folder) stops the watches of every folder under it, and only those, however often",
  async () => {
    for (const rel of ["", "a/", "a/b/", "a/b/c/", "a/bb/", "ab/", "z/"]) watcher.watch(rel);
    const all = ["a", "a/b", "a/b/c", "a/bb", "ab", "z"];
    expect(await touched(all)).toEqual(["a/", "a/b/", "a/b/c/", "a/bb/", "ab/", "z/"]);

    watcher.unwatch("a/b/c/"); // a folder nothing else is under
    watcher.unwatch("z/q/"); // never watched: nothing changes
    expect(await touched(all)).toEqual(["a/", "a/b/", "a/bb/", "ab/", "z/"]);

    watcher.watch("a/b/c/"); // watched again (a folder replaced, then scanned)
    watcher.unwatch("a/"); // `ab/` shares the prefix `a` but is not under `a/`
    expect(await touched(all)).toEqual(["ab/", "z/"]);

    watcher.watch("a/");
    watcher.watch("a/b/c/");
    expect(await touched(all)).toEqual(["a/", "a/b/c/", "ab/", "z/"]);
    watcher.unwatch("a/");
    expect(await touched(all)).toEqual(["ab/", "z/"]);
  },
);
