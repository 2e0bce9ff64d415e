import {
  appendFile,
  chmod,
  lstat,
  mkdir,
  readFile,
  rename,
  rm,
  unlink,
  utimes,
  writeFile,
} from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ChangeRecorder } from "../../../src/main/changes";
import { makeScratch, openRecorder, put, removeScratch, type Scratch } from "./changes-harness";

// Where the folder watcher cannot watch the tree (past inotify's limit), a scan reads every file, and
// a command's before-state is taken without one: its single after-scan dates each change it finds by
// the file's and its folder's timestamps (see DeferredBefores.defer). These are the changes that
// dating must give to the command, and the ones it must not.

let scratch: Scratch;
let recorder: ChangeRecorder;

beforeEach(async () => {
  scratch = await makeScratch();
  for (let i = 0; i < 6; i++) await put(scratch.workspace, `d${i}/f.txt`, `file ${i}\n`);
  await put(scratch.workspace, "d0/g.txt", "another\n");
  await put(scratch.workspace, "run.sh", "echo hi\n");
  // A watcher that may watch one folder gives up at once, as one past inotify's limit does.
  recorder = await openRecorder(scratch, { maxWatchedFolders: 1 });
  expect(await recorder.prepare()).toEqual({ type: "on" });
  expect(recorder.watchLimit).toBeDefined();
});
afterEach(async () => {
  await recorder.close();
  await removeScratch(scratch);
});

/** Timestamps are coarse (a tick, and the engine allows 20 ms): let what came before settle in the past. */
const past = () => new Promise((resolve) => setTimeout(resolve, 60));

async function command(id: string, edit: () => Promise<void>) {
  expect(await recorder.before(id)).toMatchObject({ recorded: true });
  await edit();
  const after = await recorder.after(id);
  if (!after.recorded) throw new Error(after.reason);
  return after.changes.files.map(
    (file) => `${file.kind} ${file.path}${file.oldPath ? ` from ${file.oldPath}` : ""}`,
  );
}

const ws = (path: string) => join(scratch.workspace, path);

describe("a command's changes where only full scans can find them", () => {
  it("are every change the command made: created, modified, deleted, renamed, a mode change", async () => {
    await past();
    const files = await command("c1", async () => {
      await writeFile(ws("d1/new.txt"), "new\n");
      await writeFile(ws("d2/f.txt"), "file 2, edited\n");
      await unlink(ws("d3/f.txt"));
      await rename(ws("d4/f.txt"), ws("d4/moved.txt"));
      await chmod(ws("run.sh"), 0o755);
    });
    expect(files.sort()).toEqual(
      [
        "added d1/new.txt",
        "modified d2/f.txt",
        "deleted d3/f.txt",
        "renamed d4/moved.txt from d4/f.txt",
        "mode run.sh",
      ].sort(),
    );
  });

  it("include a file the command wrote with its old size and modification time put back", async () => {
    const before = await readFile(ws("d1/f.txt"));
    await utimes(ws("d1/f.txt"), new Date("2020-01-01"), new Date("2020-01-01"));
    await recorder.before("settle");
    await recorder.after("settle");
    await past();
    // Same size, same mtime (as `touch -r` or `cp -p` leave it): only the ctime says it changed now.
    const files = await command("c1", async () => {
      await writeFile(ws("d1/f.txt"), Buffer.from(before.toString().toUpperCase()));
      await utimes(ws("d1/f.txt"), new Date("2020-01-01"), new Date("2020-01-01"));
    });
    expect(files).toEqual(["modified d1/f.txt"]);
  });

  it("include a folder the command moved whole, and files it made with a date in the past", async () => {
    await past();
    const files = await command("c1", async () => {
      // The moved files keep their own timestamps: only the folders they left and joined date the move.
      await rename(ws("d5"), ws("d5-moved"));
      await writeFile(ws("d0/dated.txt"), "dated\n");
      await utimes(ws("d0/dated.txt"), new Date("2020-01-01"), new Date("2020-01-01"));
    });
    expect(files.sort()).toEqual(["added d0/dated.txt", "renamed d5-moved/f.txt from d5/f.txt"].sort());
  });

  it("leave out what was changed before the command started, and undo leaves those changes alone", async () => {
    await command("c0", async () => {}); // the last scan: the state the person then changes
    await writeFile(ws("d1/f.txt"), "edited by the person\n");
    await writeFile(ws("d1/person.txt"), "made by the person\n");
    await unlink(ws("d2/f.txt"));
    await past();
    const files = await command("c1", async () => {
      await writeFile(ws("d3/f.txt"), "edited by the command\n");
    });
    expect(files).toEqual(["modified d3/f.txt"]);

    const undone = await recorder.undo("c1");
    expect(undone.conflicts).toEqual([]);
    expect(undone.restored).toEqual(["d3/f.txt"]);
    expect(await readFile(ws("d3/f.txt"), "utf8")).toBe("file 3\n");
    expect(await readFile(ws("d1/f.txt"), "utf8")).toBe("edited by the person\n");
    expect(await readFile(ws("d1/person.txt"), "utf8")).toBe("made by the person\n");
    await expect(readFile(ws("d2/f.txt"))).rejects.toThrow(/ENOENT/);
  });

  it("give the command a change it cannot date before its start (a folder it also changed)", async () => {
    await command("c0", async () => {});
    await writeFile(ws("d1/f.txt"), "edited by the person\n");
    await past();
    // The command makes a file beside it: the folder's time is the command's, so the person's edit in
    // that folder cannot be told apart and is shown on the command's card (as a scan would not miss it).
    const files = await command("c1", async () => {
      await writeFile(ws("d1/new.txt"), "new\n");
      await rm(ws("d0/g.txt"));
    });
    expect(files.sort()).toEqual(["added d1/new.txt", "deleted d0/g.txt", "modified d1/f.txt"].sort());
  });
});

