import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { isInside } from "../../../src/main/base/paths";
import { DeskHost } from "../../../src/main/core/desk-host";
import { workspaceDataDir } from "../../../src/main/storage/data-folder";
import { createWorktree } from "../../../src/main/worktrees/worktree-create";
import {
  assistantSaid,
  calls,
  commandOf,
  pendingApproval,
  runCommand,
  startHost,
  type Turn,
  waitFor,
} from "../core/host-harness";

const git = (cwd: string, ...args: string[]) =>
  execFileSync("git", ["-c", "user.name=T", "-c", "user.email=t@t", ...args], { cwd, encoding: "utf8" });

/** A host on a workspace that is a git repository with one commit (a.txt). */
async function hostOnRepository(turns: Record<string, Turn[]>) {
  const started = await startHost(turns, { changes: false });
  git(started.workspace, "init", "-q", "-b", "main");
  writeFileSync(join(started.workspace, "a.txt"), "alpha line\n");
  git(started.workspace, "add", "-A");
  git(started.workspace, "commit", "-q", "-m", "first");
  return started;
}

/** A temporary folder holding a repository (`repo`, a.txt committed) and where a host's data would go. */
function repositoryFolders(prefix: string) {
  const root = mkdtempSync(join(tmpdir(), prefix));
  const workspace = join(root, "repo");
  git(root, "init", "-q", "-b", "main", workspace);
  writeFileSync(join(workspace, "a.txt"), "alpha\n");
  git(workspace, "add", "-A");
  git(workspace, "commit", "-q", "-m", "first");
  return { root, workspace, dataRoot: join(root, "data") };
}

const read = (id: string, path: string) => ({
  type: "toolCall" as const,
  id,
  name: "read",
  arguments: { path },
});

