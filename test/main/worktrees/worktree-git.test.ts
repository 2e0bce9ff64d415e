import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { WorkspacePreferences } from "../../../src/main/agent/workspace-preferences";
import { bringIntoWorkspace } from "../../../src/main/worktrees/bring-back";
import { type WorktreeChat, WorktreeChats } from "../../../src/main/worktrees/worktree-chats";
import { cleanupWorktrees } from "../../../src/main/worktrees/worktree-cleanup";
import { createWorktree, existingWorktree, listWorktrees } from "../../../src/main/worktrees/worktree-create";
import { commitWork, discardWorktree, removeWorktree } from "../../../src/main/worktrees/worktree-finish";
import { reviewWorktree } from "../../../src/main/worktrees/worktree-review";

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

const git = (cwd: string, ...args: string[]) =>
  execFileSync("git", ["-c", "user.name=T", "-c", "user.email=t@t", ...args], { cwd, encoding: "utf8" });

/** A repository with a first commit: a text file, one to rename, one to delete, and a binary file. */
function repository() {
  const root = mkdtempSync(join(tmpdir(), "pi-desk-wt-"));
  roots.push(root);
  const workspace = join(root, "repo");
  git(root, "init", "-q", "-b", "main", workspace);
  writeFileSync(join(workspace, "a.txt"), "one\ntwo\nthree\n");
  writeFileSync(join(workspace, "old-name.txt"), "moved along\nwith its lines\n");
  writeFileSync(join(workspace, "gone.txt"), "to be deleted\n");
  writeFileSync(join(workspace, "image.bin"), Buffer.from([0, 1, 2, 3, 255, 0, 7]));
  git(workspace, "add", "-A");
  git(workspace, "commit", "-q", "-m", "first");
  return { root, workspace, worktreesRoot: join(root, "worktrees") };
}

/** Random bytes git takes for binary (a NUL among them). */
const binary = (size: number) => {
  const bytes = Buffer.alloc(size);
  for (let i = 0; i < size; i++) bytes[i] = (i * 7919 + 13) % 256;
  bytes[5] = 0;
  return bytes;
};

