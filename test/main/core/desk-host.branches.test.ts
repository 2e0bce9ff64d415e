import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { SessionManager } from "@earendil-works/pi-coding-agent";
import { describe, expect, it } from "vitest";
import { calls, runCommand } from "./host-harness";
import { edit, entryOf, outcomesOf, rewindHost, turn, userTexts } from "./rewind-harness";

const SEED = {
  "a.txt": "alpha\n",
  "b.txt": "one\n",
  "d.txt": "doomed\n",
  "bin.dat": Buffer.from([0, 1, 2, 255, 0, 10]),
};

const text = (said: string) => [{ type: "text" as const, text: said }];

/** The first way: Pi's edit, a redirect, a delete, a binary write; the other way (after a rewind): a command and an edit. */
const SCRIPT = [
  [edit("e1", "a.txt", "alpha", "ALPHA")],
  [runCommand("c1", "echo made > c.txt")],
  [runCommand("c2", "rm d.txt")],
  [runCommand("c3", "printf '\\000\\377first' > bin.dat")],
  text("done one"),
  [runCommand("c4", "printf 'B\\n' > b.txt")],
  [edit("e2", "a.txt", "alpha", "OTHER")],
  text("done other"),
];

/** Every file of the workspace that the test looks at, as bytes (absent: null). */
function filesOf(workspace: string): Record<string, string | null> {
  return Object.fromEntries(
    ["a.txt", "b.txt", "c.txt", "d.txt", "bin.dat"].map((path) => {
      const file = join(workspace, path);
      return [path, existsSync(file) ? readFileSync(file).toString("base64") : null];
    }),
  );
}

describe("the session host: branches", () => {
  it("switches to the first branch after a rewind and back again, files byte for byte, a file changed by hand kept", async () => {
    const { host, workspace } = await rewindHost(SCRIPT, SEED);
    await turn(host, "first", ["e1", "c1", "c2", "c3"], "done one");
    const first = entryOf(host, "first");
    const firstWay = filesOf(workspace);
    expect(host.state().session?.branches).toBeUndefined();

    await calls(host).rewind({ entryId: first });
    writeFileSync(join(workspace, "d.txt"), "doomed\nby hand\n"); // the person, after the rewind
    await turn(host, "other way", ["c4", "e2"], "done other");
    const other = entryOf(host, "other way");
    const otherWay = filesOf(workspace);
    expect(host.state().session?.branches).toEqual([
      { before: 0, branches: [{ entryId: first, text: "first", messages: 1 }] },
    ]);

    const preview = await calls(host).branchPreview({ entryId: first });
    expect(outcomesOf(preview.files)).toEqual({
      "a.txt": "restored",
      "b.txt": "restored",
      "bin.dat": "restored",
      "c.txt": "restored",
      "d.txt": "kept",
    });
    expect(preview.files.find((file) => file.path === "d.txt")).toMatchObject({ changedBy: "person" });
    expect(filesOf(workspace)).toEqual(otherWay); // the preview writes nothing

    const switched = await calls(host).switchBranch({ entryId: first });
    expect(outcomesOf(switched.files)).toEqual(outcomesOf(preview.files));
    expect(filesOf(workspace)).toEqual({ ...firstWay, "d.txt": otherWay["d.txt"] });
    expect(readFileSync(join(workspace, "d.txt"), "utf8")).toBe("doomed\nby hand\n");
    expect(userTexts(host)).toEqual(["first"]);
    expect(host.state().session?.branches).toEqual([
      { before: 0, branches: [{ entryId: other, text: "other way", messages: 1 }] },
    ]);

    await calls(host).switchBranch({ entryId: other });
    expect(filesOf(workspace)).toEqual(otherWay);
    expect(userTexts(host)).toEqual(["other way"]);

    // Pi's session file holds both ways, and opened again (as `pi -c` does) it stands on the branch switched to.
    const reopened = SessionManager.open(host.state().session?.file as string);
    const said = reopened
      .buildSessionContext()
      .messages.flatMap((m) => (m.role === "user" ? [JSON.stringify(m.content)] : []));
    expect(said).toHaveLength(1);
    expect(said[0]).toContain("other way");
    expect(reopened.getEntry(first)).toBeDefined();

    // The history says each time the chat was taken back: about which message, and what became of its files.
    const history = async () => (await calls(host).getHistory({})).filter((entry) => entry.kind === "rewind");
    await expect.poll(async () => (await history()).length, { timeout: 10_000 }).toBe(3); // written as the calls end, not awaited
    const taken = await history();
    expect(taken).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          event: "rewound",
          by: "person",
          commandId: first,
          command: "first",
          files: { restored: 4, kept: 0, notRecorded: 0 },
        }),
        expect.objectContaining({
          event: "branch-switched",
          commandId: first,
          command: "first",
          files: { restored: 4, kept: 1, notRecorded: 0 },
        }),
        expect.objectContaining({ event: "branch-switched", commandId: other, command: "other way" }),
      ]),
    );
  });

  it("refuses a switch to the branch shown, and to what is not a message of the person, saying what to do", async () => {
    const { host } = await rewindHost(SCRIPT, SEED);
    await turn(host, "first", ["e1", "c1", "c2", "c3"], "done one");
    await expect(calls(host).branchPreview({ entryId: entryOf(host, "first") })).rejects.toThrow(
      /shown already: pick another branch/,
    );
    await expect(calls(host).switchBranch({ entryId: "nope" })).rejects.toThrow(/pick a branch again/);
  });
});
