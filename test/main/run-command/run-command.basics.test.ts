import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createRunCommandTool } from "../../../src/main/run-command/run-command";
import { makeWorkspace, runTool } from "./run-command-harness";

describe("run_command: working directory and exit status", () => {
  it("runs every command in the workspace, whatever the command says", async () => {
    const workspace = makeWorkspace();
    const { text, details, result } = await runTool({ workspaceRoot: workspace }, { command: "pwd" });
    expect(text.trim()).toBe(workspace);
    expect(result.isError).toBe(false);
    expect(details).toMatchObject({ status: "succeeded", exitCode: 0, cwd: workspace, timedOut: false });
  });

  it("refuses to be created on a missing folder or a file", () => {
    const workspace = makeWorkspace();
    const file = join(workspace, "file.txt");
    writeFileSync(file, "x");
    expect(() => createRunCommandTool({ workspaceRoot: join(workspace, "missing") })).toThrow(
      "does not exist",
    );
    expect(() => createRunCommandTool({ workspaceRoot: file })).toThrow("is not a folder");
  });

  it("reports a non-zero exit as an error with the real exit code", async () => {
    const workspace = makeWorkspace();
    const { text, details, result } = await runTool(
      { workspaceRoot: workspace },
      { command: "echo about to fail; echo oops >&2; exit 3" },
    );
    expect(result.isError).toBe(true);
    expect(details).toMatchObject({ status: "failed", exitCode: 3, timedOut: false, cancelled: false });
    expect(text).toBe("about to fail\noops\n\nCommand exited with code 3");
  });

  it("reports a process killed by its own signal as 128 + the signal number", async () => {
    const { details } = await runTool({ workspaceRoot: makeWorkspace() }, { command: "kill -SEGV $$" });
    expect(details).toMatchObject({ status: "failed", exitCode: 139 });
  });

  it("merges stdout and stderr in the order they were written", async () => {
    const { text } = await runTool(
      { workspaceRoot: makeWorkspace() },
      { command: "for i in 1 2 3; do echo out$i; echo err$i >&2; done" },
    );
    expect(text.trim()).toBe("out1\nerr1\nout2\nerr2\nout3\nerr3");
  });

  it("closes stdin, so a command waiting for input ends instead of hanging", async () => {
    const { text, details } = await runTool(
      { workspaceRoot: makeWorkspace() },
      { command: 'cat; read -r line; echo "read exit $?"' },
    );
    expect(details.status).toBe("succeeded");
    expect(text.trim()).toBe("read exit 1");
  });

  it("says so when a command prints nothing", async () => {
    const { text } = await runTool({ workspaceRoot: makeWorkspace() }, { command: "true" });
    expect(text).toBe("(no output)");
  });

  it("refuses an empty command and runs nothing", async () => {
    const { text, details } = await runTool({ workspaceRoot: makeWorkspace() }, { command: "   " });
    expect(details.status).toBe("refused");
    expect(text).toContain("The command is empty");
  });

  it("streams live output while the command runs, with progress details", async () => {
    const updates: import("../../../src/shared/commands").RunCommandProgress[] = [];
    const workspace = makeWorkspace();
    await runTool(
      { workspaceRoot: workspace },
      { command: "for i in 1 2 3 4 5; do echo tick$i; sleep 0.15; done" },
      { updates },
    );
    expect(updates.length).toBeGreaterThan(2);
    expect(updates.length).toBeLessThan(20);
    expect(updates.every((u) => u.status === "running")).toBe(true);
    expect(updates.at(-1)?.totalLines).toBeGreaterThan(1);
    expect(existsSync(workspace)).toBe(true);
  });
});
