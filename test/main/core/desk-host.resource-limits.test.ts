import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DeskHost } from "../../../src/main/core/desk-host";
import { machineLimitsLayer } from "../../../src/main/run-command/limits/command-limiter";
import { cgroupsWritable } from "../run-command/limits/limits-probe";
import {
  assistantSaid,
  calls,
  commandOf,
  pendingApproval,
  runCommand,
  startHost,
  waitFor,
} from "./host-harness";

const MiB = 1024 ** 2;

/** The pid of the live process whose whole argv is `args`. */
function pidOf(args: string): number | undefined {
  const line = execFileSync("ps", ["-eo", "pid=,stat=,args="], { encoding: "utf8" })
    .split("\n")
    .map((l) => l.trim().split(/\s+/))
    .find(([, stat, ...rest]) => !stat?.startsWith("Z") && rest.join(" ") === args);
  return line ? Number(line[0]) : undefined;
}

/** Live `sleep <tag>` processes, matched on their whole argv. */
function sleepers(tag: string): number {
  return execFileSync("ps", ["-eo", "stat=,args="], { encoding: "utf8" })
    .split("\n")
    .map((line) => line.trim().split(/\s+/))
    .filter(([stat, ...args]) => !stat?.startsWith("Z") && args.join(" ") === `sleep ${tag}`).length;
}
const writable = cgroupsWritable();

/** A program holding 128 MiB: within the default limit, past 64 MiB. */
const HOG = "python3 -c \"b = b'x' * (128 * 1024 * 1024); print('held')\"";

