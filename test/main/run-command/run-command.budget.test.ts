import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname } from "node:path";
import { describe, expect, it } from "vitest";
import { DEFAULT_OUTPUT_BUDGET_BYTES } from "../../../src/main/run-command/output/output-file";
import { makeWorkspace, runTool } from "./run-command-harness";

const MIB = 1024 * 1024;
const BUDGET = 8 * MIB;
const MARKER = /(?<=\n)\[Pi Desk left out [^\n]+ of the output here, [^\n]+\]\n/;

/** The saved file split at its marker line (which must be there exactly once). */
function parts(path: string): { head: string; tail: string; size: number } {
  const text = readFileSync(path, "latin1");
  const markers = text.match(new RegExp(MARKER, "g")) ?? [];
  expect(markers).toHaveLength(1);
  const [head = "", tail = ""] = text.split(MARKER);
  return { head, tail, size: Buffer.byteLength(text, "latin1") };
}

describe("run_command: the budget for saved output", () => {
  it("keeps the first and last lines of a long output within the budget; the model's tail is the same as without it", async () => {
    const command = "seq 1 3000000"; // 22.9 MB
    const budgeted = await runTool(
      { workspaceRoot: makeWorkspace(), outputBudgetBytes: BUDGET },
      { command },
    );
    const whole = await runTool({ workspaceRoot: makeWorkspace() }, { command });
    const { details, text } = budgeted;
    expect(details.status).toBe("succeeded");
    expect(details.totalLines).toBe(3_000_000);
    // The model sees the same last 2,000 lines either way; only the note says more.
    const tail = (t: string) => t.split("\n\n")[0];
    expect(tail(text)).toBe(tail(whole.text));
    expect(tail(text)?.split("\n").at(-1)).toBe("3000000");
    expect(whole.details.fullOutputCut).toBeUndefined();
    expect(statSync(whole.details.fullOutputPath as string).size).toBe(details.totalBytes);

    const { head, tail: last, size } = parts(details.fullOutputPath as string);
    expect(size).toBeLessThanOrEqual(BUDGET);
    const headLines = head.split("\n").slice(0, -1);
    const lastLines = last.split("\n").slice(0, -1);
    // Consecutive from 1, and consecutive to the end: nothing reordered, the gap is exactly what is missing.
    expect(headLines.every((line, i) => line === String(i + 1))).toBe(true);
    const firstKept = Number(lastLines[0]);
    expect(lastLines.every((line, i) => line === String(firstKept + i))).toBe(true);
    expect(lastLines.at(-1)).toBe("3000000");
    expect(details.fullOutputCut).toEqual({
      droppedBytes: details.totalBytes - head.length - last.length,
      droppedLines: firstKept - headLines.length - 1,
      budgetBytes: BUDGET,
    });
    expect(text).toMatch(
      new RegExp(
        `Full output: ${details.fullOutputPath} \\(cut to the 8\\.0MB budget: its first and last parts, [\\d.]+MB \\(${details.fullOutputCut?.droppedLines} lines\\) left out between them at a marker line\\)\\]`,
      ),
    );
  });

  it("leaves at most the budget on disk after 10 s of `yes`, the start and the end of it, and says so", async () => {
    const { details, text } = await runTool(
      { workspaceRoot: makeWorkspace(), outputBudgetBytes: BUDGET },
      { command: "yes", timeout: 10 },
    );
    expect(details.status).toBe("timed-out");
    expect(details.totalBytes).toBeGreaterThan(BUDGET);
    const path = details.fullOutputPath as string;
    // One file in the folder: no segment of the last part is left behind.
    expect(readdirSync(dirname(path))).toEqual([path.split("/").at(-1)]);
    const { head, tail, size } = parts(path);
    expect(size).toBeLessThanOrEqual(BUDGET);
    expect(head).toBe("y\n".repeat(head.length / 2));
    // Cut at the timeout, the last line may be a lone "y".
    expect(tail).toBe("y\n".repeat(Math.floor(tail.length / 2)) + (tail.length % 2 ? "y" : ""));
    expect(head.length + tail.length + (details.fullOutputCut?.droppedBytes ?? 0)).toBe(details.totalBytes);
    expect(text).toContain("cut to the 8.0MB budget");
    // The model's tail: the last 2,000 lines, as ever.
    const shown = text.split("\n\n")[0]?.split("\n") ?? [];
    expect(shown).toHaveLength(2000);
    expect(shown.every((line) => line === "y" || line === "")).toBe(true);
  });

  it("keeps a 300 MB output to the default 256 MiB", async () => {
    const { details } = await runTool(
      { workspaceRoot: makeWorkspace() },
      { command: "head -c 300000000 /dev/zero | tr '\\0' y | fold -w 99", timeout: 120 },
    );
    expect(details.status).toBe("succeeded");
    const size = statSync(details.fullOutputPath as string).size;
    expect(size).toBeLessThanOrEqual(DEFAULT_OUTPUT_BUDGET_BYTES);
    // The last part is kept in whole segments of 4 MiB: at most one of them less than the budget.
    expect(size).toBeGreaterThan(DEFAULT_OUTPUT_BUDGET_BYTES - 5 * MIB);
    expect(details.fullOutputCut?.budgetBytes).toBe(DEFAULT_OUTPUT_BUDGET_BYTES);
    expect(size + (details.fullOutputCut?.droppedBytes ?? 0)).toBeGreaterThan(details.totalBytes);
  }, 120_000);

  it("refuses a budget it cannot keep, when the tool is made", async () => {
    await expect(
      runTool({ workspaceRoot: makeWorkspace(), outputBudgetBytes: 1000 }, { command: "true" }),
    ).rejects.toThrow(/budget for a command's saved output must be a whole number of bytes, at least 65536/);
  });
});
