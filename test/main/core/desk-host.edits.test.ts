import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { DeskHost } from "../../../src/main/core/desk-host";
import type { EditView } from "../../../src/shared/edits";
import {
  assistantSaid,
  calls,
  commandOf,
  pendingApproval,
  runCommand,
  startHost,
  type Turn,
  waitFor,
} from "./host-harness";

const edit = (id: string, path: string, edits: { oldText: string; newText: string }[]) => ({
  type: "toolCall" as const,
  id,
  name: "edit",
  arguments: { path, edits },
});
const write = (id: string, path: string, content: string) => ({
  type: "toolCall" as const,
  id,
  name: "write",
  arguments: { path, content },
});

function editOf(host: DeskHost, id: string): EditView | undefined {
  return host.state().session?.edits[id];
}

/** Waits until the edit waits for the person with its diff, and returns its approval id. */
function pendingEdit(host: DeskHost, id: string): Promise<string> {
  return waitFor(() => editOf(host, id)?.approvalId);
}

/** The tool result the model got for a call, from the conversation Pi keeps. */
function resultText(host: DeskHost, id: string): string {
  const messages = (host.agentOf()?.messages ?? []) as unknown[];
  const result = messages.find(
    (message) => (message as { role: string; toolCallId?: string }).toolCallId === id,
  ) as { content: { type: string; text?: string }[] } | undefined;
  return (result?.content ?? []).map((block) => block.text ?? "").join("\n");
}

const SUM = "export function sum(a, b) {\n  return a - b;\n}\n";
const FIXED = "export function sum(a, b) {\n  return a + b;\n}\n";

async function hostWith(turns: Turn[], files: Record<string, string> = { "sum.js": SUM }, options = {}) {
  const started = await startHost(turns, options);
  for (const [path, content] of Object.entries(files)) writeFileSync(join(started.workspace, path), content);
  return started;
}

