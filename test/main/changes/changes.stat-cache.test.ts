import { execFileSync } from "node:child_process";
import { readdirSync, rmSync, type Stats } from "node:fs";
import { lstat, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { DEFAULT_EXCLUDES } from "../../../src/main/changes/defaults";
import {
  emptyFolder,
  type FolderNode,
  type StoredNode,
  storedNode,
} from "../../../src/main/changes/scan-nodes";
import { ShadowRepo } from "../../../src/main/changes/shadow-repo";
import { Snapshotter } from "../../../src/main/changes/snapshot";
import { StatCache } from "../../../src/main/changes/stat-cache";
import { StoredObjects } from "../../../src/main/changes/stored-objects";
import { makeScratch, openRecorder, put, removeScratch, type Scratch } from "./changes-harness";

let scratch: Scratch;
let repo: ShadowRepo;
let cacheFile: string;
const open: Snapshotter[] = [];

beforeEach(async () => {
  scratch = await makeScratch();
  repo = await ShadowRepo.open({
    workspace: scratch.workspace,
    dataDir: scratch.dataDir,
    excludes: DEFAULT_EXCLUDES,
  });
  cacheFile = join(scratch.dataDir, "stat-cache");
  await put(scratch.workspace, "a.txt", "alpha\n");
  await put(scratch.workspace, "b.txt", "bravo\n");
  await put(scratch.workspace, "src/c.txt", "charlie\n");
  await put(scratch.workspace, "src/deep/d.sh", "echo delta\n", 0o755);
  await settle(); // written well before the first scan: not racy
});
afterEach(async () => {
  for (const snapshots of open.splice(0)) snapshots.close();
  await removeScratch(scratch);
});

/** A Snapshotter as a new process has it: nothing in memory, the stat cache on disk. */
const objectsOf = new WeakMap<Snapshotter, StoredObjects>();

function process(): Snapshotter {
  const objects = new StoredObjects(repo);
  const snapshots = new Snapshotter(
    scratch.workspace,
    objects,
    { maxFileBytes: 1024 * 1024, maxFiles: 10_000 },
    DEFAULT_EXCLUDES,
    join(scratch.dataDir, "watch"),
    { statCacheFile: cacheFile },
  );
  objectsOf.set(snapshots, objects);
  open.push(snapshots);
  return snapshots;
}

/** One process's life: its first scan (then its cache is saved), and its end. */
async function run(): Promise<{ tree: string; hashed: number }> {
  const snapshots = process();
  const { tree } = await snapshots.scan();
  await objectsOf.get(snapshots)?.flushTrees(); // as the recorder does before any git call and at close
  await snapshots.saveCache();
  snapshots.close();
  return { tree, hashed: snapshots.lastHashed };
}

/** The tree git's own `add -A` + `write-tree` gives for the workspace: the truth a trusted cache must not bend. */
function gitsTree(): string {
  const env = {
    PATH: globalThis.process.env.PATH,
    HOME: scratch.root,
    GIT_DIR: repo.gitDir,
    GIT_WORK_TREE: scratch.workspace,
    GIT_INDEX_FILE: join(scratch.root, "reference-index"),
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_CONFIG_GLOBAL: "/dev/null",
  };
  const git = (...args: string[]) =>
    execFileSync("git", args, { cwd: scratch.workspace, env }).toString("utf8");
  git("add", "-A");
  return git("write-tree").trim();
}

/** Rewrites the cache's entry for `path` (as the cache's own writer does, so it checks), and its scan start. */
async function tamper(path: string, change: (entry: StoredNode) => void, startedAt?: number): Promise<void> {
  const cache = new StatCache(cacheFile);
  const loaded = await cache.load();
  if (!loaded) throw new Error("no cache to tamper with");
  let folder: FolderNode = loaded.root;
  const names = path.split("/");
  for (const name of names.slice(0, -1)) folder = folder.children.get(name) as FolderNode;
  const entry = folder.children.get(names.at(-1) as string) as StoredNode;
  change(entry);
  await cache.save(loaded.root, startedAt ?? loaded.startedAt, loaded.tree);
}

/** An entry that names `b.txt`'s blob for `a.txt`, with a.txt's real stat data: trusted, it bends the tree. */
async function wrongBlobFor(path: string, stat: Stats, racy: boolean, startedAt?: number) {
  const bravo = execFileSync("git", ["hash-object", join(scratch.workspace, "b.txt")])
    .toString()
    .trim();
  await tamper(
    path,
    (entry) => {
      entry.oid = bravo;
      Object.assign(entry, {
        size: stat.size,
        mtimeMs: stat.mtimeMs,
        ctimeMs: stat.ctimeMs,
        ino: stat.ino,
        statMode: stat.mode,
      });
      entry.racy = racy;
    },
    startedAt,
  );
}

function settle(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 50));
}

