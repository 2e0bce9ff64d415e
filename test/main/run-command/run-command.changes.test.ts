import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { CommandRecorder } from "../../../src/main/run-command/command-changes";
import { makeWorkspace, runTool } from "./run-command-harness";

/** A recorder that notes when it is called and whether the command had run by then. */
function noting(workspace: string, marker: string, ended: CommandRecorder["ended"]) {
  const calls: string[] = [];
  const recorder: CommandRecorder = {
    started: async (id) => {
      calls.push(`started ${id} ran=${existsSync(join(workspace, marker))}`);
    },
    ended: async (id) => {
      calls.push(`ended ${id} ran=${existsSync(join(workspace, marker))}`);
      return ended(id);
    },
  };
  return { recorder, calls };
}

describe("run_command: recording what a command changed", () => {
  it("records just before the command starts and as soon as it ends, and adds the changes to its result", async () => {
    const workspace = makeWorkspace();
    const { recorder, calls } = noting(workspace, "made", async () => ({
      changes: {
        recorded: true,
        files: [],
        totalFiles: 0,
        added: 0,
        removed: 0,
        nestedRepositories: [],
        overlapping: [],
      },
      note: "Files changed: A made.",
    }));
    const { result, details } = await runTool(
      { workspaceRoot: workspace, recorder },
      { command: "echo out; touch made" },
    );
    expect(calls).toEqual(["started call-1 ran=false", "ended call-1 ran=true"]);
    // The output stays the first block (the card shows it); the model reads the summary after it.
    expect(result.content).toEqual([
      { type: "text", text: "out" },
      { type: "text", text: "Files changed: A made." },
    ]);
    expect(details.changes).toMatchObject({ recorded: true, totalFiles: 0 });
  });

  it("records a command that timed out too", async () => {
    const workspace = makeWorkspace();
    const { recorder, calls } = noting(workspace, "made", async () => ({
      changes: { recorded: false, reason: "off" },
    }));
    const { details } = await runTool(
      { workspaceRoot: workspace, recorder },
      { command: "touch made; sleep 30.4243", timeout: 1 },
    );
    expect(details.status).toBe("timed-out");
    expect(calls).toEqual(["started call-1 ran=false", "ended call-1 ran=true"]);
    expect(details.changes).toEqual({ recorded: false, reason: "off" });
  });

  it("never loses the command's result when recording fails", async () => {
    const workspace = makeWorkspace();
    const { recorder } = noting(workspace, "made", async () => {
      throw new Error("disk full");
    });
    const { details, text } = await runTool(
      { workspaceRoot: workspace, recorder },
      { command: "echo kept; exit 3" },
    );
    expect(details).toMatchObject({ status: "failed", exitCode: 3 });
    expect(text).toContain("kept");
    expect(details.changes).toEqual({ recorded: false, reason: "Recording failed: disk full" });
  });

  it("does not record a command that never ran", async () => {
    const workspace = makeWorkspace();
    const { recorder, calls } = noting(workspace, "made", async () => ({
      changes: { recorded: false, reason: "" },
    }));
    const { details } = await runTool({ workspaceRoot: workspace, recorder }, { command: "   " });
    expect(details.status).toBe("refused");
    expect(calls).toEqual([]);
    expect(details.changes).toBeUndefined();
  });
});
