import { describe, expect, it } from "vitest";
import { formatDuration } from "../../src/renderer/src/lib/format";

describe("formatDuration", () => {
  it("reads under a second in milliseconds, not 0.0 s", () => {
    expect(formatDuration(0)).toBe("0 ms");
    expect(formatDuration(12)).toBe("12 ms");
    expect(formatDuration(12.4)).toBe("12 ms");
    expect(formatDuration(999)).toBe("999 ms");
  });

  it("reads seconds with a tenth under ten, whole seconds under a minute, then a clock", () => {
    expect(formatDuration(1000)).toBe("1.0 s");
    expect(formatDuration(4_250)).toBe("4.3 s");
    expect(formatDuration(42_000)).toBe("42 s");
    expect(formatDuration(125_000)).toBe("2:05");
  });
});
