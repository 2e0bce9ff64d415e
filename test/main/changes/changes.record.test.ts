import { chmod, rename, rm, symlink, unlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ChangeRecorder } from "../../../src/main/changes";
import { makeScratch, openRecorder, put, removeScratch, type Scratch } from "./changes-harness";

let scratch: Scratch;
let recorder: ChangeRecorder;

beforeEach(async () => {
  scratch = await makeScratch();
  await put(scratch.workspace, "src/a.ts", "one\ntwo\nthree\n");
  await put(scratch.workspace, "old.log", "log line\n");
  await put(scratch.workspace, "keep.txt", "unchanged\n");
  recorder = await openRecorder(scratch);
});
afterEach(async () => {
  await recorder.close();
  await removeScratch(scratch);
});

/** Records `edit` as command `id`, as the session will around a run_command. */
async function command(id: string, edit: () => Promise<void>) {
  expect(await recorder.before(id)).toMatchObject({ recorded: true });
  await edit();
  const after = await recorder.after(id);
  if (!after.recorded) throw new Error(after.reason);
  return after;
}

describe("the change set of a command", () => {
  it("lists an edit, an addition and a deletion with line counts, diffs and a summary naming them", async () => {
    const after = await command("c1", async () => {
      await put(scratch.workspace, "src/a.ts", "one\nTWO\nthree\nfour\nfive\n");
      await put(scratch.workspace, "notes.txt", "a note\n");
      await unlink(join(scratch.workspace, "old.log"));
    });
    expect(after.changes.files).toEqual([
      expect.objectContaining({ kind: "added", path: "notes.txt", added: 1, removed: 0, binary: false }),
      expect.objectContaining({ kind: "deleted", path: "old.log", added: 0, removed: 1 }),
      expect.objectContaining({ kind: "modified", path: "src/a.ts", added: 3, removed: 1 }),
    ]);
    expect(after.summary).toBe("Files changed: A notes.txt, D old.log, M src/a.ts (+3 -1).");
    // after() diffs against the index and writes the tree later; the kept record's trees agree.
    expect(await recorder.changeSet("c1")).toEqual(after.changes);
    const diff = await recorder.diff("c1", "src/a.ts");
    expect(diff.truncated).toBe(false);
    expect(diff.text).toContain("--- a/src/a.ts\n+++ b/src/a.ts\n");
    expect(diff.text).toContain("-two\n+TWO\n three\n+four\n+five\n");
    expect((await recorder.diff("c1", "keep.txt")).note).toMatch(/not among the files/);
  });

  it("cuts a diff at the byte cap and says so", async () => {
    await command("c1", () => put(scratch.workspace, "big.txt", "line of text\n".repeat(10_000)));
    const diff = await recorder.diff("c1", "big.txt", 1000);
    expect(diff.truncated).toBe(true);
    expect(Buffer.byteLength(diff.text)).toBeLessThanOrEqual(1000);
    expect(diff.text).toContain("+line of text");
  });

  it("classifies a rename, a mode change and a file that became a symbolic link", async () => {
    await put(scratch.workspace, "run.sh", "#!/bin/sh\necho hi\n");
    await put(scratch.workspace, "target.txt", "t\n");
    await put(
      scratch.workspace,
      "moved-from.txt",
      "a file long enough to be found again after a move\n".repeat(5),
    );
    await command("setup", async () => {});
    const after = await command("c2", async () => {
      await rename(join(scratch.workspace, "moved-from.txt"), join(scratch.workspace, "moved-to.txt"));
      await chmod(join(scratch.workspace, "run.sh"), 0o755);
      await unlink(join(scratch.workspace, "keep.txt"));
      await symlink("target.txt", join(scratch.workspace, "keep.txt"));
    });
    expect(after.changes.files).toEqual([
      expect.objectContaining({ kind: "type", path: "keep.txt", oldMode: "100644", newMode: "120000" }),
      expect.objectContaining({ kind: "renamed", path: "moved-to.txt", oldPath: "moved-from.txt" }),
      expect.objectContaining({ kind: "mode", path: "run.sh", oldMode: "100644", newMode: "100755" }),
    ]);
    expect(after.summary).toBe(
      "Files changed: T keep.txt (file -> symlink), R moved-from.txt -> moved-to.txt, M run.sh (mode 100644 -> 100755).",
    );
  });

  it("leaves out node_modules, build output and what the workspace's .gitignore ignores", async () => {
    await put(scratch.workspace, ".gitignore", "*.tmp\n");
    await command("setup", async () => {});
    const after = await command("c1", async () => {
      await put(scratch.workspace, "node_modules/left-pad/index.js", "module.exports = 1;\n");
      await put(scratch.workspace, "packages/x/node_modules/y.js", "y\n");
      await put(scratch.workspace, "dist/app.js", "built\n");
      await put(scratch.workspace, "scratch.tmp", "tmp\n");
      await put(scratch.workspace, "src/b.ts", "b\n");
    });
    expect(after.changes.files.map((file) => file.path)).toEqual(["src/b.ts"]);
  });

  it("lets go of recorded files a changed .gitignore now ignores, and takes them back when it stops", async () => {
    await command("setup", async () => {});
    // old.log was recorded: a .gitignore that ignores it takes it out, as `git add -A` would.
    const ignoring = await command("c1", () => put(scratch.workspace, ".gitignore", "*.log\n"));
    expect(ignoring.changes.files.map((file) => `${file.kind} ${file.path}`).sort()).toEqual([
      "added .gitignore",
      "deleted old.log",
    ]);
    const back = await command("c2", () => unlink(join(scratch.workspace, ".gitignore")));
    expect(back.changes.files.map((file) => `${file.kind} ${file.path}`).sort()).toEqual([
      "added old.log",
      "deleted .gitignore",
    ]);
  });

  it("names a file over the size limit by size without storing it", async () => {
    const after = await command("c1", () =>
      put(scratch.workspace, "data.bin", Buffer.alloc(20 * 1024 * 1024, 7)),
    );
    expect(after.changes.files).toEqual([
      expect.objectContaining({
        kind: "added",
        path: "data.bin",
        oversized: true,
        newSize: 20 * 1024 * 1024,
      }),
    ]);
    expect(after.summary).toBe("Files changed: A data.bin (over the size limit, not recorded).");
    expect(await recorder.usage()).toBeLessThan(1024 * 1024);
    const grown = await command("c2", () =>
      writeFile(join(scratch.workspace, "data.bin"), Buffer.alloc(21 * 1024 * 1024, 8)),
    );
    expect(grown.changes.files).toEqual([
      expect.objectContaining({ kind: "modified", path: "data.bin", oversized: true }),
    ]);
    const same = await command("c3", async () => {});
    expect(same.changes.files).toEqual([]);
    expect(same.summary).toBe("Files changed: none.");
  });

  it("bounds the summary at 20 files and counts the rest", async () => {
    const after = await command("c1", async () => {
      for (let i = 0; i < 25; i++)
        await put(scratch.workspace, `gen/f${String(i).padStart(2, "0")}.txt`, `${i}\n`);
    });
    expect(after.changes.files).toHaveLength(25);
    expect(after.summary).toMatch(/^Files changed: A gen\/f00\.txt, .*A gen\/f19\.txt, and 5 more\.$/);
  });

  it("keeps a nested repository out and names it", async () => {
    const { execFileSync } = await import("node:child_process");
    await put(scratch.workspace, "vendor/lib/file.c", "int x;\n");
    execFileSync("git", ["init", "-q"], { cwd: join(scratch.workspace, "vendor/lib") });
    await command("setup", async () => {});
    const after = await command("c1", async () => {
      await put(scratch.workspace, "vendor/lib/file.c", "int y;\n");
      await put(scratch.workspace, "top.txt", "t\n");
    });
    expect(after.changes.files.map((file) => file.path)).toEqual(["top.txt"]);
    expect(after.changes.nestedRepositories).toEqual(["vendor/lib/"]);
  });

  it("says which commands overlapped in time", async () => {
    await recorder.before("a");
    await recorder.before("b");
    await put(scratch.workspace, "from-b.txt", "b\n");
    const a = await recorder.after("a");
    await recorder.after("b");
    await command("c", async () => {});
    expect(a.recorded && a.overlapping.map((window) => window.commandId)).toEqual(["b"]);
    // a's scan saw b's file: one workspace, one scan; the overlap is how the card can say so.
    expect(a.recorded && a.changes.files.map((file) => file.path)).toEqual(["from-b.txt"]);
    expect(recorder.windows("c")?.overlapping).toEqual([]);
    expect(recorder.commands().map((window) => window.commandId)).toEqual(["a", "b", "c"]);
  });

  it("stores a first snapshot of many files (the bulk path) and undoes a change in it", async () => {
    for (let i = 0; i < 700; i++) await put(scratch.workspace, `many/f${i}.txt`, `file ${i}\n`);
    await command("c1", () => put(scratch.workspace, "many/f123.txt", "changed\n"));
    expect((await recorder.changeSet("c1"))?.files.map((file) => file.path)).toEqual(["many/f123.txt"]);
    expect((await recorder.undo("c1")).restored).toEqual(["many/f123.txt"]);
    const { readFile } = await import("node:fs/promises");
    expect(await readFile(join(scratch.workspace, "many/f123.txt"), "utf8")).toBe("file 123\n");
  });

  it("says why when after() has no before-state, and does not count a command the host lost as still running", async () => {
    expect(await recorder.after("never-started")).toEqual({
      recorded: false,
      reason: "No before-state was recorded for command never-started.",
    });
    await recorder.before("lost"); // the host stops before this command's after()
    await recorder.close();
    recorder = await openRecorder(scratch);
    await command("next", () => put(scratch.workspace, "n.txt", "n\n"));
    expect(recorder.windows("next")?.overlapping).toEqual([]);
    expect(recorder.windows("lost")?.window).toEqual({ commandId: "lost", startedAt: expect.any(Number) });
    expect((await recorder.undo("lost")).refused[0]?.reason).toMatch(/No complete record of command lost/);
  });

  it("keeps its records across a restart of the host", async () => {
    await command("c1", () => put(scratch.workspace, "src/a.ts", "changed\n"));
    const before = await recorder.changeSet("c1");
    await recorder.close();
    recorder = await openRecorder(scratch);
    expect(await recorder.changeSet("c1")).toEqual(before);
    expect((await recorder.diff("c1", "src/a.ts")).text).toContain("+changed");
    expect(await recorder.undo("c1")).toEqual({ restored: ["src/a.ts"], conflicts: [], refused: [] });
    await rm(join(scratch.dataDir, "records"), { recursive: true });
    const fresh = await openRecorder(scratch);
    expect(await fresh.changeSet("c1")).toBeUndefined();
    await fresh.close();
  });
});
