import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { DEFAULT_EXCLUDES } from "../../../src/main/changes/defaults";
import { objectId } from "../../../src/main/changes/loose-objects";
import { PackReader } from "../../../src/main/changes/pack-reader";
import { ShadowRepo } from "../../../src/main/changes/shadow-repo";
import { StoredObjects } from "../../../src/main/changes/stored-objects";
import { makeScratch, openRecorder, put, removeScratch, type Scratch } from "./changes-harness";

let scratch: Scratch;
let repo: ShadowRepo;
let packDir: string;
const made: { close(): void }[] = [];

beforeEach(async () => {
  scratch = await makeScratch();
  repo = await ShadowRepo.open({
    workspace: scratch.workspace,
    dataDir: scratch.dataDir,
    excludes: DEFAULT_EXCLUDES,
  });
  packDir = join(repo.gitDir, "objects", "pack");
});
afterEach(async () => {
  for (const one of made.splice(0)) one.close();
  await removeScratch(scratch);
});

function objects(): StoredObjects {
  const store = new StoredObjects(repo);
  made.push(store);
  return store;
}

function git(...args: string[]): Buffer {
  return execFileSync("git", ["--git-dir", repo.gitDir, ...args], { maxBuffer: 64 * 1024 * 1024 });
}

/** Loose object files under objects/xx (none while a scan packs). */
function looseCount(): number {
  const dir = join(repo.gitDir, "objects");
  return readdirSync(dir)
    .filter((name) => /^[0-9a-f]{2}$/.test(name))
    .reduce((sum, name) => sum + readdirSync(join(dir, name)).length, 0);
}

function packs(): string[] {
  return existsSync(packDir) ? readdirSync(packDir).filter((name) => name.endsWith(".idx")) : [];
}

/** Contents whose sizes cross the pack header's length steps (4, 11, 18 bits), one large enough for the worker. */
function contents(): Buffer[] {
  const sizes = [0, 1, 15, 16, 17, 2047, 2048, 2049, 70_000, 262_143, 262_144];
  const out = sizes.map((size) => Buffer.from(randomBytes(size).toString("hex").slice(0, size)));
  out.push(randomBytes(1536 * 1024)); // 1.5 MiB: hashed and deflated in the worker
  for (let i = 0; i < 40; i++) out.push(Buffer.from(`file ${i}\n${"line\n".repeat(i * 37)}`));
  return out;
}