describe("a chat in its own worktree", () => {
  it("runs commands and reads files in its worktree; the workspace sees nothing until it is brought back", async () => {
    const { host, workspace, root } = await hostOnRepository({
      "make it": [
        [runCommand("c1", "printf 'from the chat\\n' > made.txt"), read("r1", "a.txt")],
        [
          {
            type: "toolCall",
            id: "e1",
            name: "write",
            arguments: { path: "written.txt", content: "by write\n" },
          },
        ],
        [{ type: "text", text: "Made." }],
      ],
    });
    const chat = await calls(host).newSession({ worktree: {} });
    expect(chat).toMatchObject({ worktree: true, branch: expect.stringMatching(/^pi-desk\/chat-/) });
    // In Pi Desk's data folder (hidden from the read tools and the sandbox), not in the workspace.
    expect(isInside(workspace, chat.folder)).toBe(false);
    expect(isInside(join(root, "data"), chat.folder)).toBe(true);
    const chatCalls = calls(host, chat.id);
    await chatCalls.prompt({ text: "make it" });
    await chatCalls.decide({ approvalId: await pendingApproval(host, "c1"), decision: { kind: "approve" } });
    const editApproval = await waitFor(() => host.state(chat.id).session?.edits.e1?.approvalId);
    await chatCalls.decide({ approvalId: editApproval, decision: { kind: "approve" } });
    await assistantSaid(host, "Made.");
    expect(commandOf(host, "c1")?.phase).toBe("succeeded");
    expect(readFileSync(join(chat.folder, "made.txt"), "utf8")).toBe("from the chat\n");
    expect(existsSync(join(workspace, "made.txt"))).toBe(false);
    // The edit tools write in the worktree too.
    expect(readFileSync(join(chat.folder, "written.txt"), "utf8")).toBe("by write\n");
    expect(existsSync(join(workspace, "written.txt"))).toBe(false);
    // The read tool reads the worktree's files although the worktree lies in a folder it hides.
    const readResult = host
      .state(chat.id)
      .session?.transcript.find((item) => item.kind === "tool" && item.name === "read");
    expect(readResult?.kind === "tool" ? readResult.result : "").toContain("alpha line");

    const review = await chatCalls.reviewWorktree();
    expect(review.files.map((file) => [file.path, file.status])).toEqual([
      ["made.txt", "added"],
      ["written.txt", "added"],
    ]);
    expect(await chatCalls.bringIntoWorkspace()).toEqual({
      applied: true,
      files: ["made.txt", "written.txt"],
    });
    expect(readFileSync(join(workspace, "made.txt"), "utf8")).toBe("from the chat\n");
  });

  it("Keep the branch commits the work, removes the worktree and closes the chat; Discard removes both", async () => {
    const { host, workspace } = await hostOnRepository({});
    const kept = await calls(host).newSession({ worktree: { name: "kept" } });
    writeFileSync(join(kept.folder, "kept.txt"), "kept work\n");
    expect(await calls(host, kept.id).keepBranch({ message: "Kept from the chat" })).toMatchObject({
      branch: "pi-desk/kept",
      committed: true,
    });
    expect(existsSync(kept.folder)).toBe(false);
    expect(git(workspace, "show", "pi-desk/kept:kept.txt")).toBe("kept work\n");
    expect(host.state().chats.some((open) => open.id === kept.id)).toBe(false);

    const dropped = await calls(host).newSession({ worktree: { name: "dropped" } });
    writeFileSync(join(dropped.folder, "lost.txt"), "lost\n");
    await calls(host, dropped.id).discardWorktree();
    expect(existsSync(dropped.folder)).toBe(false);
    expect(git(workspace, "branch", "--list", "pi-desk/dropped")).toBe("");
    expect(host.state().chats.some((open) => open.id === dropped.id)).toBe(false);
  });

  it("Keep the branch refuses, and leaves the chat and its worktree, when the worktree left its branch", async () => {
    const { host } = await hostOnRepository({});
    const chat = await calls(host).newSession({ worktree: { name: "wandered" } });
    git(chat.folder, "switch", "-q", "-c", "elsewhere");
    writeFileSync(join(chat.folder, "work.txt"), "work\n");
    await expect(calls(host, chat.id).keepBranch({})).rejects.toThrow(
      /The worktree is on elsewhere, not on its branch pi-desk\/wandered, so nothing was committed/,
    );
    expect(host.state().chats.some((open) => open.id === chat.id)).toBe(true);
    expect(readFileSync(join(chat.folder, "work.txt"), "utf8")).toBe("work\n");
  });

  it("lists a closed worktree chat among the past chats with its branch, and reopens it in its worktree", async () => {
    const { host } = await hostOnRepository({
      "in the worktree": [[{ type: "text", text: "Worked there." }]],
      "in the workspace": [[{ type: "text", text: "Worked here." }]],
    });
    const here = calls(host);
    await here.prompt({ text: "in the workspace" });
    await assistantSaid(host, "Worked here.");
    const chat = await here.newSession({ worktree: { name: "past" } });
    await calls(host, chat.id).prompt({ text: "in the worktree" });
    await waitFor(() =>
      host
        .state(chat.id)
        .session?.transcript.some((item) => item.kind === "assistant" && item.text === "Worked there."),
    );
    const file = host.state(chat.id).session?.file as string;
    await calls(host, chat.id).closeChat();

    const past = await here.listSessions();
    expect(past.find((one) => one.path === file)).toMatchObject({
      title: "in the worktree",
      worktree: chat.folder,
      branch: "pi-desk/past",
    });
    expect(past.find((one) => one.title === "in the workspace")?.worktree).toBeUndefined();
    const reopened = await here.openSession({ path: file });
    expect(reopened).toMatchObject({ worktree: true, branch: "pi-desk/past", folder: chat.folder });
  });

  it("says where a worktree chat's conversation is when its worktree is gone, and opens nothing", async () => {
    const { host, workspace } = await hostOnRepository({
      "in the worktree": [[{ type: "text", text: "ok" }]],
    });
    const chat = await calls(host).newSession({ worktree: { name: "gone" } });
    await calls(host, chat.id).prompt({ text: "in the worktree" });
    await waitFor(() => host.state(chat.id).session?.transcript.some((item) => item.kind === "assistant"));
    const file = host.state(chat.id).session?.file as string;
    await calls(host, chat.id).closeChat();
    git(workspace, "worktree", "remove", "--force", chat.folder);
    const before = host.state().chats.length;
    await expect(calls(host).openSession({ path: file })).rejects.toThrow(
      /which is no longer a worktree of this repository \(it was removed\)\. Its conversation is still in/,
    );
    expect(host.state().chats).toHaveLength(before);
  });

  it("keeps the workspace's worktree settings, refuses a folder inside the workspace, and makes new worktrees where told", async () => {
    const { host, workspace, root } = await hostOnRepository({});
    const here = calls(host);
    expect(await here.worktreeSettings()).toEqual({ keep: 5, olderThanDays: 7, first: "here", kept: [] });
    await expect(
      here.setWorktreeSettings({
        settings: { folder: join(workspace, "trees"), keep: 5, olderThanDays: 7, first: "here" },
      }),
    ).rejects.toThrow("The worktrees' folder cannot be inside the workspace: pick one outside it.");
    await expect(
      here.setWorktreeSettings({ settings: { folder: "trees", keep: 5, olderThanDays: 7, first: "here" } }),
    ).rejects.toThrow(/is not a full path/);
    const folder = join(root, "elsewhere");
    const saved = await here.setWorktreeSettings({
      settings: { folder, setup: "true", keep: 2, olderThanDays: 3, first: "worktree" },
    });
    expect(saved).toEqual({ folder, setup: "true", keep: 2, olderThanDays: 3, first: "worktree", kept: [] });
    const chat = await here.newSession({ worktree: { name: "placed" } });
    expect(isInside(folder, chat.folder)).toBe(true);
  });

  it("opens a worktree made outside Pi Desk as a chat's folder, and lists it with its chat", async () => {
    const { host, workspace, root } = await hostOnRepository({});
    const outside = join(root, "by-hand");
    git(workspace, "worktree", "add", "-q", "-b", "by-hand", outside);
    const chat = await calls(host).newSession({ worktree: { path: outside } });
    expect(chat).toMatchObject({ worktree: true, branch: "by-hand", folder: outside });
    const listed = await calls(host).listWorktrees();
    expect(listed.find((entry) => entry.path === outside)).toMatchObject({ chatId: chat.id, main: false });
    await expect(calls(host).newSession({ worktree: { path: outside } })).rejects.toThrow(
      /is open in a chat already/,
    );
  });

  it("refuses a worktree where the workspace is not a repository, and a chat of the workspace's folder", async () => {
    const { host } = await startHost({}, { changes: false });
    await expect(calls(host).newSession({ worktree: {} })).rejects.toThrow(/is not a git repository/);
    await expect(calls(host).reviewWorktree()).rejects.toThrow(/not in a worktree/);
    await waitFor(() => host.state().chats.length === 1);
  });
});

