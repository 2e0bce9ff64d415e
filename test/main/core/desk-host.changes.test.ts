import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { DeskHost, DeskHostOptions } from "../../../src/main/core/desk-host";
import { auditFile, workspaceDataDir } from "../../../src/main/storage/data-folder";
import type { AuditEntry } from "../../../src/shared/rules";
import {
  assistantSaid,
  calls,
  commandOf,
  pendingApproval,
  runCommand,
  sandboxOnHere,
  startHost,
  type Turn,
  waitFor,
} from "./host-harness";

/** The command that edits one file, adds one, deletes one and makes one executable. */
const EDIT = "printf 'one\\nTWO\\nthree\\nfour\\n' > a.txt; echo hi > notes.txt; rm old.log; chmod +x run.sh";

/** The workspace before the command: three text files and a script. */
function seed(workspace: string): void {
  writeFileSync(join(workspace, "a.txt"), "one\ntwo\nthree\n");
  writeFileSync(join(workspace, "old.log"), "old\n");
  writeFileSync(join(workspace, "run.sh"), "#!/bin/sh\necho run\n");
  chmodSync(join(workspace, "run.sh"), 0o644);
}

/** A host on a seeded workspace, its first snapshot taken; the sandbox on or off. */
async function hostWith(turns: Turn[], sandbox: boolean, options: Partial<DeskHostOptions> = {}) {
  const started = await startHost(turns, options);
  seed(started.workspace);
  // The first snapshot began when the workspace opened (before the seed): wait for it, then let the
  // next before-state take the seed in.
  await waitFor(() => started.host.state().limits?.changes.state.type === "on");
  await calls(started.host).setSandbox({ enabled: sandbox, network: false });
  return started;
}

/** Runs the next scripted command with the person's approval, and waits for the agent's next words. */
async function approveAndWait(host: DeskHost, id: string, said: string): Promise<void> {
  await calls(host).decide({ approvalId: await pendingApproval(host, id), decision: { kind: "approve" } });
  await assistantSaid(host, said);
}

/** Sends a message, approves each scripted command in turn, and waits for the agent's last words. */
async function promptAndApprove(host: DeskHost, ids: string[], said: string): Promise<void> {
  await calls(host).prompt({ text: "go" });
  for (const id of ids) {
    await calls(host).decide({
      approvalId: await pendingApproval(host, id),
      decision: { kind: "approve" },
    });
  }
  await assistantSaid(host, said);
}

/** The conversation as Pi stored it (what the model reads). */
function sessionText(host: DeskHost): string {
  const file = host.state().session?.file;
  return file ? readFileSync(file, "utf8") : "";
}

/** Every file of the workspace's own .git with its hash. */
function gitFiles(workspace: string): string {
  return execFileSync("bash", ["-c", "find .git -type f -print0 | sort -z | xargs -0 sha1sum"], {
    cwd: workspace,
    encoding: "utf8",
  });
}

function audit(root: string, workspace: string): AuditEntry[] {
  return readFileSync(auditFile(workspaceDataDir(join(root, "data"), workspace)), "utf8")
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as AuditEntry);
}

describe.each([
  { sandbox: true, name: "with the sandbox on" },
  { sandbox: false, name: "with the sandbox off" },
])("the session host: what each command changed, $name", ({ sandbox }) => {
  it.runIf(sandboxOnHere || !sandbox)(
    "shows the files on the card, tells the model, and undoes them byte for byte and mode for mode",
    async () => {
      const { host, workspace, root } = await hostWith(
        [[runCommand("c1", EDIT)], [{ type: "text", text: "Edited." }], [{ type: "text", text: "Noted." }]],
        sandbox,
      );
      await calls(host).prompt({ text: "edit" });
      await approveAndWait(host, "c1", "Edited.");

      const changes = commandOf(host, "c1")?.details?.changes;
      expect(changes?.recorded).toBe(true);
      if (!changes?.recorded) return;
      expect(changes.files.map(({ path, kind, added, removed }) => ({ path, kind, added, removed }))).toEqual(
        [
          { path: "a.txt", kind: "modified", added: 2, removed: 1 },
          { path: "notes.txt", kind: "added", added: 1, removed: 0 },
          { path: "old.log", kind: "deleted", added: 0, removed: 1 },
          { path: "run.sh", kind: "mode", added: 0, removed: 0 },
        ],
      );
      expect(changes.totalFiles).toBe(4);
      // The card's output is the command's; the model's result ends with the summary.
      expect(commandOf(host, "c1")?.output).toBe("(no output)");
      expect(sessionText(host)).toContain(
        "Files changed: M a.txt (+2 -1), A notes.txt, D old.log, M run.sh (mode 100644 -> 100755).",
      );
      const diff = await calls(host).commandDiff({ commandId: "c1", path: "a.txt" });
      expect(diff.text).toContain("-two\n+TWO\n");
      expect(diff.text).toContain("+four\n");

      const result = await calls(host).undoCommand({ commandId: "c1" });
      expect(result).toEqual({
        restored: ["a.txt", "notes.txt", "old.log", "run.sh"],
        conflicts: [],
        refused: [],
      });
      expect(readFileSync(join(workspace, "a.txt"), "utf8")).toBe("one\ntwo\nthree\n");
      expect(readFileSync(join(workspace, "old.log"), "utf8")).toBe("old\n");
      expect(() => statSync(join(workspace, "notes.txt"))).toThrow();
      expect(statSync(join(workspace, "run.sh")).mode & 0o777).toBe(0o644);

      // Recorded three ways: the card (which still shows the changes), the audit log, the model.
      const view = commandOf(host, "c1");
      expect(view?.reverts?.map((entry) => entry.kind)).toEqual(["undo"]);
      expect(view?.details?.changes?.recorded).toBe(true);
      await waitFor(() =>
        audit(root, workspace).some((entry) => entry.event === "undone" && entry.by === "person"),
      );
      await waitFor(() => sessionText(host).includes("The person undid the changes of command"));
      await calls(host).prompt({ text: "thanks" });
      await assistantSaid(host, "Noted.");
      expect(sessionText(host)).toContain("put back a.txt, notes.txt, old.log, run.sh");
    },
  );
});