// A full scan lists a folder's entries again only when the folder's own times moved (git's untracked
// cache does the same); its files are lstat-ed every time. What it must still find, in folders that
// were listed well before (past the racy window), so the kept listing is what the command's scan uses.
describe("a full scan that keeps the listing of folders whose times did not move", () => {
  /** A scan now, after what came before has settled: every folder's listing is then kept. */
  async function listed() {
    await past();
    await command("listed", async () => {});
  }

  const times = async (path: string) => {
    const stat = await lstat(ws(path));
    return `${stat.mtimeMs} ${stat.ctimeMs} ${stat.ino}`;
  };

  it("finds a file changed in place deep in a folder whose own times did not move", async () => {
    await put(scratch.workspace, "deep/er/still/f.txt", "deep\n");
    await put(scratch.workspace, "deep/er/still/g.txt", "beside it\n");
    await listed();
    const folder = await times("deep/er/still");
    const files = await command("c1", async () => {
      await appendFile(ws("deep/er/still/f.txt"), "one more line\n");
      await writeFile(ws("d2/f.txt"), "file 2, rewritten in place\n");
    });
    expect(await times("deep/er/still")).toBe(folder); // only the file's own times say it changed
    expect(files.sort()).toEqual(["modified d2/f.txt", "modified deep/er/still/f.txt"]);
  });

  it("finds what a .gitignore edited in place no longer ignores, and a file made beside kept ones", async () => {
    await put(scratch.workspace, "d1/.gitignore", "*.log\n");
    await put(scratch.workspace, "d1/x.log", "a log\n");
    await listed();
    expect(await command("c0", async () => appendFile(ws("d1/x.log"), "ignored\n"))).toEqual([]);
    await past();
    const folder = await times("d1");
    expect(
      (
        await command("c1", async () => {
          await writeFile(ws("d1/.gitignore"), "*.tmp\n"); // in place: d1's own times stay put
          await writeFile(ws("d3/made.txt"), "made\n");
        })
      ).sort(),
    ).toEqual(["added d3/made.txt", "modified d1/.gitignore"]);
    expect(await times("d1")).toBe(folder);
    // x.log is recorded now: the next command's change to it is on its card.
    expect(await command("c2", async () => appendFile(ws("d1/x.log"), "recorded\n"))).toEqual([
      "modified d1/x.log",
    ]);
  });

  it("finds the files of a nested repository whose .git was removed (only its own times move)", async () => {
    await put(scratch.workspace, "d1/sub/a.txt", "in a nested repository\n");
    await mkdir(ws("d1/sub/.git"));
    await listed();
    expect(await command("c0", async () => appendFile(ws("d1/sub/a.txt"), "not recorded\n"))).toEqual([]);
    const folder = await times("d1");
    const files = await command("c1", async () => rm(ws("d1/sub/.git"), { recursive: true }));
    expect(await times("d1")).toBe(folder);
    expect(files).toEqual(["added d1/sub/a.txt"]);
  });

  it("finds a folder replaced by another of the same name, and a file replaced by a folder", async () => {
    await put(scratch.workspace, "d4/inner/a.txt", "old inner\n");
    await listed();
    const files = await command("c1", async () => {
      await rm(ws("d4/inner"), { recursive: true });
      await put(scratch.workspace, "d4/inner/b.txt", "new inner\n");
      await unlink(ws("d5/f.txt"));
      await put(scratch.workspace, "d5/f.txt/c.txt", "a folder now\n");
    });
    expect(files.sort()).toEqual(
      ["deleted d4/inner/a.txt", "added d4/inner/b.txt", "deleted d5/f.txt", "added d5/f.txt/c.txt"].sort(),
    );
  });
});