describe("the session host: file edits", () => {
  it("shows the diff of an edit, writes nothing until approved, then applies it and tells the model", async () => {
    const { host, workspace } = await hostWith([
      [
        { type: "text", text: "The sign is wrong." },
        edit("e1", "sum.js", [{ oldText: "a - b", newText: "a + b" }]),
      ],
      [{ type: "text", text: "Fixed." }],
    ]);
    await calls(host).prompt({ text: "fix the test" });
    const approvalId = await pendingEdit(host, "e1");
    const pending = editOf(host, "e1");
    expect(pending).toMatchObject({
      tool: "edit",
      path: "sum.js",
      status: "pending",
      shape: "change",
      why: "The sign is wrong.",
    });
    const lines = pending?.diff?.hunks.flatMap((hunk) => hunk.lines) ?? [];
    expect(lines.filter((line) => line.kind === "del").map((line) => line.text)).toEqual(["  return a - b;"]);
    expect(lines.filter((line) => line.kind === "add").map((line) => [line.text, line.newLine])).toEqual([
      ["  return a + b;", 2],
    ]);
    expect(readFileSync(join(workspace, "sum.js"), "utf8")).toBe(SUM);

    await calls(host).decide({ approvalId, decision: { kind: "approve" } });
    await assistantSaid(host, "Fixed.");
    expect(readFileSync(join(workspace, "sum.js"), "utf8")).toBe(FIXED);
    expect(editOf(host, "e1")).toMatchObject({ status: "applied", decidedBy: "person" });
    expect(editOf(host, "e1")?.changes).toMatchObject({
      recorded: true,
      files: [{ path: "sum.js", added: 1, removed: 1 }],
    });
    expect(resultText(host, "e1")).toContain("Successfully replaced 1 block(s) in sum.js.");
    expect(resultText(host, "e1")).toContain("M sum.js (+1 -1)");
    const history = await waitFor(async () => {
      const entries = (await calls(host).getHistory({})).filter((entry) => entry.commandId === "e1");
      return entries.length >= 2 && entries;
    });
    expect(history.map((entry) => [entry.event, entry.by, entry.path]).reverse()).toEqual([
      ["approved", "person", "sum.js"],
      ["finished", "host", "sum.js"],
    ]);
  });

  it("denies with a reason the model reads, and writes nothing", async () => {
    const { host, workspace } = await hostWith([
      [edit("e1", "sum.js", [{ oldText: "a - b", newText: "a + b" }])],
      [{ type: "text", text: "OK." }],
    ]);
    await calls(host).prompt({ text: "fix it" });
    const approvalId = await pendingEdit(host, "e1");
    await calls(host).decide({ approvalId, decision: { kind: "deny", reason: "fix the test instead" } });
    await assistantSaid(host, "OK.");
    expect(readFileSync(join(workspace, "sum.js"), "utf8")).toBe(SUM);
    expect(editOf(host, "e1")).toMatchObject({ status: "denied" });
    expect(resultText(host, "e1")).toContain("Their reason: fix the test instead");
  });

  it("applies the person's changed version, and tells the model the lines that differ from its own", async () => {
    const { host, workspace } = await hostWith([
      [edit("e1", "sum.js", [{ oldText: "a - b", newText: "a + b" }])],
      [{ type: "text", text: "OK." }],
    ]);
    await calls(host).prompt({ text: "fix it" });
    const approvalId = await pendingEdit(host, "e1");
    expect(editOf(host, "e1")?.proposed).toBe(FIXED);
    const persons = "export function sum(a, b) {\n  return Number(a) + Number(b);\n}\n";
    await calls(host).decide({ approvalId, decision: { kind: "approve", content: persons } });
    await assistantSaid(host, "OK.");
    expect(readFileSync(join(workspace, "sum.js"), "utf8")).toBe(persons);
    expect(editOf(host, "e1")).toMatchObject({ status: "applied", changedByPerson: true });
    const said = resultText(host, "e1");
    expect(said).toContain("The user changed your proposed edit of sum.js");
    expect(said).toContain("-  return a + b;");
    expect(said).toContain("+  return Number(a) + Number(b);");
  });

  it("a write of a new file shows every line added, and makes its folder only once approved", async () => {
    const { host, workspace } = await hostWith(
      [[write("w1", "src/new/hello.txt", "one\ntwo\n")], [{ type: "text", text: "OK." }]],
      {},
    );
    await calls(host).prompt({ text: "write it" });
    const approvalId = await pendingEdit(host, "w1");
    const view = editOf(host, "w1");
    expect(view).toMatchObject({ tool: "write", path: "src/new/hello.txt", shape: "new-file" });
    expect(view?.diff?.hunks.flatMap((hunk) => hunk.lines).map((line) => line.kind)).toEqual(["add", "add"]);
    expect(() => readFileSync(join(workspace, "src"))).toThrow();
    await calls(host).decide({ approvalId, decision: { kind: "approve" } });
    await assistantSaid(host, "OK.");
    expect(readFileSync(join(workspace, "src/new/hello.txt"), "utf8")).toBe("one\ntwo\n");
  });

  it("refuses paths outside the workspace, into .git, and through a link out, writing nothing", async () => {
    const { host, workspace, root } = await hostWith(
      [
        [
          write("w1", "../outside.txt", "x"),
          write("w2", ".git/config", "x"),
          write("w3", "out/escape.txt", "x"),
          edit("w4", "dangling", [{ oldText: "a", newText: "b" }]),
        ],
        [{ type: "text", text: "OK." }],
      ],
      {},
    );
    mkdirSync(join(workspace, ".git"));
    mkdirSync(join(root, "elsewhere"));
    symlinkSync(join(root, "elsewhere"), join(workspace, "out"));
    symlinkSync(join(root, "nowhere.txt"), join(workspace, "dangling"));
    await calls(host).prompt({ text: "go" });
    await assistantSaid(host, "OK.");
    for (const id of ["w1", "w2", "w3", "w4"]) {
      expect(editOf(host, id)?.status, id).toBe("failed");
      expect(editOf(host, id)?.approvalId, id).toBeUndefined();
    }
    expect(resultText(host, "w1")).toContain("is outside the workspace");
    expect(resultText(host, "w2")).toContain("inside a .git folder");
    expect(resultText(host, "w3")).toContain("is outside the workspace");
    expect(() => readFileSync(join(root, "outside.txt"))).toThrow();
    expect(() => readFileSync(join(root, "elsewhere/escape.txt"))).toThrow();
    expect(() => readFileSync(join(root, "nowhere.txt"))).toThrow();
  });

  it("does not overwrite a file that changed on disk while the card waited, and tells the model to read it again", async () => {
    const { host, workspace } = await hostWith([
      [edit("e1", "sum.js", [{ oldText: "a - b", newText: "a + b" }])],
      [{ type: "text", text: "OK." }],
    ]);
    await calls(host).prompt({ text: "fix it" });
    const approvalId = await pendingEdit(host, "e1");
    const theirs = `${SUM}// the person's own line\n`;
    writeFileSync(join(workspace, "sum.js"), theirs);
    await calls(host).decide({ approvalId, decision: { kind: "approve" } });
    await assistantSaid(host, "OK.");
    expect(readFileSync(join(workspace, "sum.js"), "utf8")).toBe(theirs);
    expect(editOf(host, "e1")).toMatchObject({ status: "failed" });
    expect(resultText(host, "e1")).toContain("changed on disk while the edit waited");
    expect(resultText(host, "e1")).toContain("Read the file again");
  });

  it("refuses to edit a binary file", async () => {
    const { host, workspace } = await hostWith(
      [[edit("e1", "blob.bin", [{ oldText: "a", newText: "b" }])], [{ type: "text", text: "OK." }]],
      {},
    );
    writeFileSync(join(workspace, "blob.bin"), Buffer.from([0x61, 0, 1, 2]));
    await calls(host).prompt({ text: "go" });
    await assistantSaid(host, "OK.");
    expect(resultText(host, "e1")).toContain("is a binary file");
    expect(readFileSync(join(workspace, "blob.bin"))).toEqual(Buffer.from([0x61, 0, 1, 2]));
  });

  it("works with an allowlist on, where a command could not write the file", async () => {
    const { host, workspace } = await hostWith(
      [[edit("e1", "sum.js", [{ oldText: "a - b", newText: "a + b" }])], [{ type: "text", text: "OK." }]],
      { "sum.js": SUM },
      { commands: { allowedBinaries: ["npm", "git"] } },
    );
    await calls(host).prompt({ text: "fix it" });
    const approvalId = await pendingEdit(host, "e1");
    await calls(host).decide({ approvalId, decision: { kind: "approve" } });
    await assistantSaid(host, "OK.");
    expect(readFileSync(join(workspace, "sum.js"), "utf8")).toBe(FIXED);
  });

  it("refuses a command's fields on an edit's approval, and the edit keeps waiting", async () => {
    const { host } = await hostWith([
      [edit("e1", "sum.js", [{ oldText: "a - b", newText: "a + b" }])],
      [{ type: "text", text: "OK." }],
    ]);
    await calls(host).prompt({ text: "fix it" });
    const approvalId = await pendingEdit(host, "e1");
    await expect(
      calls(host).decide({ approvalId, decision: { kind: "approve", command: "rm -rf ." } }),
    ).rejects.toThrow("This approval is for a file edit; it cannot take command");
    expect(editOf(host, "e1")?.approvalId).toBe(approvalId);
    await calls(host).decide({ approvalId, decision: { kind: "deny" } });
    await assistantSaid(host, "OK.");
  });

  it("shows a reopened chat's edits as they ended, with their diff and changes", async () => {
    const { host } = await hostWith([
      [edit("e1", "sum.js", [{ oldText: "a - b", newText: "a + b" }]), write("w1", "../out.txt", "x")],
      [{ type: "text", text: "OK." }],
    ]);
    await calls(host).prompt({ text: "fix it" });
    const approvalId = await pendingEdit(host, "e1");
    await calls(host).decide({ approvalId, decision: { kind: "approve" } });
    await assistantSaid(host, "OK.");
    const file = await waitFor(() => host.state().session?.file);
    await calls(host).newSession();
    await calls(host).openSession({ path: file });
    expect(
      host
        .state()
        .session?.transcript.filter((item) => item.kind === "edit")
        .map((item) => item.id),
    ).toEqual(["e1", "w1"]);
    expect(editOf(host, "e1")).toMatchObject({ status: "applied", path: "sum.js", shape: "change" });
    expect(editOf(host, "e1")?.diff?.added).toBe(1);
    expect(editOf(host, "e1")?.changes?.recorded).toBe(true);
    expect(editOf(host, "w1")).toMatchObject({ status: "failed" });
    expect(editOf(host, "w1")?.reason).toContain("outside the workspace");
  });

  it("undoes an applied edit like a command", async () => {
    const { host, workspace } = await hostWith([
      [edit("e1", "sum.js", [{ oldText: "a - b", newText: "a + b" }])],
      [{ type: "text", text: "OK." }],
    ]);
    await calls(host).prompt({ text: "fix it" });
    const approvalId = await pendingEdit(host, "e1");
    await calls(host).decide({ approvalId, decision: { kind: "approve" } });
    await assistantSaid(host, "OK.");
    const result = await calls(host).undoCommand({ commandId: "e1" });
    expect(result.restored).toEqual(["sum.js"]);
    expect(readFileSync(join(workspace, "sum.js"), "utf8")).toBe(SUM);
    expect(editOf(host, "e1")?.reverts?.[0]?.kind).toBe("undo");
  });
});

