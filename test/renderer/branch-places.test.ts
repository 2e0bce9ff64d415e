import { describe, expect, it } from "vitest";
import { branchPlaces } from "../../src/renderer/src/features/rewind/branch-places";
import type { BranchPoint } from "../../src/shared/branches";
import type { TranscriptItem } from "../../src/shared/transcript";

const user = (id: string): TranscriptItem => ({ kind: "user", id, text: id });
const said = (id: string): TranscriptItem => ({
  kind: "assistant",
  id,
  text: id,
  thinking: "",
  streaming: false,
});
const point = (before: number): BranchPoint => ({
  before,
  branches: [{ entryId: `e${before}`, text: "t", messages: 1 }],
});

describe("where the transcript draws a branch point", () => {
  it("before the person's message the shown way goes on with, or at the end when it has none yet", () => {
    const transcript = [user("u1"), said("a1"), user("u2"), said("a2")];
    const places = branchPlaces({ transcript, branches: [point(0), point(1), point(2)] });
    expect(places.before.get("u1")).toEqual(point(0));
    expect(places.before.get("u2")).toEqual(point(1));
    expect([...places.before.keys()]).toEqual(["u1", "u2"]);
    expect(places.atEnd).toEqual(point(2));
  });

  it("draws nothing for a chat that never branched", () => {
    const places = branchPlaces({ transcript: [user("u1")] });
    expect(places.before.size).toBe(0);
    expect(places.atEnd).toBeUndefined();
  });
});
