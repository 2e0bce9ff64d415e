import { describe, expect, it } from "vitest";
import { mentionAt, withMention } from "../../src/renderer/src/features/chat/use-file-menu";

describe("the composer's @ mention", () => {
  it("is an @ at the start or after a space, up to the caret; an e-mail address or a finished word is not one", () => {
    expect(mentionAt("@src", 4)).toEqual({ start: 0, query: "src" });
    expect(mentionAt("look at @src/ma and", 15)).toEqual({ start: 8, query: "src/ma" });
    expect(mentionAt("look at @src/ma and", 19)).toBeUndefined();
    expect(mentionAt("mail me@example.com", 19)).toBeUndefined();
    expect(mentionAt('see @"my fo', 11)).toEqual({ start: 4, query: "my fo" });
    expect(mentionAt("@", 1)).toEqual({ start: 0, query: "" });
  });

  it("is replaced by the path as pi writes it: a file with a space after, a folder left open, quotes around spaces", () => {
    const text = "look at @ma and more";
    const mention = mentionAt(text, 11) as NonNullable<ReturnType<typeof mentionAt>>;
    expect(withMention(text, mention, 11, "src/main.ts")).toEqual({
      text: "look at @src/main.ts and more",
      caret: 20,
    });
    expect(withMention("@sr", { start: 0, query: "sr" }, 3, "src/")).toEqual({ text: "@src/", caret: 5 });
    expect(withMention("@my", { start: 0, query: "my" }, 3, "my notes/plan.md")).toEqual({
      text: '@"my notes/plan.md" ',
      caret: 20,
    });
    // The caret in the middle of a mention: the whole word is replaced.
    expect(withMention("@mai.ts x", { start: 0, query: "ma" }, 3, "src/main.ts")).toEqual({
      text: "@src/main.ts x",
      caret: 12,
    });
  });
});
