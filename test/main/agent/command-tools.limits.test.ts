import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createCommandTools } from "../../../src/main/agent/command-tools";
import { SessionProjection } from "../../../src/main/agent/session-projection";
import { OutputQuota, type ResourceLimits } from "../../../src/main/run-command";
import type { RunCommandDetails } from "../../../src/shared/commands";
import { cgroupsWritable } from "../run-command/limits/limits-probe";

const writable = cgroupsWritable();

/** One chat's command tools over a fresh workspace, with the host's limits and the workspace's as given. */
async function toolsWith(
  host: Partial<ResourceLimits> | false,
  workspace: () => Partial<ResourceLimits> | undefined,
) {
  const workspaceRoot = mkdtempSync(join(tmpdir(), "pi-desk-tools-ws-"));
  const outputDir = mkdtempSync(join(tmpdir(), "pi-desk-tools-out-"));
  const tools = createCommandTools({
    settings: { resourceLimits: host },
    workspaceRoot,
    outputDir,
    outputQuota: await OutputQuota.open({ dir: outputDir }),
    hiddenPaths: [],
    projection: new SessionProjection(() => {}, workspaceRoot, 120),
    chat: {
      approve: async () => ({ kind: "approve" }),
      sandbox: () => ({ enabled: false, network: false, allowedHosts: [] }),
      backgroundCapSeconds: () => 60,
      backgroundEnded: () => {},
      runOwner: () => undefined,
      resourceLimits: workspace,
    },
  });
  return async (command: string) => {
    const result = await tools.runCommand.execute(
      "c1",
      { command },
      undefined,
      undefined,
      undefined as never,
    );
    return result.details as RunCommandDetails;
  };
}

describe.skipIf(!writable.ok)(
  `a workspace's command limits${writable.ok ? "" : ` (skipped: ${writable.why})`}`,
  () => {
    it("go over the host's, are read as each command starts, and none hold when the host turns limits off", async () => {
      let workspace: Partial<ResourceLimits> | undefined;
      const run = await toolsWith({ processes: 1_000 }, () => workspace);
      const count = "cat /proc/self/cgroup | grep -c pi-desk";
      expect((await run(count)).status).toBe("succeeded");
      workspace = { processes: 40 };
      const bomb = await run("for i in $(seq 100); do sleep 20 & done; wait");
      expect(bomb.status).toBe("limit-reached");
      expect(bomb.limit).toEqual({ kind: "processes", limit: 40 });
      workspace = { memoryBytes: undefined, processes: undefined };
      expect((await run("for i in $(seq 100); do sleep 0.5 & done; wait")).status).toBe("succeeded");

      const off = await toolsWith(false, () => ({ processes: 40 }));
      expect((await off(count)).status).toBe("failed");
      expect((await off("for i in $(seq 100); do sleep 0.5 & done; wait")).status).toBe("succeeded");
    }, 60_000);
  },
);
