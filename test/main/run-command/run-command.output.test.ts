import { readFileSync, statSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { makeWorkspace, runTool } from "./run-command-harness";

describe("run_command: output", () => {
  it("keeps the tail of a long output and saves every line to a file the model is told about", async () => {
    const { text, details } = await runTool({ workspaceRoot: makeWorkspace() }, { command: "seq 1 100000" });
    expect(details).toMatchObject({ status: "succeeded", truncated: true, totalLines: 100000 });
    const shown = text.split("\n\n")[0]?.split("\n") ?? [];
    expect(shown.length).toBeLessThanOrEqual(2000);
    expect(shown.at(-1)).toBe("100000");
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(51200 + 300);
    expect(text).toContain(`[Showing lines ${100000 - shown.length + 1}-100000 of 100000`);
    expect(text).toContain(`Full output: ${details.fullOutputPath}`);
    const full = readFileSync(details.fullOutputPath as string, "utf8").split("\n");
    expect(full.length).toBe(100001);
    expect(full[0]).toBe("1");
    expect(full[99999]).toBe("100000");
    // Only the person can read it.
    expect(statSync(details.fullOutputPath as string).mode & 0o077).toBe(0);
  });

  it("keeps the end of a single line longer than the limit, not nothing", async () => {
    const { text, details } = await runTool(
      { workspaceRoot: makeWorkspace() },
      { command: "head -c 200000 /dev/zero | tr '\\0' a; echo THE-END" },
    );
    expect(details.truncated).toBe(true);
    expect(text.split("\n\n")[0]).toMatch(/a+THE-END$/);
    expect(text).toContain("of line 1");
  });

  it("survives invalid UTF-8 and binary output", async () => {
    const { text, details } = await runTool(
      { workspaceRoot: makeWorkspace() },
      { command: "printf 'ok \\xff\\xfe \\x00 bin\\n'; head -c 3000 /dev/urandom; echo; echo done" },
    );
    expect(details.status).toBe("succeeded");
    expect(text.trim().endsWith("done")).toBe(true);
  });
});
