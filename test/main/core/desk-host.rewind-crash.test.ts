import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { calls, runCommand, waitFor } from "./host-harness";
import { crashAt, entryOf, nextStart, notices, rewindHost, turn, userTexts } from "./rewind-harness";

const SCRIPT = [
  [runCommand("c1", "echo one > one.txt")],
  [runCommand("c2", "echo two > two.txt")],
  [runCommand("c3", "echo three > three.txt")],
  [runCommand("c4", "echo four > four.txt")],
  [{ type: "text" as const, text: "done" }],
];
const FILES = ["one.txt", "two.txt", "three.txt", "four.txt"];

/** A chat whose one message made four files; a rewind of it cut short at `phase`, as if the host died there. */
async function cutShort(phase: "restoring" | "moving") {
  const started = await rewindHost(SCRIPT, {});
  const { host, workspace } = started;
  await turn(host, "make four", ["c1", "c2", "c3", "c4"], "done");
  const sessionFile = host.state().session?.file as string;
  await crashAt(phase, () => calls(host).rewind({ entryId: entryOf(host, "make four") }));
  const present = () => FILES.filter((file) => existsSync(join(workspace, file)));
  return { ...started, sessionFile, present };
}

/** The same chat rewound, then its "Back to where I was" cut short at `phase`. */
async function backCutShort(phase: "back-restoring" | "back-moving") {
  const started = await rewindHost(SCRIPT, {});
  const { host, workspace } = started;
  await turn(host, "make four", ["c1", "c2", "c3", "c4"], "done");
  const sessionFile = host.state().session?.file as string;
  await calls(host).rewind({ entryId: entryOf(host, "make four") });
  await crashAt(phase, () => calls(host).rewindUndo({}));
  const present = () => FILES.filter((file) => existsSync(join(workspace, file)));
  return { ...started, sessionFile, present };
}

describe("the session host: a rewind cut short by the host's end", () => {
  it("rolls back files half put back at the next start, keeps the conversation, and says so", async () => {
    const { host, root, workspace, sessionFile, present } = await cutShort("restoring");
    // Half-done: the newest two files were put back (deleted), the oldest two not yet.
    expect(present()).toEqual(["one.txt", "two.txt"]);
    await host.dispose();

    const again = await nextStart(root, workspace, sessionFile);
    try {
      expect(present()).toEqual(FILES);
      expect(readFileSync(join(workspace, "four.txt"), "utf8")).toBe("four\n");
      expect(userTexts(again)).toEqual(["make four"]);
      expect(notices(again).map((notice) => notice.say)).toEqual([
        { id: "rewind-recovered", outcome: "rolled-back" },
      ]);
      expect(again.state().session?.rewound).toBeUndefined();
    } finally {
      await again.dispose();
    }
  });

  it("finishes a rewind whose files were done at the next start: the conversation moves, and it can still be taken back", async () => {
    const { host, root, workspace, sessionFile, present } = await cutShort("moving");
    expect(present()).toEqual([]);
    expect(userTexts(host)).toEqual(["make four"]); // the conversation had not moved yet
    await host.dispose();

    const again = await nextStart(root, workspace, sessionFile);
    try {
      expect(present()).toEqual([]);
      expect(userTexts(again)).toEqual([]);
      expect(notices(again).map((notice) => notice.say)).toEqual([
        { id: "rewind-recovered", outcome: "finished" },
      ]);
      expect(again.state().session?.rewound).toBeDefined();
      await calls(again).rewindUndo({});
      await waitFor(() => present().length === 4);
      expect(userTexts(again)).toEqual(["make four"]);
    } finally {
      await again.dispose();
    }
  });

  it("rolls back a Back to where I was cut short while putting files back: the chat stays rewound, Back still offered", async () => {
    const { host, root, workspace, sessionFile, present } = await backCutShort("back-restoring");
    expect(present()).toEqual(FILES); // the files were back, the conversation not yet
    await host.dispose();

    const again = await nextStart(root, workspace, sessionFile);
    try {
      expect(present()).toEqual([]);
      expect(userTexts(again)).toEqual([]);
      expect(notices(again).map((notice) => notice.say)).toEqual([
        { id: "rewind-recovered", outcome: "rolled-back", kind: "back" },
      ]);
      expect(again.state().session?.rewound).toBeDefined();
    } finally {
      await again.dispose();
    }
  });

  it("finishes a Back to where I was whose files were done: the conversation returns at the next start", async () => {
    const { host, root, workspace, sessionFile, present } = await backCutShort("back-moving");
    await host.dispose();

    const again = await nextStart(root, workspace, sessionFile);
    try {
      expect(present()).toEqual(FILES);
      expect(userTexts(again)).toEqual(["make four"]);
      expect(notices(again).map((notice) => notice.say)).toEqual([
        { id: "rewind-recovered", outcome: "finished", kind: "back" },
      ]);
      expect(again.state().session?.rewound).toBeUndefined();
    } finally {
      await again.dispose();
    }
  });
});