describe("packs written by a scan that stores many", () => {
  it("are git's own format: several small packs git verifies and reads, no loose object written", async () => {
    const store = objects();
    store.startPacking({ entries: 8, bytes: 64 * 1024 }); // small packs: many, full and cut short by size
    const blobs = contents();
    const ids: string[] = [];
    for (const content of blobs) ids.push(await store.storeBlob(content, false));
    ids.push(await store.storeBlob(blobs[3] as Buffer, false)); // stored once only
    const tree = store.writeTree([{ mode: "100644", name: "a.txt", oid: ids[4] as string }]);
    await store.flushTrees();
    await store.endPacking();

    expect(looseCount()).toBe(0);
    expect(packs().length).toBeGreaterThan(3);
    for (const idx of packs()) git("verify-pack", join(packDir, idx)); // throws on any fault
    git("fsck", "--full", "--no-dangling");
    blobs.forEach((content, i) => {
      const id = ids[i] as string;
      expect(id).toBe(objectId("blob", content));
      expect(git("cat-file", "blob", id).equals(content)).toBe(true);
    });
    expect(git("ls-tree", tree).toString()).toBe(`100644 blob ${ids[4]}\ta.txt\n`);
    // Each object once in all the packs: the index sizes add up to the distinct objects.
    const counted = packs().reduce(
      (sum, idx) => sum + readFileSync(join(packDir, idx)).readUInt32BE(8 + 255 * 4),
      0,
    );
    expect(counted).toBe(new Set(ids).size + 1);
  });

  it("are read back in this process, by a new one too, each object checked against its id", async () => {
    const store = objects();
    store.startPacking({ entries: 8, bytes: 64 * 1024 });
    const blobs = contents();
    const ids: string[] = [];
    for (const content of blobs) ids.push(await store.storeBlob(content, false));
    const tree = store.writeTree([{ mode: "100755", name: "run.sh", oid: ids[5] as string }]);
    await store.flushTrees();
    await store.endPacking();

    const reader = new PackReader(packDir);
    for (const [i, id] of ids.entries()) {
      expect(reader.has(id)).toBe(true);
      expect((await reader.read("blob", id))?.equals(blobs[i] as Buffer)).toBe(true);
    }
    expect(await reader.read("tree", ids[5] as string)).toBeUndefined(); // a blob asked for as a tree
    expect(reader.has("0".repeat(40))).toBe(false);
    expect(await reader.read("blob", "f".repeat(40))).toBeUndefined();

    const later = objects(); // a new process: nothing in memory, nothing loose
    expect(await later.readTree(tree)).toEqual([{ mode: "100755", name: "run.sh", oid: ids[5] }]);
    const read = await later.readBlobs(ids);
    for (const [i, content] of blobs.entries())
      expect(read.get(ids[i] as string)?.equals(content)).toBe(true);
    expect(await later.has(tree)).toBe(true);
  });

  it("give no wrong bytes when a pack is changed under the reader", async () => {
    const store = objects();
    store.startPacking();
    const content = Buffer.from("the original text\n".repeat(200));
    const id = await store.storeBlob(content, false);
    await store.endPacking();
    const [idx] = packs();
    const pack = join(packDir, (idx as string).replace(/\.idx$/, ".pack"));
    const bytes = readFileSync(pack);
    bytes[bytes.length - 30] = (bytes[bytes.length - 30] as number) ^ 0xff; // inside the one entry's zlib data
    rmSync(pack, { force: true });
    writeFileSync(pack, bytes);
    expect(await new PackReader(packDir).read("blob", id)).toBeUndefined();
  });

  it("leave git's deltas to git, reading the whole objects of git's own packs", async () => {
    const store = objects();
    const base = Array.from({ length: 400 }, (_, i) => `line ${i} ${"x".repeat(40)}\n`).join("");
    const blobs = Array.from({ length: 6 }, (_, i) => Buffer.from(`${base}version ${i}\n`));
    const ids = blobs.map((content) => store.writeBlob(content)); // loose, as a command's scan stores
    const tree = store.writeTree(ids.map((oid, i) => ({ mode: "100644", name: `v${i}.txt`, oid })));
    await store.flushTrees();
    execFileSync("git", [
      "--git-dir",
      repo.gitDir,
      "update-ref",
      "refs/keep",
      git("commit-tree", tree, "-m", "k").toString().trim(),
    ]);
    git("repack", "-a", "-d", "-f", "--window=10"); // deltas between the versions
    git("prune-packed");
    expect(looseCount()).toBe(0);

    const reader = new PackReader(packDir);
    const direct = await Promise.all(ids.map((id) => reader.read("blob", id)));
    expect(direct.some((content) => content === undefined)).toBe(true); // a delta: not read here
    direct.forEach((content, i) => {
      if (content) expect(content.equals(blobs[i] as Buffer)).toBe(true);
    });
    const later = objects();
    later.forgetStored();
    const read = await later.readBlobs(ids); // the deltas through git
    for (const [i, content] of blobs.entries())
      expect(read.get(ids[i] as string)?.equals(content)).toBe(true);
  });

  it("read an entry past 2 GiB through the index's 8-byte offsets (git's pack of a big tree after a gc)", async () => {
    const store = objects();
    store.startPacking();
    const content = Buffer.from("far into a big pack\n".repeat(30));
    const id = await store.storeBlob(content, false);
    await store.endPacking();
    const [idx] = packs();
    const small = readFileSync(join(packDir, (idx as string).replace(/\.idx$/, ".pack")));
    const entry = small.subarray(12, small.length - 20);
    // The same entry 3 GiB into a sparse pack, and an index naming it by a large offset.
    const far = 3 * 1024 ** 3;
    const bigDir = join(scratch.root, "big-pack");
    mkdirSync(bigDir);
    const name = `pack-${"ab".repeat(20)}`;
    const pack = openSync(join(bigDir, `${name}.pack`), "w");
    writeSync(pack, small.subarray(0, 12), 0, 12, 0);
    writeSync(pack, entry, 0, entry.length, far);
    writeSync(pack, small.subarray(small.length - 20), 0, 20, far + entry.length);
    closeSync(pack);
    const index = Buffer.alloc(8 + 1024 + 28 + 8 + 40);
    index.writeUInt32BE(0xff744f63, 0);
    index.writeUInt32BE(2, 4);
    const first = Number.parseInt(id.slice(0, 2), 16);
    for (let byte = first; byte < 256; byte++) index.writeUInt32BE(1, 8 + byte * 4);
    index.write(id, 8 + 1024, "hex");
    index.writeUInt32BE(0x80000000, 8 + 1024 + 24); // the first entry of the 8-byte table
    index.writeBigUInt64BE(BigInt(far), 8 + 1024 + 28);
    writeFileSync(join(bigDir, `${name}.idx`), index);
    const reader = new PackReader(bigDir);
    expect(reader.has(id)).toBe(true);
    expect((await reader.read("blob", id))?.equals(content)).toBe(true);
  });

  it("removes what a crash left half written, which git never counted", async () => {
    writeFileSync(join(packDir, "tmp_pidesk_0123456789abcdef.pack"), "PACK half of one");
    writeFileSync(join(packDir, "tmp_pidesk_0123456789abcdef.idx"), "");
    const store = objects();
    store.startPacking();
    expect(readdirSync(packDir).filter((name) => name.startsWith("tmp_"))).toEqual([]);
    await store.storeBlob(Buffer.from("after the crash\n"), false);
    await store.endPacking();
    git("fsck", "--full", "--no-dangling");
  });

  it("fail the packing when a pack cannot be written, and store the same content again afterwards", async () => {
    const store = objects();
    store.startPacking();
    const content = Buffer.from("kept though the pack failed\n");
    const id = await store.storeBlob(content, false);
    rmSync(packDir, { recursive: true, force: true });
    writeFileSync(packDir, "a file where the pack folder was");
    await expect(store.endPacking()).rejects.toThrow();
    rmSync(packDir, { force: true });
    // Not counted as stored any more: stored (loose) the next time it is met.
    expect(await store.storeBlob(content, false)).toBe(id);
    expect(git("cat-file", "blob", id).equals(content)).toBe(true);
  });
});