describe("a chat's worktree", () => {
  it("is made on a new pi-desk/ branch from HEAD, outside the workspace, and listed by git", async () => {
    const { workspace, worktreesRoot } = repository();
    const tree = await createWorktree({ workspace, worktreesRoot, name: "fix-login" });
    expect(tree.branch).toBe("pi-desk/fix-login");
    expect(tree.base).toBe(git(workspace, "rev-parse", "HEAD").trim());
    expect(tree.path.startsWith(worktreesRoot)).toBe(true);
    expect(readFileSync(join(tree.path, "a.txt"), "utf8")).toBe("one\ntwo\nthree\n");
    const listed = await listWorktrees(workspace);
    expect(listed.map((entry) => [entry.branch, entry.main])).toEqual([
      ["main", true],
      ["pi-desk/fix-login", false],
    ]);
  });

  it("starts from the base asked for", async () => {
    const { workspace, worktreesRoot } = repository();
    const first = git(workspace, "rev-parse", "HEAD").trim();
    writeFileSync(join(workspace, "later.txt"), "later\n");
    git(workspace, "add", "-A");
    git(workspace, "commit", "-q", "-m", "second");
    const tree = await createWorktree({ workspace, worktreesRoot, base: "HEAD~1" });
    expect(tree.base).toBe(first);
    expect(existsSync(join(tree.path, "later.txt"))).toBe(false);
  });

  it("refuses plainly: not a repository, a base that is not there, a branch that exists", async () => {
    const { root, workspace, worktreesRoot } = repository();
    const plain = join(root, "plain");
    execFileSync("mkdir", [plain]);
    await expect(createWorktree({ workspace: plain, worktreesRoot })).rejects.toThrow(
      /is not a git repository/,
    );
    await expect(createWorktree({ workspace, worktreesRoot, base: "no-such-branch" })).rejects.toThrow(
      /The base "no-such-branch" is not a commit, branch or tag/,
    );
    git(workspace, "branch", "pi-desk/taken");
    await expect(createWorktree({ workspace, worktreesRoot, name: "taken" })).rejects.toThrow(
      /The branch "pi-desk\/taken" exists already/,
    );
  });

  it("made outside Pi Desk, opens with its branch and the base where it meets the workspace", async () => {
    const { root, workspace } = repository();
    const base = git(workspace, "rev-parse", "HEAD").trim();
    const outside = join(root, "by-hand");
    git(workspace, "worktree", "add", "-q", "-b", "by-hand", outside);
    writeFileSync(join(outside, "a.txt"), "changed by hand\n");
    git(outside, "commit", "-q", "-am", "by hand");
    const tree = await existingWorktree(workspace, outside);
    expect(tree).toMatchObject({ branch: "by-hand", base });
    await expect(existingWorktree(workspace, workspace)).rejects.toThrow(/the workspace's own checkout/);
    await expect(existingWorktree(workspace, join(root, "nowhere"))).rejects.toThrow(/is not a worktree of/);
  });
});

describe("the review and bringing the work back", () => {
  /** A worktree whose work has a commit and uncommitted files: an edit, a rename, a deletion, binaries. */
  async function workedOn() {
    const repo = repository();
    const tree = await createWorktree({
      workspace: repo.workspace,
      worktreesRoot: repo.worktreesRoot,
      name: "w",
    });
    writeFileSync(join(tree.path, "a.txt"), "one\nTWO\nthree\n");
    git(tree.path, "commit", "-q", "-am", "edit a");
    git(tree.path, "mv", "old-name.txt", "new-name.txt");
    git(tree.path, "rm", "-q", "gone.txt");
    writeFileSync(join(tree.path, "image.bin"), binary(3000));
    writeFileSync(join(tree.path, "fresh.bin"), binary(5000));
    writeFileSync(join(tree.path, "notes.md"), "# new\n");
    return { ...repo, tree };
  }

  it("shows every file against the base: commits and uncommitted, renames, deletions, binary files", async () => {
    const { tree } = await workedOn();
    const review = await reviewWorktree(tree);
    expect(review.commits.map((commit) => commit.subject)).toEqual(["edit a"]);
    expect(review.uncommitted).toBe(5);
    const byPath = Object.fromEntries(review.files.map((file) => [file.path, file]));
    expect(byPath["a.txt"]).toMatchObject({ status: "modified", added: 1, removed: 1, binary: false });
    expect(byPath["a.txt"]?.diff).toContain("+TWO");
    expect(byPath["new-name.txt"]).toMatchObject({ status: "renamed", oldPath: "old-name.txt" });
    expect(byPath["gone.txt"]).toMatchObject({ status: "deleted" });
    expect(byPath["image.bin"]).toMatchObject({ status: "modified", binary: true, diff: "" });
    expect(byPath["fresh.bin"]).toMatchObject({ status: "added", binary: true });
    expect(byPath["notes.md"]).toMatchObject({ status: "added", added: 1 });
    // The worktree's own index is left as the chat left it: the untracked files are still untracked.
    expect(git(tree.path, "status", "--porcelain")).toContain("?? notes.md");
  });

  it("brings the whole change in as uncommitted changes: a rename, a deletion, binary files byte for byte", async () => {
    const { workspace, tree } = await workedOn();
    const head = git(workspace, "rev-parse", "HEAD");
    const result = await bringIntoWorkspace(tree);
    expect(result.applied).toBe(true);
    expect(readFileSync(join(workspace, "a.txt"), "utf8")).toBe("one\nTWO\nthree\n");
    expect(existsSync(join(workspace, "old-name.txt"))).toBe(false);
    expect(readFileSync(join(workspace, "new-name.txt"), "utf8")).toBe("moved along\nwith its lines\n");
    expect(existsSync(join(workspace, "gone.txt"))).toBe(false);
    expect(readFileSync(join(workspace, "image.bin")).equals(binary(3000))).toBe(true);
    expect(readFileSync(join(workspace, "fresh.bin")).equals(binary(5000))).toBe(true);
    expect(readFileSync(join(workspace, "notes.md"), "utf8")).toBe("# new\n");
    // Uncommitted: the workspace's HEAD and index are where the person left them.
    expect(git(workspace, "rev-parse", "HEAD")).toBe(head);
    expect(git(workspace, "diff", "--cached", "--name-only")).toBe("");
  });

  it("applies nothing when a file conflicts with the workspace's own edit, and lists each such file", async () => {
    const { workspace, tree } = await workedOn();
    writeFileSync(join(workspace, "a.txt"), "one\nmine\nthree\n");
    writeFileSync(join(workspace, "notes.md"), "the person's own notes\n");
    const result = await bringIntoWorkspace(tree);
    expect(result).toEqual({
      applied: false,
      conflicts: [
        { path: "a.txt", reason: "changed-in-workspace" },
        { path: "notes.md", reason: "exists-in-workspace" },
      ],
    });
    // Nothing else of the change either: the rename, the deletion and the binaries are not there.
    expect(readFileSync(join(workspace, "a.txt"), "utf8")).toBe("one\nmine\nthree\n");
    expect(readFileSync(join(workspace, "notes.md"), "utf8")).toBe("the person's own notes\n");
    expect(existsSync(join(workspace, "old-name.txt"))).toBe(true);
    expect(existsSync(join(workspace, "gone.txt"))).toBe(true);
    expect(existsSync(join(workspace, "fresh.bin"))).toBe(false);
    expect(readFileSync(join(workspace, "image.bin")).equals(Buffer.from([0, 1, 2, 3, 255, 0, 7]))).toBe(
      true,
    );
  });
});

describe("ending a worktree chat's work", () => {
  it("Keep the branch commits what was not committed and leaves the branch, without the worktree", async () => {
    const { workspace, worktreesRoot } = repository();
    const tree = await createWorktree({ workspace, worktreesRoot, name: "keep" });
    writeFileSync(join(tree.path, "made.txt"), "made in the chat\n");
    const kept = await commitWork(tree, "The chat's work");
    await removeWorktree(tree);
    expect(kept).toMatchObject({ branch: "pi-desk/keep", committed: true });
    expect(existsSync(tree.path)).toBe(false);
    expect(git(workspace, "worktree", "list")).not.toContain("pi-desk/keep");
    expect(git(workspace, "show", "pi-desk/keep:made.txt")).toBe("made in the chat\n");
    expect(git(workspace, "log", "-1", "--format=%s", "pi-desk/keep").trim()).toBe("The chat's work");
  });

  it("Discard removes the worktree and its branch", async () => {
    const { workspace, worktreesRoot } = repository();
    const tree = await createWorktree({ workspace, worktreesRoot, name: "drop" });
    writeFileSync(join(tree.path, "made.txt"), "to be lost\n");
    await discardWorktree(tree);
    expect(existsSync(tree.path)).toBe(false);
    expect(git(workspace, "branch", "--list", "pi-desk/drop")).toBe("");
    expect(git(workspace, "worktree", "list")).not.toContain("drop");
  });
});

describe("cleanup of finished chats' worktrees", () => {
  it("removes only clean ones past the count and age, never uncommitted work, an open chat's or one made elsewhere", async () => {
    const { root, workspace, worktreesRoot } = repository();
    const untouched = await createWorktree({ workspace, worktreesRoot, name: "untouched" });
    const committed = await createWorktree({ workspace, worktreesRoot, name: "committed" });
    writeFileSync(join(committed.path, "done.txt"), "done\n");
    git(committed.path, "add", "-A");
    git(committed.path, "commit", "-q", "-m", "done");
    const dirty = await createWorktree({ workspace, worktreesRoot, name: "dirty" });
    writeFileSync(join(dirty.path, "half.txt"), "not committed\n");
    const open = await createWorktree({ workspace, worktreesRoot, name: "open" });
    const elsewhere = join(root, "elsewhere");
    git(workspace, "worktree", "add", "-q", "-b", "pi-desk/elsewhere", elsewhere);

    const outcome = await cleanupWorktrees({
      workspace,
      worktreesRoot,
      openPaths: new Set([open.path]),
      policy: { keep: 0, olderThanMs: 0 },
    });
    expect(outcome.removed.map((tree) => [tree.branch, tree.branchDeleted]).sort()).toEqual([
      ["pi-desk/committed", false],
      ["pi-desk/untouched", true],
    ]);
    expect(outcome.kept).toEqual([{ path: dirty.path, branch: "pi-desk/dirty", reason: "uncommitted" }]);
    expect(existsSync(untouched.path)).toBe(false);
    expect(existsSync(committed.path)).toBe(false);
    // The commits stay on their branch; the uncommitted file, the open chat's and the other worktree stay.
    expect(git(workspace, "show", "pi-desk/committed:done.txt")).toBe("done\n");
    expect(readFileSync(join(dirty.path, "half.txt"), "utf8")).toBe("not committed\n");
    expect(existsSync(open.path)).toBe(true);
    expect(existsSync(elsewhere)).toBe(true);
  });

  it("keeps the newest ones, and those changed lately", async () => {
    const { workspace, worktreesRoot } = repository();
    const older = await createWorktree({ workspace, worktreesRoot, name: "older" });
    const newer = await createWorktree({ workspace, worktreesRoot, name: "newer" });
    const openPaths = new Set<string>();
    const recent = await cleanupWorktrees({
      workspace,
      worktreesRoot,
      openPaths,
      policy: { keep: 0, olderThanMs: 3_600_000 },
    });
    expect(recent.removed).toEqual([]);
    const counted = await cleanupWorktrees({
      workspace,
      worktreesRoot,
      openPaths,
      policy: { keep: 1, olderThanMs: 0 },
    });
    expect(counted.removed.length).toBe(1);
    expect(existsSync(older.path) !== existsSync(newer.path)).toBe(true);
  });
});

describe("a chat that could not open in its worktree", () => {
  it("takes back a worktree made for it (worktree and branch), and leaves an existing one as it was", async () => {
    const { root, workspace } = repository();
    const dataRoot = join(root, "data");
    const chats = new WorktreeChats<WorktreeChat>({
      dataRoot,
      changes: false,
      chats: () => [],
      closeChat: async () => {},
    });
    const place = {
      info: { id: "w1", path: workspace, name: "repo" },
      parts: {
        dataDir: join(dataRoot, "w1"),
        preferences: new WorkspacePreferences(
          { sandbox: { enabled: false, network: false } },
          join(dataRoot, "w1", "settings.json"),
        ),
      },
    };
    execFileSync("mkdir", ["-p", place.parts.dataDir]);
    const made = await chats.open(place, { name: "failed" }, () => undefined);
    expect(existsSync(made.worktree.path)).toBe(true);
    await chats.abandon(place, made);
    expect(existsSync(made.worktree.path)).toBe(false);
    expect(git(workspace, "branch", "--list", "pi-desk/failed")).toBe("");

    const byHand = join(root, "by-hand");
    git(workspace, "worktree", "add", "-q", "-b", "by-hand", byHand);
    const opened = await chats.open(place, { path: byHand }, () => undefined);
    await chats.abandon(place, opened);
    expect(existsSync(byHand)).toBe(true);
    expect(git(workspace, "branch", "--list", "by-hand")).toContain("by-hand");
  });
});
