import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { assistantSaid, calls, commandOf, pendingApproval, runCommand, waitFor } from "./host-harness";
import { edit, entryOf, outcomesOf, rewindHost, turn, userTexts } from "./rewind-harness";

const text = (said: string) => [{ type: "text" as const, text: said }];
const background = (id: string, command: string) => ({
  type: "toolCall" as const,
  id,
  name: "run_command",
  arguments: { command, background: true },
});

describe("the session host: rewind, case by case", () => {
  it("stops a running command and a background one of the part first (the preview names them), then puts back what they wrote", async () => {
    const { host, workspace } = await rewindHost(
      [
        [background("bg", "echo tick > bg.txt; while true; do sleep 0.1; done")],
        [runCommand("fg", "echo early > fg.txt; sleep 30; echo late >> fg.txt", 60)],
        text("never said"),
      ],
      {},
      { commands: { backgroundReadinessMs: 300 } },
    );
    await calls(host).prompt({ text: "start both" });
    await calls(host).decide({
      approvalId: await pendingApproval(host, "bg"),
      decision: { kind: "approve" },
    });
    await calls(host).decide({
      approvalId: await pendingApproval(host, "fg"),
      decision: { kind: "approve" },
    });
    await waitFor(() => existsSync(join(workspace, "fg.txt")) && existsSync(join(workspace, "bg.txt")));

    const entryId = entryOf(host, "start both");
    const preview = await calls(host).rewindPreview({ entryId });
    expect(preview.stops).toEqual([
      { commandId: "bg", command: expect.stringContaining("tick"), background: true },
      { commandId: "fg", command: expect.stringContaining("late"), background: false },
    ]);
    const result = await calls(host).rewind({ entryId });
    expect(result.files).toEqual([
      { path: "bg.txt", outcome: "restored" },
      { path: "fg.txt", outcome: "restored" },
    ]);
    expect(commandOf(host, "fg")?.phase).not.toBe("running");
    expect(commandOf(host, "bg")?.background?.status).toBe("stopped");
    // Both were stopped before anything was put back: neither file is left, and nothing writes them again.
    // (The background command writes once: two commands writing the same file at once are not told apart.)
    expect(existsSync(join(workspace, "fg.txt"))).toBe(false);
    expect(existsSync(join(workspace, "bg.txt"))).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(existsSync(join(workspace, "bg.txt"))).toBe(false);
    expect(userTexts(host)).toEqual([]);
  });

  it("puts back a file a command renamed, and one it renamed and changed: both paths of each, with Back returning the renames", async () => {
    const { host, workspace } = await rewindHost(
      [[runCommand("c1", "mv old.txt new.txt && mv b.txt c.txt && echo more >> c.txt")], text("moved")],
      { "old.txt": "the same content, long enough to be seen as a rename\n", "b.txt": "bee\n" },
    );
    await turn(host, "move them", ["c1"], "moved");
    const result = await calls(host).rewind({ entryId: entryOf(host, "move them") });
    expect(outcomesOf(result.files)).toEqual({
      "b.txt": "restored",
      "c.txt": "restored",
      "new.txt": "restored",
      "old.txt": "restored",
    });
    expect(readFileSync(join(workspace, "old.txt"), "utf8")).toContain("the same content");
    expect(readFileSync(join(workspace, "b.txt"), "utf8")).toBe("bee\n");
    expect(existsSync(join(workspace, "new.txt"))).toBe(false);
    expect(existsSync(join(workspace, "c.txt"))).toBe(false);
    await calls(host).rewindUndo({});
    await waitFor(() => existsSync(join(workspace, "c.txt")));
    expect(readFileSync(join(workspace, "c.txt"), "utf8")).toBe("bee\nmore\n");
    expect(existsSync(join(workspace, "old.txt"))).toBe(false);
  });

  it("names what was changed with recording off as not recorded, leaves it, and still moves the conversation", async () => {
    const { host, workspace } = await rewindHost(
      [[edit("e1", "a.txt", "alpha", "ALPHA")], [runCommand("c1", "echo made > c.txt")], text("done")],
      { "a.txt": "alpha\n" },
      { changes: false },
    );
    await turn(host, "change things", ["e1", "c1"], "done");
    const entryId = entryOf(host, "change things");
    const preview = await calls(host).rewindPreview({ entryId });
    expect(outcomesOf(preview.files)).toEqual({ "a.txt": "not-recorded", "c.txt": "not-recorded" });
    expect(preview.files[0]?.reason).toContain("not recorded");
    const result = await calls(host).rewind({ entryId });
    expect(result.editorText).toBe("change things");
    expect(readFileSync(join(workspace, "a.txt"), "utf8")).toBe("ALPHA\n");
    expect(readFileSync(join(workspace, "c.txt"), "utf8")).toBe("made\n");
    expect(userTexts(host)).toEqual([]);
    await calls(host).rewindUndo({});
    expect(userTexts(host)).toEqual(["change things"]);
  });

  it("keeps a file another chat changed since, and says so", async () => {
    const { host, workspace } = await rewindHost(
      {
        mine: [[runCommand("m1", "echo mine > shared.txt; echo mine > own.txt")], text("mine done")],
        other: [[runCommand("o1", "echo other >> shared.txt")], text("other done")],
      },
      {},
    );
    const mine = host.state().chatId as string;
    await turn(host, "mine: write", ["m1"], "mine done");
    const other = (await calls(host).newSession()).id;
    await calls(host, other).prompt({ text: "other: append" });
    const approvalId = await waitFor(() => host.command("o1", other)?.approvalId);
    await calls(host, other).decide({ approvalId, decision: { kind: "approve" } });
    await waitFor(() => host.command("o1", other)?.details?.changes);

    await calls(host).openSession({ path: host.agentOf(mine)?.sessionFile as string });
    const entryId = entryOf(host, "mine: write");
    const preview = await calls(host, mine).rewindPreview({ entryId });
    expect(outcomesOf(preview.files)).toEqual({ "own.txt": "restored", "shared.txt": "kept" });
    expect(preview.files.find((f) => f.path === "shared.txt")).toMatchObject({ changedBy: "another-chat" });
    await calls(host, mine).rewind({ entryId });
    expect(readFileSync(join(workspace, "shared.txt"), "utf8")).toBe("mine\nother\n");
    expect(existsSync(join(workspace, "own.txt"))).toBe(false);
  });

  it("puts binary files back byte for byte, and names a binary file kept without a text diff", async () => {
    const original = Buffer.from([0, 1, 2, 255, 254, 0, 10, 13, 0]);
    const { host, workspace } = await rewindHost(
      [
        [
          runCommand(
            "c1",
            "printf '\\000\\377\\000' > new.bin; printf '\\001\\002' >> old.bin; printf '\\000x' > kept.bin",
          ),
        ],
        text("done"),
      ],
      { "old.bin": original },
    );
    await turn(host, "binary", ["c1"], "done");
    writeFileSync(join(workspace, "kept.bin"), Buffer.from([0, 7, 7])); // the person, since
    const entryId = entryOf(host, "binary");
    const preview = await calls(host).rewindPreview({ entryId });
    expect(outcomesOf(preview.files)).toEqual({
      "kept.bin": "kept",
      "new.bin": "restored",
      "old.bin": "restored",
    });
    expect(preview.files.find((f) => f.path === "kept.bin")?.diff).toMatch(/^Binary file/);
    await calls(host).rewind({ entryId });
    expect(readFileSync(join(workspace, "old.bin")).equals(original)).toBe(true);
    expect(existsSync(join(workspace, "new.bin"))).toBe(false);
    expect([...readFileSync(join(workspace, "kept.bin"))]).toEqual([0, 7, 7]);
  });

  it("brings back a folder deleted and re-created, and a file a folder took the place of", async () => {
    const { host, workspace } = await rewindHost(
      [
        [
          runCommand(
            "c1",
            "rm -rf dir thing && mkdir -p dir thing && echo z > dir/z.txt && echo t > thing/t.txt",
          ),
        ],
        text("done"),
      ],
      {},
    );
    // Seeded after the host opened: the folder and its files exist before the command.
    mkdirSync(join(workspace, "dir", "sub"), { recursive: true });
    writeFileSync(join(workspace, "dir", "x.txt"), "x\n");
    writeFileSync(join(workspace, "dir", "sub", "y.txt"), "y\n");
    writeFileSync(join(workspace, "thing"), "a file\n");
    await turn(host, "rebuild", ["c1"], "done");
    const entryId = entryOf(host, "rebuild");
    const preview = await calls(host).rewindPreview({ entryId });
    expect(Object.values(outcomesOf(preview.files)).every((outcome) => outcome === "restored")).toBe(true);
    await calls(host).rewind({ entryId });
    expect(readFileSync(join(workspace, "dir", "x.txt"), "utf8")).toBe("x\n");
    expect(readFileSync(join(workspace, "dir", "sub", "y.txt"), "utf8")).toBe("y\n");
    expect(existsSync(join(workspace, "dir", "z.txt"))).toBe(false);
    expect(statSync(join(workspace, "thing")).isFile()).toBe(true);
    expect(readFileSync(join(workspace, "thing"), "utf8")).toBe("a file\n");
    await calls(host).rewindUndo({});
    expect(readFileSync(join(workspace, "thing", "t.txt"), "utf8")).toBe("t\n");
    expect(existsSync(join(workspace, "dir", "x.txt"))).toBe(false);
    await assistantSaid(host, "done");
  });
});