describe("the session host: each command's resource limits in Settings", () => {
  it("shows the limits in force and the layer that holds them", async () => {
    const { host } = await startHost([]);
    const resources = host.state().limits?.resources;
    const layer = machineLimitsLayer().kind;
    expect(resources).toMatchObject({
      layer: layer === "rlimit" ? "process" : layer,
      processes: 2_048,
      fromWorkspace: { memoryBytes: false, processes: false },
    });
    expect(resources?.memoryBytes).toBe(resources?.defaults.memoryBytes);
    expect(resources?.description).toMatch(/^limits: cgroup v[12]$|^per process only|^not limited/);
  });

  it("refuses a limit below the smallest, saying what to set, and keeps the one in force", async () => {
    const { host } = await startHost([]);
    await expect(calls(host).setResourceLimits({ processes: 3 })).rejects.toThrow(
      "A command's process limit must be a whole number, at least 16; got 3. Set 16 or more, or leave it empty for the default.",
    );
    await expect(calls(host).setResourceLimits({ memoryBytes: 1024 })).rejects.toThrow(
      /at least 16777216 \(16 MiB\)/,
    );
    expect(host.state().limits?.resources?.processes).toBe(2_048);
  });

  it.skipIf(!writable.ok)(
    "runs a background command inside the workspace's group, whose total Settings shows and sets",
    async () => {
      const inBackground = {
        type: "toolCall" as const,
        id: "bg",
        name: "run_command",
        arguments: { command: "cat /proc/self/cgroup; sleep 30", background: true },
      };
      const { host } = await startHost([[inBackground], [{ type: "text", text: "Started." }]], {
        commands: { backgroundReadinessMs: 300 },
      });
      expect(host.state().limits?.resources?.backgroundTotal).toEqual({
        memoryBytes: host.state().limits?.resources?.defaults.memoryBytes,
        processes: 2 * 2_048,
      });
      await calls(host).setResourceLimits({ backgroundMemoryBytes: 256 * MiB, backgroundProcesses: 100 });
      expect(host.state().limits?.resources?.backgroundTotal).toEqual({
        memoryBytes: 256 * MiB,
        processes: 100,
      });
      await calls(host).prompt({ text: "go" });
      await calls(host).decide({
        approvalId: await pendingApproval(host, "bg"),
        decision: { kind: "approve" },
      });
      await assistantSaid(host, "Started.");
      // Its cgroup is inside the workspace's group (pi-desk/<host>/w-<…>/c-<…>), not beside the host's others.
      expect(commandOf(host, "bg")?.output).toMatch(/pi-desk\/\d+-[0-9a-f]+\/w-[0-9a-f]{12}\/c-/);
      await expect(calls(host).setResourceLimits({ backgroundProcesses: 2 })).rejects.toThrow(
        "The background commands' total process limit must be a whole number, at least 16; got 2.",
      );
    },
    30_000,
  );

  it.skipIf(!writable.ok)(
    "counts a background command against the workspace's total: another chat's is stopped at it, and its card says so",
    async () => {
      const tag = `55.${process.pid}`;
      const inBackground = (id: string, command: string) => ({
        type: "toolCall" as const,
        id,
        name: "run_command",
        arguments: { command, background: true },
      });
      const { host } = await startHost(
        {
          first: [
            [inBackground("a", `for i in $(seq 12); do sleep ${tag}1 & done; wait`)],
            [{ type: "text", text: "A up." }],
          ],
          // Ready first (it is in the background when it reaches the total), then 12 more.
          second: [
            [inBackground("b", `echo ready; sleep 1; for i in $(seq 12); do sleep ${tag}2 & done; wait`)],
            [{ type: "text", text: "B up." }],
          ],
        },
        { commands: { backgroundReadinessMs: 300 } },
      );
      // Each within its own 40; together 26 would pass the total of 24.
      await calls(host).setResourceLimits({ processes: 40, backgroundProcesses: 24 });
      const first = host.state().chatId as string;
      await calls(host, first).prompt({ text: "first" });
      await calls(host, first).decide({
        approvalId: await pendingApproval(host, "a"),
        decision: { kind: "approve" },
      });
      await waitFor(() => sleepers(`${tag}1`) === 12);
      const second = (await calls(host).newSession()).id;
      await calls(host, second).prompt({ text: "second" });
      const approvalId = await waitFor(() => host.command("b", second)?.approvalId);
      await calls(host, second).decide({ approvalId, decision: { kind: "approve" } });
      const stopped = await waitFor(() => host.command("b", second)?.background?.limit);
      expect(stopped).toEqual({ kind: "processes", limit: 24 });
      expect(host.command("b", second)?.background?.status).not.toBe("running");
      await waitFor(() => sleepers(`${tag}2`) === 0);
      // The first chat's command is untouched.
      expect(sleepers(`${tag}1`)).toBe(12);
      expect(host.command("a", first)?.background?.status).toBe("running");
    },
    60_000,
  );

  it.skipIf(!writable.ok)(
    "moves a command kept running into the workspace's group, so it counts against the total from then on",
    async () => {
      const tag = `56.${process.pid}`;
      const { host } = await startHost([
        [runCommand("fg", `sleep ${tag}`)],
        [{ type: "text", text: "Kept." }],
      ]);
      await calls(host).prompt({ text: "go" });
      await calls(host).decide({
        approvalId: await pendingApproval(host, "fg"),
        decision: { kind: "approve" },
      });
      const pid = await waitFor(() => pidOf(`sleep ${tag}`));
      expect(readFileSync(`/proc/${pid}/cgroup`, "utf8")).not.toMatch(/\/w-[0-9a-f]{12}\//);
      await calls(host).keepRunning({ commandId: "fg" });
      await assistantSaid(host, "Kept.");
      await waitFor(() =>
        /pids:\/pi-desk\/\d+-[0-9a-f]+\/w-[0-9a-f]{12}\/c-/.test(readFileSync(`/proc/${pid}/cgroup`, "utf8")),
      );
      expect(readFileSync(`/proc/${pid}/cgroup`, "utf8")).toMatch(/memory:.*\/w-[0-9a-f]{12}\/c-/);
      await calls(host).cancelCommand({ commandId: "fg" });
      await waitFor(() => commandOf(host, "fg")?.background?.status === "stopped");
    },
    30_000,
  );

  it.skipIf(!writable.ok)(
    "applies a limit changed in Settings from the next command, tells the page in a small event, and keeps it across a restart",
    async () => {
      const { host, events, root, workspace } = await startHost([
        [runCommand("before", HOG)],
        [{ type: "text", text: "First done." }],
        [runCommand("after", HOG)],
        [{ type: "text", text: "Second done." }],
      ]);
      await calls(host).prompt({ text: "go" });
      await calls(host).decide({
        approvalId: await pendingApproval(host, "before"),
        decision: { kind: "approve" },
      });
      await assistantSaid(host, "First done.");
      expect(commandOf(host, "before")?.details?.status).toBe("succeeded");
      // The card says which layer held it: from its first live update, and in its record.
      const layer = host.state().limits?.resources?.layer;
      expect(commandOf(host, "before")?.limitsLayer).toBe(layer);
      expect(commandOf(host, "before")?.details?.limitsLayer).toBe(layer);

      await calls(host).setResourceLimits({ memoryBytes: 64 * MiB });
      const changed = events.filter((event) => event.type === "limits-changed");
      expect(changed).toEqual([
        expect.objectContaining({
          chatId: host.state().chatId,
          limits: expect.objectContaining({
            resources: expect.objectContaining({ memoryBytes: 64 * MiB, processes: 2_048 }),
          }),
        }),
      ]);
      expect(host.state().limits?.resources).toMatchObject({
        memoryBytes: 64 * MiB,
        fromWorkspace: { memoryBytes: true, processes: false },
      });

      await calls(host).prompt({ text: "again" });
      await calls(host).decide({
        approvalId: await pendingApproval(host, "after"),
        decision: { kind: "approve" },
      });
      await assistantSaid(host, "Second done.");
      expect(commandOf(host, "after")?.details).toMatchObject({
        status: "limit-reached",
        limit: { kind: "memory", limit: 64 * MiB },
      });

      await host.dispose();
      const again = await DeskHost.create({
        shell: "browser",
        version: "test",
        workspace: { path: workspace, name: "repo" },
        dataRoot: join(root, "data"),
      });
      try {
        expect(again.state().limits?.resources?.memoryBytes).toBe(64 * MiB);
        // Back to the host's: an absent limit is the default again.
        await calls(again).setResourceLimits({});
        expect(again.state().limits?.resources?.memoryBytes).toBe(
          again.state().limits?.resources?.defaults.memoryBytes,
        );
      } finally {
        await again.dispose();
      }
    },
    60_000,
  );
});
