import { execFileSync } from "node:child_process";
import { chmod, mkdir, readFile, rename, rm, symlink, unlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ChangeRecorder } from "../../../src/main/changes";
import { listing, makeScratch, openRecorder, put, removeScratch, type Scratch } from "./changes-harness";

let scratch: Scratch;
let recorder: ChangeRecorder;

beforeEach(async () => {
  scratch = await makeScratch();
  await put(scratch.workspace, "src/a.ts", "one\ntwo\r\nthree\n");
  await put(scratch.workspace, "src/tool.sh", "#!/bin/sh\necho tool\n", 0o755);
  await put(scratch.workspace, "private.txt", "only me\n", 0o600);
  await put(scratch.workspace, "old.log", Buffer.from([0, 1, 2, 255, 254, 10]));
  await put(scratch.workspace, "dir/inner.txt", "inner\n");
  await symlink("src/a.ts", join(scratch.workspace, "link-to-a"));
  recorder = await openRecorder(scratch);
});
afterEach(async () => {
  await recorder.close();
  await removeScratch(scratch);
});

async function command(id: string, edit: () => Promise<void>): Promise<void> {
  expect(await recorder.before(id)).toMatchObject({ recorded: true });
  await edit();
  expect(await recorder.after(id)).toMatchObject({ recorded: true });
}

/** A command that edits, adds and deletes, flips modes, and turns a link into a file. */
async function busyCommand(): Promise<void> {
  await put(scratch.workspace, "src/a.ts", "rewritten\n");
  await chmod(join(scratch.workspace, "src/tool.sh"), 0o644);
  await writeFile(join(scratch.workspace, "private.txt"), "changed\n");
  await put(scratch.workspace, "new/deep/file.txt", "new\n");
  await unlink(join(scratch.workspace, "old.log"));
  await unlink(join(scratch.workspace, "link-to-a"));
  await put(scratch.workspace, "link-to-a", "a file now\n");
}

describe("undo of one command", () => {
  it("puts back every file it changed, byte for byte and mode for mode, links as links", async () => {
    const before = await listing(scratch.workspace);
    await command("c1", busyCommand);
    expect(await listing(scratch.workspace)).not.toEqual(before);
    const result = await recorder.undo("c1");
    expect(result).toEqual({
      restored: ["link-to-a", "new/deep/file.txt", "old.log", "private.txt", "src/a.ts", "src/tool.sh"],
      conflicts: [],
      refused: [],
    });
    // The folders the command made stay (git records files, not folders); everything else is as before.
    expect(await listing(scratch.workspace)).toEqual(before);
    expect(before["private.txt"]).toMatch(/^600 /);
  });

  it("leaves a file changed since alone as a conflict, and restores it when asked to anyway", async () => {
    const before = await listing(scratch.workspace);
    await command("c1", busyCommand);
    await put(scratch.workspace, "src/a.ts", "the person's later edit\n");
    const first = await recorder.undo("c1");
    expect(first.conflicts).toEqual([{ path: "src/a.ts", reason: "changed since: its content changed." }]);
    expect(first.restored).not.toContain("src/a.ts");
    expect(await readFile(join(scratch.workspace, "src/a.ts"), "utf8")).toBe("the person's later edit\n");
    const second = await recorder.undo("c1", ["src/a.ts"]);
    expect(second.conflicts).toEqual([]);
    expect(second.restored).toContain("src/a.ts");
    expect(await listing(scratch.workspace)).toEqual(before);
  });

  it("refuses a file whose folder became a link to outside, and writes nothing outside", async () => {
    await command("c1", () => put(scratch.workspace, "dir/inner.txt", "changed by the command\n"));
    await put(scratch.outside, "inner.txt", "outside's own\n");
    const outsideBefore = await listing(scratch.outside);
    await rm(join(scratch.workspace, "dir"), { recursive: true });
    await symlink(scratch.outside, join(scratch.workspace, "dir"));
    const result = await recorder.undo("c1", ["dir/inner.txt"]);
    expect(result.restored).toEqual([]);
    expect(result.refused).toEqual([
      { path: "dir/inner.txt", reason: expect.stringMatching(/"dir" is now a symbolic link/) },
    ]);
    expect(await listing(scratch.outside)).toEqual(outsideBefore);
  });

  it("brings back a folder the command replaced with a link", async () => {
    const before = await listing(scratch.workspace);
    await command("c1", async () => {
      await rm(join(scratch.workspace, "dir"), { recursive: true });
      await symlink(scratch.outside, join(scratch.workspace, "dir"));
    });
    expect(await recorder.undo("c1")).toEqual({
      restored: ["dir", "dir/inner.txt"],
      conflicts: [],
      refused: [],
    });
    expect(await listing(scratch.workspace)).toEqual(before);
    expect(await listing(scratch.outside)).toEqual({});
  });

  it("keeps bytes exact in a workspace whose .gitattributes asks for line-ending conversion", async () => {
    await put(scratch.workspace, ".gitattributes", "* text=auto eol=crlf\n*.ts filter=lfs\n");
    const before = await listing(scratch.workspace);
    await command("c1", () => put(scratch.workspace, "src/a.ts", "lf only\n"));
    await recorder.undo("c1");
    expect(await readFile(join(scratch.workspace, "src/a.ts"), "utf8")).toBe("one\ntwo\r\nthree\n");
    expect(await listing(scratch.workspace)).toEqual(before);
  });

  it("does not undo a file over the size limit, and says why", async () => {
    await command("c1", () => put(scratch.workspace, "huge.bin", Buffer.alloc(17 * 1024 * 1024, 1)));
    const result = await recorder.undo("c1");
    expect(result.refused).toEqual([
      { path: "huge.bin", reason: expect.stringMatching(/over the size limit .*never recorded/) },
    ]);
    expect((await listing(scratch.workspace))["huge.bin"]).toBeDefined();
  });

  it("handles names with spaces, other scripts, a leading dash and glob characters", async () => {
    const names = ["with space.txt", "ünïcødé/日本語.md", "-dash.txt", "star*[x].txt", "line\nbreak.txt"];
    for (const name of names) await put(scratch.workspace, name, `${name} before\n`);
    const before = await listing(scratch.workspace);
    await command("c1", async () => {
      for (const name of names) await put(scratch.workspace, name, `${name} after\n`);
    });
    expect((await recorder.changeSet("c1"))?.files.map((file) => file.path).sort()).toEqual(
      [...names].sort(),
    );
    expect((await recorder.diff("c1", "star*[x].txt")).text).toContain("+star*[x].txt after");
    expect((await recorder.undo("c1")).restored.sort()).toEqual([...names].sort());
    expect(await listing(scratch.workspace)).toEqual(before);
  });

  it("puts back a file that a command replaced with a folder", async () => {
    const before = await listing(scratch.workspace);
    await command("c1", async () => {
      await unlink(join(scratch.workspace, "old.log"));
      await put(scratch.workspace, "old.log/inside.txt", "now a folder\n");
    });
    const result = await recorder.undo("c1");
    expect(result).toEqual({ restored: ["old.log", "old.log/inside.txt"], conflicts: [], refused: [] });
    expect(await listing(scratch.workspace)).toEqual(before);
  });
});

