import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { SessionManager } from "@earendil-works/pi-coding-agent";
import { describe, expect, it } from "vitest";
import { calls, runCommand, waitFor } from "./host-harness";
import { edit, entryOf, outcomesOf, rewindHost, turn, userTexts } from "./rewind-harness";

const SEED = {
  "a.txt": "alpha\nbeta\n",
  "b.txt": "one x\n",
  "d.txt": "doomed\n",
};

/** First message: Pi's edit, `sed -i`, a redirect, a delete; second: one more command on a.txt. */
const SCRIPT = [
  [edit("e1", "a.txt", "beta", "BETA")],
  [runCommand("c1", "sed -i s/x/y/ b.txt")],
  [runCommand("c2", "echo made > c.txt")],
  [runCommand("c3", "rm d.txt")],
  [{ type: "text" as const, text: "done one" }],
  [runCommand("c4", "echo more >> a.txt")],
  [{ type: "text" as const, text: "done two" }],
];

describe("the session host: rewind", () => {
  it("previews, restores the agent's changes byte for byte, keeps the person's, moves the conversation, and goes back", async () => {
    const { host, workspace } = await rewindHost(SCRIPT, SEED);
    const file = (path: string) => readFileSync(join(workspace, path), "utf8");
    await turn(host, "first", ["e1", "c1", "c2", "c3"], "done one");
    writeFileSync(join(workspace, "b.txt"), "one y\nby hand\n"); // the person, meanwhile
    await turn(host, "second", ["c4"], "done two");
    const entryId = entryOf(host, "first");

    const preview = await calls(host).rewindPreview({ entryId });
    expect(preview.text).toBe("first");
    expect(outcomesOf(preview.files)).toEqual({
      "a.txt": "restored",
      "b.txt": "kept",
      "c.txt": "restored",
      "d.txt": "restored",
    });
    const kept = preview.files.find((f) => f.path === "b.txt");
    expect(kept).toMatchObject({ changedBy: "person" });
    expect(kept?.diff).toContain("+by hand");
    expect(readFileSync(join(workspace, "a.txt"), "utf8")).toBe("alpha\nBETA\nmore\n"); // the preview writes nothing

    const before = { a: file("a.txt"), b: file("b.txt"), c: file("c.txt") };
    const result = await calls(host).rewind({ entryId });
    expect(result.editorText).toBe("first");
    expect(outcomesOf(result.files)).toEqual(outcomesOf(preview.files));
    expect(file("a.txt")).toBe(SEED["a.txt"]);
    expect(file("d.txt")).toBe(SEED["d.txt"]);
    expect(existsSync(join(workspace, "c.txt"))).toBe(false);
    expect(file("b.txt")).toBe("one y\nby hand\n");
    expect(userTexts(host)).toEqual([]);
    expect(host.state().session?.rewound).toBeDefined();
    // Pi's session file holds the tree: reopened, it stands before the message, the part left still in it.
    const sessionFile = host.state().session?.file as string;
    const reopened = SessionManager.open(sessionFile);
    const spoken = (manager: SessionManager) =>
      manager.buildSessionContext().messages.filter((m) => m.role === "user" || m.role === "assistant");
    expect(spoken(reopened)).toEqual([]);
    expect(reopened.getEntry(entryId)).toBeDefined();

    const back = await calls(host).rewindUndo({});
    expect(back.files.conflicts).toEqual([]);
    expect(file("a.txt")).toBe(before.a);
    expect(file("b.txt")).toBe(before.b);
    expect(file("c.txt")).toBe(before.c);
    expect(existsSync(join(workspace, "d.txt"))).toBe(false);
    expect(userTexts(host)).toEqual(["first", "second"]);
    expect(host.state().session?.rewound).toBeUndefined();
    const again = SessionManager.open(sessionFile);
    expect(spoken(again).filter((m) => m.role === "user")).toHaveLength(2);

    // The history says the chat was rewound, then taken back.
    const taken = async () =>
      (await calls(host).getHistory({}))
        .filter((entry) => entry.kind === "rewind")
        .map((entry) => entry.event);
    await expect.poll(taken, { timeout: 10_000 }).toEqual(expect.arrayContaining(["rewound", "went-back"]));
  });

  it("rewinds to a later message: only what came after it goes back, and the chat goes on from there", async () => {
    const { host, workspace } = await rewindHost(
      [...SCRIPT, [{ type: "text" as const, text: "after the rewind" }]],
      SEED,
    );
    await turn(host, "first", ["e1", "c1", "c2", "c3"], "done one");
    await turn(host, "second", ["c4"], "done two");
    const result = await calls(host).rewind({ entryId: entryOf(host, "second"), text: "second, edited" });
    expect(outcomesOf(result.files)).toEqual({ "a.txt": "restored" });
    expect(readFileSync(join(workspace, "a.txt"), "utf8")).toBe("alpha\nBETA\n");
    await waitFor(() => userTexts(host).join("|") === "first|second, edited");
    await waitFor(() =>
      host
        .state()
        .session?.transcript.some((item) => item.kind === "assistant" && item.text === "after the rewind"),
    );
  });

  it("forks from a message into a new chat in the same folder: Pi's fork names its parent, the chat and the files stay", async () => {
    const { host, workspace } = await rewindHost(SCRIPT, SEED);
    const original = host.state().chatId as string;
    await turn(host, "first", ["e1", "c1", "c2", "c3"], "done one");
    await turn(host, "second", ["c4"], "done two");
    const sourceFile = host.state().session?.file as string;
    const a = readFileSync(join(workspace, "a.txt"), "utf8");

    const fork = await calls(host).forkChat({ entryId: entryOf(host, "second") });
    expect(fork.text).toBe("second");
    expect(fork.chat.id).not.toBe(original);
    expect(host.state().chatId).toBe(fork.chat.id);
    expect(userTexts(host)).toEqual(["first"]);
    const forkFile = host.state().session?.file as string;
    expect(forkFile).not.toBe(sourceFile);
    expect(SessionManager.open(forkFile).getHeader()?.parentSession).toBe(sourceFile);
    expect(readFileSync(join(workspace, "a.txt"), "utf8")).toBe(a);
    await calls(host).openSession({ path: sourceFile });
    expect(host.state().chatId).toBe(original);
    expect(userTexts(host)).toEqual(["first", "second"]);
  });
});