describe("the session host: undo and restore", () => {
  it("leaves a file changed since alone as a conflict, and puts it back when asked to anyway", async () => {
    const { host, workspace } = await hostWith(
      [
        [runCommand("c1", "echo first > a.txt")],
        [runCommand("c2", "echo second > a.txt; echo b > b.txt")],
        [{ type: "text", text: "Done." }],
      ],
      false,
    );
    await promptAndApprove(host, ["c1", "c2"], "Done.");

    const first = await calls(host).undoCommand({ commandId: "c1" });
    expect(first.restored).toEqual([]);
    expect(first.conflicts.map((conflict) => conflict.path)).toEqual(["a.txt"]);
    expect(readFileSync(join(workspace, "a.txt"), "utf8")).toBe("second\n");
    expect(commandOf(host, "c1")?.reverts?.at(-1)?.result.conflicts).toHaveLength(1);

    const anyway = await calls(host).undoCommand({ commandId: "c1", undoAnyway: ["a.txt"] });
    expect(anyway.restored).toEqual(["a.txt"]);
    expect(readFileSync(join(workspace, "a.txt"), "utf8")).toBe("one\ntwo\nthree\n");
  });

  it("previews a restore to before a command, then puts the whole workspace back", async () => {
    const { host, workspace } = await hostWith(
      [
        [runCommand("c1", "echo x >> a.txt")],
        [runCommand("c2", "rm a.txt; mkdir -p src; echo y > src/y.txt")],
        [{ type: "text", text: "Done." }],
      ],
      false,
    );
    await promptAndApprove(host, ["c1", "c2"], "Done.");

    const preview = await calls(host).previewRestore({ commandId: "c1" });
    expect(preview.changes.files.map(({ path, kind }) => `${kind} ${path}`)).toEqual([
      "added a.txt",
      "deleted src/y.txt",
    ]);
    const result = await calls(host).restoreWorkspace({ previewId: preview.previewId });
    expect(result.restored.sort()).toEqual(["a.txt", "src/y.txt"]);
    expect(readFileSync(join(workspace, "a.txt"), "utf8")).toBe("one\ntwo\nthree\n");
    expect(commandOf(host, "c1")?.reverts?.map((entry) => entry.kind)).toEqual(["restore"]);
    await expect(calls(host).restoreWorkspace({ previewId: preview.previewId })).rejects.toThrow(
      "no longer known",
    );
  });

  it("keeps a restore's preview while it left conflicts, so undo anyway can apply it", async () => {
    const { host, workspace } = await hostWith(
      [[runCommand("c1", "echo x >> a.txt; echo b > b.txt")], [{ type: "text", text: "Done." }]],
      false,
    );
    await promptAndApprove(host, ["c1"], "Done.");
    const preview = await calls(host).previewRestore({ commandId: "c1" });
    writeFileSync(join(workspace, "b.txt"), "the person's edit after the preview\n");
    const first = await calls(host).restoreWorkspace({ previewId: preview.previewId });
    expect(first.restored).toEqual(["a.txt"]);
    expect(first.conflicts.map((conflict) => conflict.path)).toEqual(["b.txt"]);
    const anyway = await calls(host).restoreWorkspace({
      previewId: preview.previewId,
      undoAnyway: ["b.txt"],
    });
    expect(anyway.conflicts).toEqual([]);
    expect(anyway.restored).toContain("b.txt");
    expect(existsSync(join(workspace, "b.txt"))).toBe(false);
    await expect(calls(host).restoreWorkspace({ previewId: preview.previewId })).rejects.toThrow(
      "no longer known",
    );
  });

  it("refuses to undo while a command runs, and refuses a command that has not ended", async () => {
    const { host } = await hostWith(
      [
        [runCommand("c1", "echo 1 > a.txt")],
        [runCommand("c2", "sleep 30.4107")],
        [{ type: "text", text: "Done." }],
      ],
      false,
    );
    await calls(host).prompt({ text: "go" });
    await calls(host).decide({
      approvalId: await pendingApproval(host, "c1"),
      decision: { kind: "approve" },
    });
    await calls(host).decide({
      approvalId: await pendingApproval(host, "c2"),
      decision: { kind: "approve" },
    });
    await waitFor(() => commandOf(host, "c2")?.phase === "running");
    await expect(calls(host).undoCommand({ commandId: "c1" })).rejects.toThrow("`sleep 30.4107` is running");
    await expect(calls(host).undoCommand({ commandId: "c2" })).rejects.toThrow("has not ended yet");
    await calls(host).cancelCommand({ commandId: "c2" });
    await assistantSaid(host, "Done.");
    expect((await calls(host).undoCommand({ commandId: "c1" })).restored).toEqual(["a.txt"]);
  });

  it("shows a reopened chat's changes and undos after the host restarts, and undo still works", async () => {
    const first = await hostWith(
      [[runCommand("c1", "echo 1 > a.txt; echo n > n.txt")], [{ type: "text", text: "Done." }]],
      false,
    );
    await promptAndApprove(first.host, ["c1"], "Done.");
    await calls(first.host).undoCommand({ commandId: "c1", undoAnyway: [] });
    const sessionFile = first.host.state().session?.file as string;
    // The undo's own entry, then a later change to undo after the restart.
    writeFileSync(join(first.workspace, "a.txt"), "person's edit\n");
    await first.host.dispose();

    const { DeskHost } = await import("../../../src/main/core/desk-host");
    const again = await DeskHost.create({
      shell: "browser",
      version: "test",
      workspace: { path: first.workspace, name: "repo" },
      dataRoot: join(first.root, "data"),
    });
    try {
      await calls(again).openSession({ path: sessionFile });
      const view = commandOf(again, "c1");
      expect(view?.details?.changes?.recorded && view.details.changes.files.map((file) => file.path)).toEqual(
        ["a.txt", "n.txt"],
      );
      expect(view?.reverts?.map((entry) => entry.result.restored)).toEqual([["a.txt", "n.txt"]]);
      expect((await calls(again).commandDiff({ commandId: "c1", path: "n.txt" })).text).toContain("+n");
    } finally {
      await again.dispose();
    }
  });

  it("never touches the workspace's own .git", async () => {
    const { host, workspace } = await hostWith(
      [[runCommand("c1", "echo changed > a.txt; echo new > new.txt")], [{ type: "text", text: "Done." }]],
      false,
    );
    const git = (...args: string[]) =>
      execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], { cwd: workspace });
    git("init", "-q");
    git("add", "-A");
    git("commit", "-qm", "seed");
    mkdirSync(join(workspace, ".git", "pi-desk-probe"));
    const before = gitFiles(workspace);
    await promptAndApprove(host, ["c1"], "Done.");
    await calls(host).undoCommand({ commandId: "c1" });
    const after = gitFiles(workspace);
    expect(after).toBe(before);
    expect(git("status", "--porcelain").toString()).toBe("");
  });
});

