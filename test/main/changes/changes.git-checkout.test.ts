import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  type BigIntStats,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { BorrowedObjects, writeAlternates } from "../../../src/main/changes/borrowed-objects";
import { DEFAULT_EXCLUDES } from "../../../src/main/changes/defaults";
import { type GitCheckout, seedFromGitIndex } from "../../../src/main/changes/git-index-seed";
import { objectId } from "../../../src/main/changes/loose-objects";
import { PackReader } from "../../../src/main/changes/pack-reader";
import { ShadowRepo } from "../../../src/main/changes/shadow-repo";
import { Snapshotter } from "../../../src/main/changes/snapshot";
import { StoredObjects } from "../../../src/main/changes/stored-objects";
import { WorktreeFolder } from "../../../src/main/worktrees/worktree-folder";
import { worktreeGitDirs } from "../../../src/main/worktrees/worktree-sandbox";

/**
 * A worktree's first snapshot takes what git wrote at checkout from git's own index and objects (issue 33):
 * the same tree as hashing every file, the file changed after checkout still seen, undo still able to put back
 * a blob only the repository holds.
 */

const roots: string[] = [];
const closing: (() => unknown)[] = [];
afterEach(async () => {
  for (const close of closing.splice(0)) await close();
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

const git = (cwd: string, ...args: string[]) =>
  execFileSync("git", ["-c", "user.name=T", "-c", "user.email=t@t", ...args], {
    cwd,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "ignore"],
  });

/**
 * A repository of many kinds of file (plain, executable, a link, nested folders, one git converts at checkout,
 * one the records ignore) and a worktree of it whose files were all written well before its index, as in a
 * large checkout.
 */
function worktreeOfRepository(config: Record<string, string> = {}) {
  const root = mkdtempSync(join(tmpdir(), "pi-desk-checkout-"));
  roots.push(root);
  const workspace = join(root, "repo");
  git(root, "init", "-q", "-b", "main", workspace);
  const files: Record<string, string> = {
    "a.txt": "alpha\n",
    "src/b.ts": "export const b = 1;\n",
    "src/deep/c.md": "# c\n",
    "crlf.txt": "one\ntwo\n",
    "node_modules/dep/index.js": "module.exports = 1;\n",
    ".gitattributes": "crlf.txt text eol=crlf\n",
  };
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(join(workspace, path, ".."), { recursive: true });
    writeFileSync(join(workspace, path), content);
  }
  writeFileSync(join(workspace, "run.sh"), "echo run\n", { mode: 0o755 });
  symlinkSync("a.txt", join(workspace, "link"));
  git(workspace, "add", "-A", "-f");
  git(workspace, "commit", "-q", "-m", "first");
  const path = join(root, "wt");
  for (const [key, value] of Object.entries(config)) git(workspace, "config", key, value);
  git(workspace, "worktree", "add", "-q", "-b", "wt", path);
  const dirs = worktreeGitDirs({ path, branch: "wt", base: "", workspace });
  return { root, workspace, path, dirs };
}

/** Makes git's index of the worktree newer than its files, as a checkout of many files leaves it. */
function indexWrittenLater(dirs: GitCheckout, ms = 5_000): void {
  const index = join(dirs.gitDir, "index");
  const now = lstatSync(index).mtimeMs + ms;
  utimesSync(index, now / 1000, now / 1000);
}

/** A snapshotter of `path` as a new process has it, with its own shadow repository, seeded or not. */
async function snapshotter(path: string, dataDir: string, seed?: GitCheckout) {
  const repo = await ShadowRepo.open({
    workspace: path,
    dataDir,
    excludes: DEFAULT_EXCLUDES,
    ...(seed ? { borrow: [join(seed.commonDir, "objects")] } : {}),
  });
  const snapshots = new Snapshotter(
    path,
    new StoredObjects(repo),
    { maxFileBytes: 1024 * 1024, maxFiles: 10_000 },
    DEFAULT_EXCLUDES,
    join(dataDir, "watch"),
    {
      statCacheFile: join(dataDir, "stat-cache"),
      ...(seed ? { seed: () => seedFromGitIndex(path, seed) } : {}),
    },
  );
  closing.push(() => snapshots.close());
  return { repo, snapshots };
}

