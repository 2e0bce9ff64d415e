import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { calls, runCommand } from "./host-harness";
import { crashAt, entryOf, nextStart, notices, rewindHost, turn, userTexts } from "./rewind-harness";

const SCRIPT = [
  [runCommand("c1", "echo one > one.txt")],
  [runCommand("c2", "echo two > two.txt")],
  [{ type: "text" as const, text: "made two" }],
  [runCommand("c3", "echo three > three.txt")],
  [{ type: "text" as const, text: "made three" }],
];
const FILES = ["one.txt", "two.txt", "three.txt"];

/** A chat rewound from its first way (two files) to another (a third); a switch back cut short at `phase`. */
async function cutShort(phase: "restoring" | "moving") {
  const started = await rewindHost(SCRIPT, {});
  const { host, workspace } = started;
  await turn(host, "first", ["c1", "c2"], "made two");
  const first = entryOf(host, "first");
  await calls(host).rewind({ entryId: first });
  await turn(host, "other", ["c3"], "made three");
  const sessionFile = host.state().session?.file as string;
  await crashAt(phase, () => calls(host).switchBranch({ entryId: first }));
  const present = () => FILES.filter((file) => existsSync(join(workspace, file)));
  return { ...started, sessionFile, present };
}

describe("the session host: a branch switch cut short by the host's end", () => {
  it("rolls back files half switched at the next start, keeps the conversation, and says so", async () => {
    const { host, root, workspace, sessionFile, present } = await cutShort("restoring");
    expect(present()).toEqual([]); // half: the other way's file taken back, the first way's not played yet
    await host.dispose();

    const again = await nextStart(root, workspace, sessionFile);
    try {
      expect(present()).toEqual(["three.txt"]);
      expect(userTexts(again)).toEqual(["other"]);
      expect(notices(again).map((notice) => notice.say)).toEqual([
        { id: "rewind-recovered", outcome: "rolled-back", kind: "switch" },
      ]);
    } finally {
      await again.dispose();
    }
  });

  it("finishes a switch whose files were done at the next start: the conversation moves to the branch", async () => {
    const { host, root, workspace, sessionFile, present } = await cutShort("moving");
    expect(present()).toEqual(["one.txt", "two.txt"]);
    expect(userTexts(host)).toEqual(["other"]); // the conversation had not moved yet
    await host.dispose();

    const again = await nextStart(root, workspace, sessionFile);
    try {
      expect(present()).toEqual(["one.txt", "two.txt"]);
      expect(userTexts(again)).toEqual(["first"]);
      expect(notices(again).map((notice) => notice.say)).toEqual([
        { id: "rewind-recovered", outcome: "finished", kind: "switch" },
      ]);
    } finally {
      await again.dispose();
    }
  });
});
