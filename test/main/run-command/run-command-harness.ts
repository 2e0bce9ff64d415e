import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll } from "vitest";
import { createRunCommandTool, type RunCommandOptions } from "../../../src/main/run-command/run-command";
import type { RunCommandDetails, RunCommandProgress } from "../../../src/shared/commands";

const made: string[] = [];
afterAll(() => {
  for (const dir of made)
    for (const path of [dir, `${dir}-output`]) rmSync(path, { recursive: true, force: true });
});

/** A fresh workspace folder, removed (with its full-output folder) when the test file ends. */
export function makeWorkspace(): string {
  const dir = mkdtempSync(join(tmpdir(), "pi-desk-run-"));
  made.push(dir);
  return dir;
}

/** Creates the tool and runs one call the way Pi's agent loop does. */
export async function runTool(
  options: Partial<RunCommandOptions> & { workspaceRoot: string },
  params: { command: string; timeout?: unknown },
  call: { signal?: AbortSignal; updates?: RunCommandProgress[] } = {},
) {
  // Full-output files go next to the test's workspace, so the clean-up below takes them too.
  const tool = createRunCommandTool({ outputDir: `${options.workspaceRoot}-output`, ...options });
  const result = await tool.execute(
    "call-1",
    params as { command: string; timeout?: number },
    call.signal,
    (partial) => call.updates?.push(partial.details as RunCommandProgress),
    undefined as never,
  );
  const text = result.content.map((part) => (part.type === "text" ? part.text : "")).join("");
  return { result, text, details: result.details as RunCommandDetails };
}

/** Every process whose command line contains `needle` (the check for leftovers). */
export function processesMatching(needle: string): string[] {
  const lines = execFileSync("ps", ["-eo", "pid=,stat=,args="], { encoding: "utf8" }).split("\n");
  return lines.filter(
    (line) => line.includes(needle) && !line.includes("ps -eo") && !/\sZ/.test(line.slice(0, 14)),
  );
}
