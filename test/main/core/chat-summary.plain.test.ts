import { describe, expect, it } from "vitest";
import { plainText } from "../../../src/main/core/chat-summary";

describe("the sidebar's last line of an answer", () => {
  it("reads as the person sees the answer: no Markdown marks, a link as its text", () => {
    expect(plainText("`sum` subtracts: `a - b` where the tests expect `a + b`.")).toBe(
      "sum subtracts: a - b where the tests expect a + b.",
    );
    expect(plainText("## **Done**: see [the guide](https://example.org/guide) and _notes_")).toBe(
      "Done: see the guide and notes",
    );
    expect(plainText("- [x] ran ~~all~~ the tests")).toBe("ran all the tests");
    expect(plainText("3 * 4 = 12, snake_case_name stays")).toBe("3 * 4 = 12, snake_case_name stays");
  });
});