describe("the stat cache", () => {
  it("lets a new process hash only the files whose stat data moved", async () => {
    const first = await run();
    expect(first.hashed).toBe(4);
    expect(first.tree).toBe(gitsTree());
    const again = await run();
    expect(again).toEqual({ tree: first.tree, hashed: 0 });
    await put(scratch.workspace, "src/c.txt", "charlie, changed\n");
    await settle();
    const changed = await run();
    expect(changed.hashed).toBe(1);
    expect(changed.tree).toBe(gitsTree());
  });

  it("reads back names a line or a quote could break, folders' and files' alike", async () => {
    const names = ['we"ird\\name.txt', "tab\tand\nnewline.txt", "ünï cödé.txt", '"quoted"', "back\\slash"];
    for (const name of names) await put(scratch.workspace, `odd "dir"\\x/${name}`, `${name}\n`);
    await settle();
    const first = await run();
    expect(first.tree).toBe(gitsTree());
    expect(await run()).toEqual({ tree: first.tree, hashed: 0 });
  });

  it("is trusted where the stat data matches (the control the cases below differ from)", async () => {
    await run();
    await wrongBlobFor("a.txt", await lstat(join(scratch.workspace, "a.txt")), false);
    const trusted = await run();
    expect(trusted.hashed).toBe(0);
    expect(trusted.tree).not.toBe(gitsTree());
  });

  it("hashes a racily clean entry again (flagged racy when it was hashed)", async () => {
    await run();
    await wrongBlobFor("a.txt", await lstat(join(scratch.workspace, "a.txt")), true);
    const again = await run();
    expect(again.hashed).toBe(1);
    expect(again.tree).toBe(gitsTree());
  });

  it("hashes again an entry as new as the scan that saved it (git's racy rule)", async () => {
    await put(scratch.workspace, "a.txt", "alpha\n"); // the newest file, by more than the racy window
    await settle();
    await run();
    const stat = await lstat(join(scratch.workspace, "a.txt"));
    await wrongBlobFor("a.txt", stat, false, Math.max(stat.mtimeMs, stat.ctimeMs));
    const again = await run();
    expect(again.hashed).toBe(1);
    expect(again.tree).toBe(gitsTree());
  });

  it("hashes again a file whose inode or mode is not the cache's, all else alike", async () => {
    await run();
    const stat = await lstat(join(scratch.workspace, "src/deep/d.sh"));
    await wrongBlobFor("src/deep/d.sh", stat, false);
    await tamper("src/deep/d.sh", (entry) => {
      entry.ino += 1;
    });
    let again = await run();
    expect(again.hashed).toBe(1);
    expect(again.tree).toBe(gitsTree());

    await wrongBlobFor("src/deep/d.sh", stat, false);
    await tamper("src/deep/d.sh", (entry) => {
      entry.statMode &= ~0o100; // the cache says 644; the file is 755
    });
    again = await run();
    expect(again.hashed).toBe(1);
    expect(again.tree).toBe(gitsTree());
  });

  it("ignores a corrupted cache file, hashes everything, and writes a sound one", async () => {
    await run();
    const sound = await readFile(cacheFile, "utf8");
    const corruptions = [
      sound.slice(0, sound.length / 2), // cut short (a crash, a full disk)
      sound.replace("alpha", "alphA").replace(/"a\.txt"/, '"A.txt"'), // edited
      `${sound.slice(0, 30)}X${sound.slice(31)}`, // one byte changed
      "not a cache at all\n",
      "",
    ];
    for (const corrupted of corruptions) {
      await writeFile(cacheFile, corrupted);
      const rebuilt = await run();
      expect(rebuilt.hashed).toBe(4);
      expect(rebuilt.tree).toBe(gitsTree());
      expect(await run()).toEqual({ tree: rebuilt.tree, hashed: 0 });
    }
  });
});

