import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { DeskHost } from "../../../src/main/core/desk-host";
import { workspaceDataDir } from "../../../src/main/storage/data-folder";
import type { HostEvent, SavedOutputsEvent } from "../../../src/shared/host-events";
import { calls, commandOf, pendingApproval, runCommand, startHost, waitFor } from "./host-harness";

const KIB = 1024;

describe("the session host: saved outputs", () => {
  it("shows the budget, the quota and the space in use, and tells the UI when a saved output is added", async () => {
    const { host, events, root } = await startHost(
      [[runCommand("c1", "seq 1 40000")], [{ type: "text", text: "Done." }]],
      { commands: { outputBudgetBytes: 256 * KIB, outputQuotaBytes: 600 * KIB } },
    );
    expect(host.state().limits?.savedOutputs).toEqual({
      budgetBytes: 256 * KIB,
      quotaBytes: 600 * KIB,
      usedBytes: 0,
      files: 0,
    });
    await calls(host).prompt({ text: "go" });
    await calls(host).decide({
      approvalId: await pendingApproval(host, "c1"),
      decision: { kind: "approve" },
    });
    const told = await waitFor(() =>
      events.find((e): e is Extract<HostEvent, SavedOutputsEvent> => e.type === "saved-outputs"),
    );
    expect(told.savedOutputs).toMatchObject({ usedBytes: 228_894, files: 1 });
    expect(host.state().limits?.savedOutputs).toMatchObject({ usedBytes: 228_894, files: 1 });
    const path = (await waitFor(() => commandOf(host, "c1")?.details?.fullOutputPath)) as string;
    const workspace = host.state().workspace?.path as string;
    expect(dirname(path)).toBe(join(workspaceDataDir(join(root, "data"), workspace), "outputs"));
  });

  it("removes the oldest saved output when a new one needs the room, and says so when it is asked for", async () => {
    const { host, events } = await startHost(
      [
        [runCommand("c1", "seq 1 40000")],
        [runCommand("c2", "seq 2 40001")],
        [{ type: "text", text: "Done." }],
      ],
      { commands: { outputBudgetBytes: 256 * KIB, outputQuotaBytes: 300 * KIB } },
    );
    await calls(host).prompt({ text: "go" });
    for (const id of ["c1", "c2"]) {
      await calls(host).decide({
        approvalId: await pendingApproval(host, id),
        decision: { kind: "approve" },
      });
      await waitFor(() => commandOf(host, id)?.details?.fullOutputPath);
    }
    await waitFor(() => events.some((e) => e.type === "saved-outputs" && e.savedOutputs.files === 1));
    expect(host.state().limits?.savedOutputs).toMatchObject({ usedBytes: 228_898, files: 1 }); // seq 2 40001: c2's output
    await expect(calls(host).readFullOutput({ commandId: "c1" })).rejects.toThrow(
      /is gone: saved outputs are kept for 7 days and within the workspace's quota, the oldest removed first\. Run the command again/,
    );
    expect((await calls(host).readFullOutput({ commandId: "c2" })).text.startsWith("2\n3\n")).toBe(true);
  });

  it("will not open a workspace with a quota smaller than the budget, and says what to change", async () => {
    const root = mkdtempSync(join(tmpdir(), "pi-desk-host-"));
    mkdirSync(join(root, "repo"));
    try {
      await expect(
        DeskHost.create({
          shell: "browser",
          version: "test",
          workspace: { path: join(root, "repo"), name: "repo" },
          dataRoot: join(root, "data"),
          commands: { outputBudgetBytes: 256 * KIB, outputQuotaBytes: 100 * KIB },
        }),
      ).rejects.toThrow(/at least the per-command budget .* Raise the quota or lower the budget/);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