/** The blob id of `path` in `tree`, as the shadow repository's git reads it. */
function blobIn(repo: ShadowRepo, tree: string, path: string): string {
  const out = execFileSync("git", ["--git-dir", repo.gitDir, "ls-tree", tree, "--", path], {
    encoding: "utf8",
  });
  return out.split(/\s/)[2] as string;
}

const blobOf = (content: string) => objectId("blob", Buffer.from(content));

describe("a worktree's first snapshot from git's index", () => {
  it("is the tree hashing every file gives, and reads only what git's index cannot vouch for", async () => {
    const { root, path, dirs } = worktreeOfRepository();
    writeFileSync(join(path, "src/b.ts"), "export const b = 2; // changed after checkout\n");
    indexWrittenLater(dirs);
    const plain = await snapshotter(path, join(root, "plain"));
    const seeded = await snapshotter(path, join(root, "seeded"), dirs);
    const expected = await plain.snapshots.scan();
    const got = await seeded.snapshots.scan();
    expect(got.tree).toBe(expected.tree);
    expect(plain.snapshots.lastHashed).toBe(7);
    // Read: the file changed since checkout and the one git converted (CRLF on disk, LF in the blob). The
    // rest is taken from git's index.
    expect(seeded.snapshots.lastHashed).toBe(2);
    expect(blobIn(seeded.repo, got.tree, "crlf.txt")).toBe(blobOf("one\r\ntwo\r\n"));
    expect(readFileSync(join(seeded.repo.gitDir, "objects", "info", "alternates"), "utf8").trim()).toBe(
      join(dirs.commonDir, "objects"),
    );
  });

  it.each([3, 4])("reads git's index version %i (extended flags, names compressed)", async (version) => {
    const { root, path, dirs } = worktreeOfRepository();
    git(path, "update-index", "--index-version", String(version));
    writeFileSync(join(path, "src/new.ts"), "intent to add\n");
    git(path, "add", "-N", "src/new.ts"); // an extended flag: version 3 at least
    indexWrittenLater(dirs);
    expect(readFileSync(join(dirs.gitDir, "index")).readUInt32BE(4)).toBe(version);
    const plain = await snapshotter(path, join(root, "plain"));
    const seeded = await snapshotter(path, join(root, "seeded"), dirs);
    expect((await seeded.snapshots.scan()).tree).toBe((await plain.snapshots.scan()).tree);
    expect(plain.snapshots.lastHashed).toBe(8);
    expect(seeded.snapshots.lastHashed).toBe(2); // crlf.txt, and the new file git only intends to add
  });

  it("hashes a file changed after checkout whose stat data still matches, when it is racy", async () => {
    const { root, path, dirs } = worktreeOfRepository();
    // A write in the same timestamp tick as git's: same size, the stat data git noted (patched in here,
    // as a tick of coarse timestamps would leave it), the index written in that tick too.
    writeFileSync(join(path, "a.txt"), "ALPHA\n");
    const now = lstatSync(join(path, "a.txt"), { bigint: true });
    patchIndexEntry(join(dirs.gitDir, "index"), "a.txt", now);
    const stampedAt = Number(now.mtimeMs) / 1000;
    utimesSync(join(dirs.gitDir, "index"), stampedAt, stampedAt);
    const seeded = await snapshotter(path, join(root, "racy"), dirs);
    const got = await seeded.snapshots.scan();
    expect(blobIn(seeded.repo, got.tree, "a.txt")).toBe(blobOf("ALPHA\n"));

    // The same entry written well before the index: git's index vouches for it (git itself would say so).
    indexWrittenLater(dirs);
    const trusted = await snapshotter(path, join(root, "trusted"), dirs);
    expect(blobIn(trusted.repo, (await trusted.snapshots.scan()).tree, "a.txt")).toBe(blobOf("alpha\n"));
  });

  it("hashes an entry git smudged (size 0, a blob that is not empty), as git takes it as changed", async () => {
    const { root, path, dirs } = worktreeOfRepository();
    writeFileSync(join(path, "a.txt"), "");
    patchIndexEntry(join(dirs.gitDir, "index"), "a.txt", lstatSync(join(path, "a.txt"), { bigint: true }));
    indexWrittenLater(dirs);
    const seeded = await snapshotter(path, join(root, "smudged"), dirs);
    expect(blobIn(seeded.repo, (await seeded.snapshots.scan()).tree, "a.txt")).toBe(blobOf(""));
  });

  it("is taken whole, as before, where core.autocrlf converts every text file at checkout", async () => {
    const { root, path, dirs } = worktreeOfRepository({ "core.autocrlf": "true" });
    indexWrittenLater(dirs);
    expect(readFileSync(join(path, "a.txt"), "utf8")).toBe("alpha\r\n");
    const plain = await snapshotter(path, join(root, "plain"));
    const seeded = await snapshotter(path, join(root, "seeded"), dirs);
    expect((await seeded.snapshots.scan()).tree).toBe((await plain.snapshots.scan()).tree);
    expect(seeded.snapshots.lastHashed).toBe(7);
  });

  it("is taken whole, as before, when git's index is missing or does not check", async () => {
    const { root, path, dirs } = worktreeOfRepository();
    indexWrittenLater(dirs);
    const index = join(dirs.gitDir, "index");
    const bytes = readFileSync(index);
    bytes[bytes.length - 1] = (bytes[bytes.length - 1] as number) ^ 1;
    writeFileSync(index, bytes);
    const seeded = await snapshotter(path, join(root, "bad-sum"), dirs);
    await seeded.snapshots.scan();
    expect(seeded.snapshots.lastHashed).toBe(7);
  });
});