describe("the stat cache and the records it belongs to", () => {
  it("is not trusted when the shadow repository does not hold its tree (records removed)", async () => {
    const snapshots = process();
    await snapshots.scan();
    await snapshots.saveCache();
    snapshots.close();
    // The records lost with the cache kept: every object gone (a first scan packs its trees too).
    const objectsDir = join(repo.gitDir, "objects");
    for (const name of readdirSync(objectsDir)) {
      if (name !== "info") rmSync(join(objectsDir, name), { recursive: true, force: true });
    }
    const again = await run();
    expect(again.hashed).toBe(4);
    expect(again.tree).toBe(gitsTree());
  });
});

describe("the stat cache of a big tree", () => {
  it("is written in batches and read back whole, every entry as it was", async () => {
    // 2,000 folders of 10 entries: about 2.6 MB of text, ten batches and more.
    const root = emptyFolder();
    for (let d = 0; d < 2000; d++) {
      const folder = emptyFolder(10_000 + d);
      for (let f = 0; f < 10; f++) {
        const i = d * 10 + f;
        const oid = i.toString(16).padStart(40, "0");
        folder.children.set(
          `f${i}.txt`,
          storedNode(
            "100644",
            oid,
            {
              size: i,
              mtimeMs: 1.5e12 + i + 0.25,
              ctimeMs: 1.5e12 + i + 0.5,
              ino: 5_000_000_000 + i,
              statMode: 0o100644,
            },
            false,
          ),
        );
      }
      root.children.set(`d${d}`, folder);
    }
    const cache = new StatCache(join(scratch.root, "big-cache"));
    await cache.save(root, 1.7e12, "1".repeat(40));
    const text = await readFile(join(scratch.root, "big-cache"), "utf8");
    expect(text.length).toBeGreaterThan(2_000_000);
    const loaded = await cache.load();
    if (!loaded) throw new Error("the cache did not load");
    expect(loaded.files).toBe(20_000);
    expect(loaded.tree).toBe("1".repeat(40));
    const entry = (loaded.root.children.get("d1234") as FolderNode).children.get("f12345.txt") as StoredNode;
    expect(entry).toMatchObject({
      oid: (12345).toString(16).padStart(40, "0"),
      size: 12345,
      ino: 5_000_012_345,
      statMode: 0o100644,
      mtimeMs: 1.5e12 + 12345 + 0.25,
    });
    // One byte changed anywhere and the whole file is not trusted.
    await writeFile(join(scratch.root, "big-cache"), text.replace("f12345.txt", "f12346.txt"));
    expect(await cache.load()).toBeUndefined();
  });
});

describe("the idle full scan", () => {
  it("brings the stat cache up to date after a command, so a restart then hashes nothing", async () => {
    const recorder = await openRecorder(scratch, { idleFullScanMs: 200 });
    expect((await recorder.prepare()).type).toBe("on");
    await recorder.before("c1");
    await writeFile(join(scratch.workspace, "b.txt"), "bravo, changed\n");
    expect((await recorder.after("c1")).recorded).toBe(true);
    await new Promise((done) => setTimeout(done, 700)); // the idle scan, well past the racy window
    // A crash now (no close, which saves the cache too): a new process trusts what the idle scan saved.
    const restarted = await openRecorder(scratch);
    expect((await restarted.prepare()).type).toBe("on");
    expect(restarted.lastHashed).toBe(0);
    await restarted.close();
    await recorder.close();
  });
});
