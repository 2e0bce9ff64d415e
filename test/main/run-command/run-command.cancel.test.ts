import { describe, expect, it } from "vitest";
import { makeWorkspace, processesMatching, runTool } from "./run-command-harness";

describe("run_command: cancel", () => {
  it("kills the whole tree, grandchildren and escaped ones included, when the signal aborts", async () => {
    const controller = new AbortController();
    const command = [
      "sleep 31.1111 &", // a child in the group
      "bash -c 'sleep 31.2222 & wait' &", // a grandchild
      "setsid sleep 31.3333 &", // one that left the group and the session
      "bash -c 'trap \"\" TERM; sleep 31.4444' &", // a shell that ignores SIGTERM
      "echo spawned; wait",
    ].join("\n");
    const running = runTool(
      { workspaceRoot: makeWorkspace() },
      { command, timeout: 60 },
      {
        signal: controller.signal,
      },
    );
    // Every process of the tree is up before the abort (a loaded machine may take seconds to start them).
    await expect
      .poll(() => processesMatching("sleep 31.").length, { timeout: 20_000 })
      .toBeGreaterThanOrEqual(4);
    controller.abort();
    const { text, details, result } = await running;
    expect(result.isError).toBe(true);
    expect(details).toMatchObject({ status: "cancelled", cancelled: true, timedOut: false, exitCode: null });
    expect(text).toBe("spawned\n\nCommand cancelled by the user");
    expect(processesMatching("sleep 31.")).toEqual([]);
  });

  it("runs nothing when the signal is already aborted", async () => {
    const controller = new AbortController();
    controller.abort();
    const { details } = await runTool(
      { workspaceRoot: makeWorkspace() },
      { command: "echo never" },
      { signal: controller.signal },
    );
    expect(details).toMatchObject({ status: "cancelled", totalBytes: 0 });
  });
});