describe("the objects a worktree's records borrow", () => {
  it("are read in this process, loose and packed, through the alternates and theirs", async () => {
    const root = mkdtempSync(join(tmpdir(), "pi-desk-checkout-"));
    roots.push(root);
    const store = (name: string) => {
      const dir = join(root, name);
      git(root, "init", "-q", "--bare", dir);
      return dir;
    };
    const [first, second] = [store("first.git"), store("second.git")];
    const hashIn = (dir: string, content: string, pack = false) => {
      const id = execFileSync("git", ["--git-dir", dir, "hash-object", "-w", "--stdin"], { input: content })
        .toString()
        .trim();
      if (pack) {
        execFileSync("git", ["--git-dir", dir, "pack-objects", "-q", join(dir, "objects", "pack", "pack")], {
          input: `${id}\n`,
          stdio: ["pipe", "ignore", "ignore"],
        });
        git(root, "--git-dir", dir, "prune-packed");
      }
      return id;
    };
    const loose = hashIn(first, "loose in the first\n");
    const packed = hashIn(second, "packed in the second\n", true);
    // The first borrows from the second (a relative path, as git allows); the records borrow from the first.
    writeFileSync(join(first, "objects", "info", "alternates"), "../../second.git/objects\n");
    const records = join(root, "records");
    await writeAlternates(records, [join(first, "objects")]);
    const borrowed = new BorrowedObjects(join(records, "objects"));
    expect((await borrowed.read("blob", loose))?.toString()).toBe("loose in the first\n");
    expect((await borrowed.read("blob", packed))?.toString()).toBe("packed in the second\n");
    expect(await borrowed.read("blob", blobOf("in neither\n"))).toBeUndefined();
  });
});