describe("restore to before a command", () => {
  it("previews every file that differs from that state, then brings the workspace back to it", async () => {
    const before = await listing(scratch.workspace);
    await command("c1", () => put(scratch.workspace, "src/a.ts", "first\n"));
    await command("c2", busyCommand);
    await put(scratch.workspace, "between.txt", "made by the person between commands\n");
    const preview = await recorder.previewRestore("c1");
    expect(preview?.changes.files.map((file) => `${file.kind} ${file.path}`)).toEqual([
      "deleted between.txt",
      "type link-to-a",
      "deleted new/deep/file.txt",
      "added old.log",
      "modified private.txt",
      "modified src/a.ts",
      "mode src/tool.sh",
    ]);
    const result = await recorder.restore(preview?.previewId ?? "");
    expect(result.conflicts).toEqual([]);
    expect(result.refused).toEqual([]);
    expect(await listing(scratch.workspace)).toEqual(before);
    expect((await recorder.restore(preview?.previewId ?? "")).refused[0]?.reason).toMatch(
      /preview the restore again/,
    );
  });

  it("treats a file changed after the preview as a conflict", async () => {
    await command("c1", () => put(scratch.workspace, "src/a.ts", "first\n"));
    const preview = await recorder.previewRestore("c1");
    await put(scratch.workspace, "src/a.ts", "after the preview\n");
    const result = await recorder.restore(preview?.previewId ?? "");
    expect(result.conflicts.map((conflict) => conflict.path)).toEqual(["src/a.ts"]);
  });
});

describe("the workspace's own git repository", () => {
  it("is left byte for byte as it was: index, refs, config, hooks, stash", async () => {
    const git = (...args: string[]) =>
      execFileSync("git", args, {
        cwd: scratch.workspace,
        env: {
          ...process.env,
          GIT_AUTHOR_NAME: "t",
          GIT_AUTHOR_EMAIL: "t@t",
          GIT_COMMITTER_NAME: "t",
          GIT_COMMITTER_EMAIL: "t@t",
        },
      });
    git("init", "-q");
    git("add", "-A");
    git("commit", "-qm", "first");
    await put(scratch.workspace, "src/a.ts", "stashed edit\n");
    git("stash", "-q");
    await put(scratch.workspace, "staged.txt", "staged\n");
    git("add", "staged.txt");
    await mkdir(join(scratch.workspace, ".git/hooks"), { recursive: true });
    await put(scratch.workspace, ".git/hooks/pre-commit", "#!/bin/sh\nexit 1\n", 0o755);
    const dotGit = await listing(join(scratch.workspace, ".git"));
    const status = git("status", "--porcelain").toString();
    // Variables a host started from a git hook or a terminal inside a repository might carry: the
    // engine builds git's environment from scratch, so none of them may steer it to the real .git.
    const inherited = {
      GIT_DIR: join(scratch.workspace, ".git"),
      GIT_INDEX_FILE: join(scratch.workspace, ".git/index"),
    };
    Object.assign(process.env, inherited);
    try {
      await command("c1", busyCommand);
      await recorder.diff("c1", "src/a.ts");
      await recorder.undo("c1");
      await recorder.previewRestore("c1");
      await recorder.prune(0);
    } finally {
      delete process.env.GIT_DIR;
      delete process.env.GIT_INDEX_FILE;
    }
    expect(await listing(join(scratch.workspace, ".git"))).toEqual(dotGit);
    expect(git("status", "--porcelain").toString()).toBe(status);
    expect(git("stash", "list").toString()).toMatch(/stash@\{0\}/);
  });

  it("is never listed as a change", async () => {
    execFileSync("git", ["init", "-q"], { cwd: scratch.workspace });
    await command("c1", async () => {
      await put(scratch.workspace, ".git/info/exclude", "changed\n");
      await rename(join(scratch.workspace, "old.log"), join(scratch.workspace, "old2.log"));
    });
    const changes = await recorder.changeSet("c1");
    expect(changes?.files.map((file) => `${file.kind} ${file.oldPath} -> ${file.path}`)).toEqual([
      "renamed old.log -> old2.log",
    ]);
  });
});