describe("when a workspace opens", () => {
  it("its finished chats' clean worktrees past the settings' count and age are removed; one with uncommitted work stays", async () => {
    const { root, workspace, dataRoot } = repositoryFolders("pi-desk-cleanup-");
    const worktreesRoot = join(dataRoot, "worktrees");
    const done = await createWorktree({ workspace, worktreesRoot, name: "done" });
    const dirty = await createWorktree({ workspace, worktreesRoot, name: "dirty" });
    writeFileSync(join(dirty.path, "half.txt"), "half\n");
    writeFileSync(
      join(workspaceDataDir(dataRoot, workspace), "settings.json"),
      JSON.stringify({ worktreeCleanup: { keep: 0, olderThanDays: 0 } }),
    );
    // What Pi Desk keeps for a worktree chat's folder (its change records) goes with the worktree.
    const doneData = workspaceDataDir(dataRoot, done.path);
    const host = await DeskHost.create({
      shell: "browser",
      version: "test",
      workspace: { path: workspace, name: "repo" },
      dataRoot,
      changes: false,
    });
    try {
      // Removed in the background: the worktree, then its branch (untouched, so nothing is lost).
      await waitFor(
        () =>
          !existsSync(done.path) &&
          git(workspace, "branch", "--list", "pi-desk/done") === "" &&
          !existsSync(doneData),
      );
      expect(readFileSync(join(dirty.path, "half.txt"), "utf8")).toBe("half\n");
    } finally {
      await host.dispose();
      rmSync(root, { recursive: true, force: true });
    }
  });
});