describe("a worktree chat's records", () => {
  it("undo a command whose file's before-state only the repository's objects hold", async () => {
    const root = mkdtempSync(join(tmpdir(), "pi-desk-checkout-"));
    roots.push(root);
    const workspace = join(root, "repo");
    git(root, "init", "-q", "-b", "main", workspace);
    for (let i = 0; i < 30; i++) writeFileSync(join(workspace, `f${i}.txt`), `file ${i}\n`);
    git(workspace, "add", "-A");
    git(workspace, "commit", "-q", "-m", "first");
    // Packed in the repository, as a real one's objects mostly are.
    git(workspace, "gc", "-q");
    // Made by git, then opened as a chat's folder once its index is newer than its files, as a checkout of many
    // files leaves it (a small one's files all share the index's timestamp tick: racy, so all hashed).
    const path = join(root, "wt");
    git(workspace, "worktree", "add", "-q", "-b", "undo", path);
    indexWrittenLater(worktreeGitDirs({ path, branch: "undo", base: "", workspace }));
    const dataRoot = join(root, "data");
    const folder = await WorktreeFolder.open({
      workspace,
      workspaceDataDir: join(dataRoot, "workspace"),
      dataRoot,
      choice: { path },
      changes: {},
      onChangesDropped: () => {},
    });
    closing.push(() => folder.close());
    const records = folder.changes;
    if (!records) throw new Error("no records");
    await records.whenPrepared(60_000);
    expect(records.recorder.state.type).toBe("on");
    expect(records.recorder.lastHashed).toBe(0);
    const file = join(folder.worktree.path, "f7.txt");
    const before = blobOf("file 7\n");
    // Only the repository holds it: no loose object, no pack of the records' own.
    const shadowObjects = join(records.dataDir, "git", "objects");
    expect(existsSync(join(shadowObjects, before.slice(0, 2), before.slice(2)))).toBe(false);
    expect(new PackReader(join(shadowObjects, "pack")).has(before)).toBe(false);

    expect((await records.recorder.before("cmd-1")).recorded).toBe(true);
    writeFileSync(file, "rewritten by a command\nwith two lines\n");
    const after = await records.recorder.after("cmd-1");
    if (!after.recorded) throw new Error(after.reason);
    expect(after.changes.files).toMatchObject([{ path: "f7.txt", kind: "modified", added: 2, removed: 1 }]);
    const undone = await records.recorder.undo("cmd-1");
    expect(undone).toMatchObject({ restored: ["f7.txt"], conflicts: [], refused: [] });
    expect(readFileSync(file, "utf8")).toBe("file 7\n");

    // A prune (git gc in the records' repository) keeps what is borrowed readable: the next command's
    // before-state is still git's blob, and its undo still puts it back.
    await records.recorder.prune(0);
    await records.recorder.before("cmd-2");
    writeFileSync(join(folder.worktree.path, "f8.txt"), "");
    const second = await records.recorder.after("cmd-2");
    if (!second.recorded) throw new Error(second.reason);
    expect(second.changes.files).toMatchObject([{ path: "f8.txt", kind: "modified", removed: 1 }]);
    expect((await records.recorder.undo("cmd-2")).restored).toEqual(["f8.txt"]);
    expect(readFileSync(join(folder.worktree.path, "f8.txt"), "utf8")).toBe("file 8\n");
  });
});

/**
 * Writes `stat`'s times, inode and size into the entry of `path` in a version 2 index and seals it again:
 * what a write in the same timestamp tick as git's leaves in git's index.
 */
function patchIndexEntry(index: string, path: string, stat: BigIntStats): void {
  const data = readFileSync(index);
  expect(data.readUInt32BE(4)).toBe(2);
  let at = 12;
  for (let i = 0; i < data.readUInt32BE(8); i++) {
    const end = data.indexOf(0, at + 62);
    if (data.toString("utf8", at + 62, end) === path) {
      const billion = 1_000_000_000n;
      data.writeUInt32BE(Number(stat.ctimeNs / billion), at);
      data.writeUInt32BE(Number(stat.ctimeNs % billion), at + 4);
      data.writeUInt32BE(Number(stat.mtimeNs / billion), at + 8);
      data.writeUInt32BE(Number(stat.mtimeNs % billion), at + 12);
      data.writeUInt32BE(Number(stat.ino % 2n ** 32n), at + 20);
      data.writeUInt32BE(Number(stat.size), at + 36);
      createHash("sha1")
        .update(data.subarray(0, data.length - 20))
        .digest()
        .copy(data, data.length - 20);
      writeFileSync(index, data);
      return;
    }
    at += (end - at + 8) & ~7;
  }
  throw new Error(`${path} is not in ${index}`);
}