describe("the session host: a background command's changes", () => {
  it("are recorded from its start to its end, and shown on its card once it ended", async () => {
    const { host } = await hostWith(
      [
        [
          {
            type: "toolCall",
            id: "bg",
            name: "run_command",
            arguments: { command: "echo up > up.txt; echo listening; sleep 30.4108", background: true },
          },
        ],
        [{ type: "text", text: "Started." }],
      ],
      false,
    );
    await promptAndApprove(host, ["bg"], "Started.");
    expect(commandOf(host, "bg")?.details?.changes).toBeUndefined();
    await calls(host).cancelCommand({ commandId: "bg" });
    const changes = await waitFor(() => commandOf(host, "bg")?.details?.changes);
    expect(changes.recorded && changes.files.map((file) => `${file.kind} ${file.path}`)).toEqual([
      "added up.txt",
    ]);
    expect((await calls(host).undoCommand({ commandId: "bg" })).restored).toEqual(["up.txt"]);
  });
});

describe("the session host: the records' budget", () => {
  it("drops the oldest records past it, and their cards stop offering undo", async () => {
    const { host } = await hostWith(
      [[runCommand("c1", "echo 1 > a.txt")], [{ type: "text", text: "Done." }]],
      false,
      { changes: { budgetBytes: 1 } },
    );
    await promptAndApprove(host, ["c1"], "Done.");
    expect(commandOf(host, "c1")?.details?.changes?.recorded).toBe(true);
    await waitFor(() => commandOf(host, "c1")?.changesDropped);
    expect((await calls(host).undoCommand({ commandId: "c1" })).refused[0]?.reason).toContain(
      "No complete record",
    );
  });
});