describe("the session host: a command's known writes previewed", () => {
  const HEREDOC = "cat > sum.js <<'EOF'\nexport function sum(a, b) {\n  return a + b;\n}\nEOF\nnpm test";

  it("shows the diff a quoted heredoc will make before the command runs, and what runs after it", async () => {
    const { host, workspace } = await hostWith([
      [runCommand("c1", HEREDOC)],
      [{ type: "text", text: "OK." }],
    ]);
    await calls(host).prompt({ text: "fix it" });
    const approvalId = await pendingApproval(host, "c1");
    const preview = commandOf(host, "c1")?.writePreview;
    expect(preview?.files.map((file) => [file.path, file.isNew, file.diff.added, file.diff.removed])).toEqual(
      [["sum.js", false, 1, 1]],
    );
    expect(preview?.then).toBe("npm test");
    expect(readFileSync(join(workspace, "sum.js"), "utf8")).toBe(SUM);
    await calls(host).decide({ approvalId, decision: { kind: "deny" } });
    await assistantSaid(host, "OK.");
  });

  it.each([
    ["an unquoted heredoc", "cat > sum.js <<EOF\n$HOME\nEOF"],
    ["a target outside the workspace", "cat > ../out.js <<'EOF'\nx\nEOF"],
    ["a target in .git", "printf '%s\\n' x > .git/config"],
    ["a variable", 'echo "$PWD" > a.txt'],
    ["a pipe", "echo x | tee a.txt"],
  ])("shows no preview for %s", async (_name, command) => {
    const { host } = await hostWith([[runCommand("c1", command)], [{ type: "text", text: "OK." }]]);
    await calls(host).prompt({ text: "go" });
    const approvalId = await pendingApproval(host, "c1");
    expect(commandOf(host, "c1")?.writePreview).toBeUndefined();
    await calls(host).decide({ approvalId, decision: { kind: "deny" } });
    await assistantSaid(host, "OK.");
  });
});