/** A host on a repository (a.txt committed) whose workspace settings name `setup` as the worktree setup step. */
async function hostWithSetup(setup: string, script: Turn[]) {
  const { root, workspace, dataRoot } = repositoryFolders("pi-desk-setup-");
  writeFileSync(
    join(workspaceDataDir(dataRoot, workspace), "settings.json"),
    JSON.stringify({ worktreeSetup: setup }),
  );
  writeFileSync(join(root, "script.json"), JSON.stringify(script));
  process.env.PI_DESK_SCRIPT = join(root, "script.json");
  const host = await DeskHost.create({
    shell: "browser",
    version: "test",
    workspace: { path: workspace, name: "repo" },
    dataRoot,
    changes: false,
  });
  return { root, workspace, host };
}

/** The new worktree chat's setup command, once it waits for the person. */
const setupWaiting = (host: DeskHost, chatId: string) =>
  waitFor(() =>
    Object.values(host.state(chatId).session?.commands ?? {}).find((command) => command.approvalId),
  );

describe("a workspace's setup step", () => {
  it("runs in a new worktree chat as an ordinary command: it waits for the person's approval, then runs there", async () => {
    const setup = "printf 'set up\\n' > .setup-done";
    const { root, workspace, host } = await hostWithSetup(setup, []);
    try {
      const chat = await calls(host).newSession({ worktree: { name: "set" } });
      const waiting = await setupWaiting(host, chat.id);
      expect(waiting.command).toBe(setup);
      expect(waiting.cwd).toBe(chat.folder);
      expect(host.state().inbox.map((entry) => entry.chatId)).toEqual([chat.id]);
      expect(existsSync(join(chat.folder, ".setup-done"))).toBe(false);
      await calls(host, chat.id).decide({
        approvalId: waiting.approvalId as string,
        decision: { kind: "approve" },
      });
      await waitFor(() => host.state(chat.id).session?.commands[waiting.id]?.phase === "succeeded");
      expect(readFileSync(join(chat.folder, ".setup-done"), "utf8")).toBe("set up\n");
      expect(existsSync(join(workspace, ".setup-done"))).toBe(false);
      const history = await calls(host, chat.id).getHistory({});
      expect(history.some((entry) => JSON.stringify(entry).includes(".setup-done"))).toBe(true);

      // An existing worktree opened as a chat's folder is set up already: no step.
      const byHand = join(root, "by-hand");
      git(workspace, "worktree", "add", "-q", "-b", "by-hand", byHand);
      const opened = await calls(host).newSession({ worktree: { path: byHand } });
      expect(Object.keys(host.state(opened.id).session?.commands ?? {})).toEqual([]);
    } finally {
      await host.dispose();
      rmSync(root, { recursive: true, force: true });
    }
  });

  it("keeps its card and outcome in the chat's conversation: reopened, the chat shows it as it ended", async () => {
    const setup = "printf 'set up\\n'";
    const { root, host } = await hostWithSetup(setup, [[{ type: "text", text: "Ready." }]]);
    try {
      const chat = await calls(host).newSession({ worktree: { name: "kept" } });
      const waiting = await setupWaiting(host, chat.id);
      await calls(host, chat.id).decide({
        approvalId: waiting.approvalId as string,
        decision: { kind: "approve" },
      });
      await waitFor(() => host.state(chat.id).session?.commands[waiting.id]?.phase === "succeeded");
      await calls(host, chat.id).prompt({ text: "go on" });
      await waitFor(() =>
        host
          .state(chat.id)
          .session?.transcript.some((item) => item.kind === "assistant" && item.text === "Ready."),
      );
      const file = host.state(chat.id).session?.file as string;
      await calls(host, chat.id).closeChat();

      const reopened = await calls(host).openSession({ path: file });
      const session = host.state(reopened.id).session;
      expect(session?.transcript.map((item) => item.kind)).toEqual(["command", "user", "assistant"]);
      expect(session?.commands[waiting.id]).toMatchObject({
        command: setup,
        phase: "succeeded",
        output: "set up",
      });
    } finally {
      await host.dispose();
      rmSync(root, { recursive: true, force: true });
    }
  });
});
