import { describe, expect, it } from "vitest";
import { tailLines } from "../../src/shared/output-tail";

const lines = (from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, i) => `line ${from + i}\n`).join("");

describe("tailLines", () => {
  it("keeps short output whole", () => {
    expect(tailLines("a\nb\n", 5)).toEqual({ text: "a\nb\n", cut: false });
    expect(tailLines("", 5)).toEqual({ text: "", cut: false });
    expect(tailLines("no newline", 5)).toEqual({ text: "no newline", cut: false });
  });

  it("keeps exactly the last lines, counting a final line without a newline", () => {
    expect(tailLines(lines(1, 10), 3)).toEqual({ text: lines(8, 10), cut: true });
    expect(tailLines("a\nb\nc", 2)).toEqual({ text: "b\nc", cut: true });
    expect(tailLines("a\nb\nc\n", 3)).toEqual({ text: "a\nb\nc\n", cut: false });
  });

  it("handles blank lines and a leading newline", () => {
    expect(tailLines("\n\n\nx\n", 2)).toEqual({ text: "\nx\n", cut: true });
    expect(tailLines("\nx", 5)).toEqual({ text: "\nx", cut: false });
  });

  it("caps very long lines by characters", () => {
    const text = "x".repeat(1000);
    expect(tailLines(text, 500, 100)).toEqual({ text: "x".repeat(100), cut: true });
  });

  it("cuts 50,000 lines to 500 quickly", () => {
    const big = lines(1, 50_000);
    const started = performance.now();
    const tail = tailLines(big);
    expect(performance.now() - started).toBeLessThan(50);
    expect(tail.text.split("\n").filter(Boolean)).toHaveLength(500);
    expect(tail.text.startsWith("line 49501\n")).toBe(true);
  });
});
