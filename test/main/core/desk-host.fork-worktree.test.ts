import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { SessionManager } from "@earendil-works/pi-coding-agent";
import { describe, expect, it } from "vitest";
import { calls, runCommand } from "./host-harness";
import { edit, entryOf, rewindHost, turn, userTexts } from "./rewind-harness";

const git = (cwd: string, ...args: string[]) =>
  execFileSync("git", ["-c", "user.name=T", "-c", "user.email=t@t", ...args], { cwd, encoding: "utf8" });

const text = (said: string) => [{ type: "text" as const, text: said }];

const SCRIPT = [
  [edit("e1", "a.txt", "alpha", "FIRST")],
  [runCommand("c1", "echo made > c.txt")],
  text("done one"),
  [runCommand("c2", "rm b.txt; echo more >> a.txt")],
  text("done two"),
];

/** A host on a git repository (a.txt, b.txt, gone.txt committed) with work not committed before the chat began. */
async function repositoryHost() {
  const started = await rewindHost(SCRIPT, { "a.txt": "alpha\n", "b.txt": "one\n", "gone.txt": "old\n" });
  const { workspace } = started;
  git(workspace, "init", "-q", "-b", "main");
  git(workspace, "add", "-A");
  git(workspace, "commit", "-q", "-m", "first");
  writeFileSync(join(workspace, "b.txt"), "one\nlocal\n"); // the person's work, not committed
  writeFileSync(join(workspace, "u.txt"), "untracked\n");
  unlinkSync(join(workspace, "gone.txt"));
  return started;
}

/** The files of a folder the test looks at (absent: null). */
function filesOf(folder: string): Record<string, string | null> {
  return Object.fromEntries(
    ["a.txt", "b.txt", "c.txt", "u.txt", "gone.txt"].map((path) => {
      const file = join(folder, path);
      return [path, existsSync(file) ? readFileSync(file, "utf8") : null];
    }),
  );
}

describe("the session host: fork into a new worktree", () => {
  it("holds the files as they were before the message, the work not committed included; the chat's folder is not touched", async () => {
    const { host, workspace } = await repositoryHost();
    const original = host.state().chatId as string;
    await turn(host, "first", ["e1", "c1"], "done one");
    await turn(host, "second", ["c2"], "done two");
    const sourceFile = host.state().session?.file as string;
    const folderNow = filesOf(workspace);

    const fork = await calls(host, original).forkChat({
      entryId: entryOf(host, "second"),
      where: "worktree",
    });
    expect(fork.text).toBe("second");
    expect(fork.chat).toMatchObject({ worktree: true, branch: expect.stringMatching(/^pi-desk\//) });
    const folder = fork.chat.folder;
    expect(folder).not.toBe(workspace);
    expect(filesOf(folder)).toEqual({
      "a.txt": "FIRST\n",
      "b.txt": "one\nlocal\n",
      "c.txt": "made\n",
      "u.txt": "untracked\n",
      "gone.txt": null,
    });
    expect(filesOf(workspace)).toEqual(folderNow);
    expect(userTexts(host)).toEqual(["first"]);
    // Pi's fork: its header names the chat's file, and the worktree is its folder (`pi -c` there finds it).
    const forked = SessionManager.open(host.state().session?.file as string);
    expect(forked.getHeader()?.parentSession).toBe(sourceFile);
    expect(forked.getCwd()).toBe(folder);

    const earlier = await calls(host, original).forkChat({
      entryId: entryOf(host, "first"),
      where: "worktree",
    });
    expect(filesOf(earlier.chat.folder)).toEqual({
      "a.txt": "alpha\n",
      "b.txt": "one\nlocal\n",
      "c.txt": null,
      "u.txt": "untracked\n",
      "gone.txt": null,
    });
    expect(filesOf(workspace)).toEqual(folderNow);
  });

  it("refuses a worktree where the folder is no git repository, saying what to do, and makes no chat", async () => {
    const { host } = await rewindHost(SCRIPT, { "a.txt": "alpha\n" });
    await turn(host, "first", ["e1", "c1"], "done one");
    const chats = host.state().chats.length;
    await expect(
      calls(host).forkChat({ entryId: entryOf(host, "first"), where: "worktree" }),
    ).rejects.toThrow(/not a git repository/);
    expect(host.state().chats).toHaveLength(chats);
  });
});
