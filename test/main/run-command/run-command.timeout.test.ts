import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createRunCommandTool } from "../../../src/main/run-command/run-command";
import { makeWorkspace, processesMatching, runTool } from "./run-command-harness";

describe("run_command: timeouts", () => {
  it("kills a command at its timeout, leaves no process behind and says it timed out", async () => {
    const started = Date.now();
    const { text, details, result } = await runTool(
      { workspaceRoot: makeWorkspace() },
      { command: "echo started; sleep 30.4242", timeout: 2 },
    );
    const elapsed = Date.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(1900);
    expect(elapsed).toBeLessThan(8000);
    expect(result.isError).toBe(true);
    expect(details).toMatchObject({ status: "timed-out", timedOut: true, cancelled: false, exitCode: null });
    expect(text).toBe("started\n\nCommand timed out after 2 seconds");
    expect(processesMatching("sleep 30.4242")).toEqual([]);
  });

  it.each([
    ["zero", 0],
    ["a negative number", -5],
    ["a string", "10"],
    ["infinity", Number.POSITIVE_INFINITY],
    ["not a number", Number.NaN],
    ["an object", { seconds: 5 }],
  ])("refuses %s as a timeout before anything runs", async (_label, timeout) => {
    const workspace = makeWorkspace();
    const { text, details } = await runTool({ workspaceRoot: workspace }, { command: "touch ran", timeout });
    expect(details.status).toBe("refused");
    expect(text).toMatch(/^Invalid timeout: .* Give a number of seconds above 0 \(at most 120\)/);
    expect(existsSync(join(workspace, "ran"))).toBe(false);
  });

  it("lowers a timeout above the cap to the cap, and tells the model when it hits", async () => {
    const { text, details } = await runTool(
      { workspaceRoot: makeWorkspace(), defaultTimeoutSeconds: 1, maxTimeoutSeconds: 1 },
      { command: "sleep 30.4243", timeout: 600 },
    );
    expect(details).toMatchObject({ status: "timed-out", timeoutSeconds: 1 });
    expect(text).toBe("Command timed out after 1 seconds (the host's cap; 600 seconds were asked)");
  });

  it("applies the default timeout when the model gives none", async () => {
    const { details } = await runTool(
      { workspaceRoot: makeWorkspace(), defaultTimeoutSeconds: 1 },
      { command: "sleep 30.4244" },
    );
    expect(details).toMatchObject({ status: "timed-out", timeoutSeconds: 1 });
  });

  it("refuses a host configuration without a bounded timeout", () => {
    const workspaceRoot = makeWorkspace();
    expect(() =>
      createRunCommandTool({ workspaceRoot, maxTimeoutSeconds: Number.POSITIVE_INFINITY }),
    ).toThrow("maxSeconds must be a number of seconds above 0");
    expect(() => createRunCommandTool({ workspaceRoot, defaultTimeoutSeconds: 300 })).toThrow(
      "above the cap",
    );
  });
});
