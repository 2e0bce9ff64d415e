import { describe, expect, it } from "vitest";
import { parseCommandLine } from "../../../../src/main/run-command/shell/shell-parser";

describe("a command line parsed again", () => {
  it("parses to the same result, which no caller can change for the next one", async () => {
    const first = await parseCommandLine("rm -rf build && echo $(whoami) > out.txt");
    const again = await parseCommandLine("rm -rf build && echo $(whoami) > out.txt");
    expect(again).toEqual(first);
    expect(again.risks.length).toBeGreaterThan(0);
    // Shared between callers, so frozen all the way down: a caller that edited it would change every later check.
    expect(() => {
      (again.commands as unknown[]).push({});
    }).toThrow(TypeError);
    expect(() => {
      (again.risks[0] as { kind: string }).kind = "none";
    }).toThrow(TypeError);
    expect((await parseCommandLine("rm -rf build && echo $(whoami) > out.txt")).risks).toEqual(first.risks);
  });

  it("is told from a line that differs by one character", async () => {
    const plain = await parseCommandLine("echo hi");
    const substituted = await parseCommandLine("echo $(hi)");
    expect(plain.commands.map((c) => c.name)).toEqual(["echo"]);
    expect(substituted.commands.map((c) => c.name)).toContain("hi");
  });
});