describe("a recorder's first snapshot", () => {
  it("is packed, and a command's change and its undo read the packed contents", async () => {
    for (let i = 0; i < 30; i++) await put(scratch.workspace, `src/f${i}.txt`, `file ${i}\n`.repeat(50));
    repo = await ShadowRepo.open({
      workspace: scratch.workspace,
      dataDir: scratch.dataDir,
      excludes: DEFAULT_EXCLUDES,
    });
    const recorder = await openRecorder(scratch);
    made.push({ close: () => void recorder.close() });
    expect((await recorder.prepare()).type).toBe("on");
    expect(looseCount()).toBe(0);
    expect(packs().length).toBeGreaterThan(0);

    await recorder.before("c1");
    writeFileSync(join(scratch.workspace, "src/f3.txt"), "rewritten\n");
    const after = await recorder.after("c1");
    expect(after.recorded).toBe(true);
    if (!after.recorded) return;
    expect(after.changes.files.map((file) => [file.path, file.removed])).toEqual([["src/f3.txt", 50]]);
    const undone = await recorder.undo("c1");
    expect(undone.restored).toEqual(["src/f3.txt"]);
    expect(readFileSync(join(scratch.workspace, "src/f3.txt"), "utf8")).toBe("file 3\n".repeat(50));
  });

  it("is not packed again by a restart, which packs only what changed meanwhile", async () => {
    for (let i = 0; i < 30; i++) await put(scratch.workspace, `src/d${i % 5}/f${i}.txt`, `file ${i}\n`);
    await new Promise((done) => setTimeout(done, 50)); // written well before the scan: not racy
    const first = await openRecorder(scratch);
    expect((await first.prepare()).type).toBe("on");
    await first.close();
    const packed = packs();

    const same = await openRecorder(scratch);
    expect((await same.prepare()).type).toBe("on");
    expect(same.lastHashed).toBe(0);
    await same.close();
    expect(packs()).toEqual(packed); // every tree met again is in a pack already

    writeFileSync(join(scratch.workspace, "src/d2/new.txt"), "new while closed\n");
    const later = await openRecorder(scratch);
    expect((await later.prepare()).type).toBe("on");
    await later.close();
    const added = packs().filter((idx) => !packed.includes(idx));
    expect(added).toHaveLength(1);
    // The new file, its folder's tree, the trees above it (src and the root): nothing else.
    expect(readFileSync(join(packDir, added[0] as string)).readUInt32BE(8 + 255 * 4)).toBe(4);
  });
});
