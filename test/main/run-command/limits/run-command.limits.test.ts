import { existsSync, readdirSync, readFileSync } from "node:fs";
import { basename, join } from "node:path";
import { describe, expect, it } from "vitest";
import { hierarchiesOf, PI_DESK_GROUP } from "../../../../src/main/run-command/limits/cgroup-places";
import { machineLimitsLayer } from "../../../../src/main/run-command/limits/command-limiter";
import type { ResourceLimits } from "../../../../src/main/run-command/limits/resource-limits";
import { makeWorkspace, processesMatching, runTool } from "../run-command-harness";
import { cgroupsWritable, until } from "./limits-probe";

const writable = cgroupsWritable();
const MiB = 1024 ** 2;

/** Every command cgroup this process's commands have now (all hosts' folders are named for their host). */
function ownCommandCgroups(): string[] {
  return hierarchiesOf(machineLimitsLayer()).flatMap(({ base }) => {
    const top = join(base, PI_DESK_GROUP);
    const mine = existsSync(top) ? readdirSync(top).filter((name) => name.startsWith(`${process.pid}-`)) : [];
    return mine.flatMap((host) =>
      readdirSync(join(top, host), { withFileTypes: true })
        .filter((entry) => entry.isDirectory())
        .map((entry) => join(top, host, entry.name)),
    );
  });
}

/**
 * Whether the commands' cgroups are all gone: none holds a process, and at most one is left, the one made
 * ahead for the next command (command-limiter.ts), which no command ever ran in.
 */
function nothingLeftBut(madeAhead: number): boolean {
  const left = ownCommandCgroups();
  const empty = left.every((dir) => readFileSync(join(dir, "cgroup.procs"), "utf8").trim() === "");
  // One cgroup has a folder in each hierarchy (v1: memory and pids), all with its name.
  return empty && new Set(left.map((dir) => basename(dir))).size <= madeAhead;
}

describe.skipIf(!writable.ok)(
  `run_command: resource limits${writable.ok ? "" : ` (skipped: ${writable.why})`}`,
  () => {
    it("ends a rule-allowed fork bomb at the process limit, tells the model in one sentence, and leaves nothing", async () => {
      const workspaceRoot = makeWorkspace();
      const { details, text } = await runTool(
        { workspaceRoot, resourceLimits: { processes: 128 } },
        // The classic: each call pipes two more into the background; its first shell returns at once.
        { command: ":(){ :|:& };:; sleep 5", timeout: 60 },
      );
      expect(details.status).toBe("limit-reached");
      expect(details.limit).toEqual({ kind: "processes", limit: 128 });
      expect(details.limitsLayer).toBe(machineLimitsLayer().kind);
      expect(details.durationMs).toBeLessThan(10_000);
      expect(text).toMatch(
        /Command stopped at its process limit: it reached 128 processes and threads, so it was killed \(exit code \d+\); ask the user to raise the limit in Settings/,
      );
      await until(() => nothingLeftBut(1), 3_000);
      expect(processesMatching(":|:")).toEqual([]);
    }, 30_000);

    it("tells the model and the card a command's memory was its limit, with the exit code", async () => {
      const workspaceRoot = makeWorkspace();
      const { details, text } = await runTool(
        { workspaceRoot, resourceLimits: { memoryBytes: 64 * MiB } },
        { command: "python3 -c \"b = b'x' * (256 * 1024 * 1024)\"" },
      );
      expect(details.status).toBe("limit-reached");
      expect(details.limit).toEqual({ kind: "memory", limit: 64 * MiB });
      expect(details.exitCode).toBe(137);
      expect(text).toContain(
        "Command stopped at its memory limit: it used more than 64 MiB, so the system killed it (exit code 137); ask the user to raise the limit in Settings",
      );
      await until(() => nothingLeftBut(1), 3_000);
    }, 30_000);

    it("applies a limit changed between two commands from the next command", async () => {
      const workspaceRoot = makeWorkspace();
      let limits: Partial<ResourceLimits> = { memoryBytes: 512 * MiB };
      const hog = { command: "python3 -c \"b = b'x' * (128 * 1024 * 1024)\"" };
      const options = { workspaceRoot, resourceLimits: () => limits };
      expect((await runTool(options, hog)).details.status).toBe("succeeded");
      limits = { memoryBytes: 64 * MiB };
      expect((await runTool(options, hog)).details.status).toBe("limit-reached");
    }, 30_000);

    it("holds a sandboxed command too: in its cgroup, and stopped at its memory limit", async () => {
      const workspaceRoot = makeWorkspace();
      const sandbox = { enabled: true } as const;
      const inside = await runTool({ workspaceRoot, sandbox }, { command: "cat /proc/self/cgroup" });
      expect(inside.details.status).toBe("succeeded");
      expect(inside.text).toContain(`${PI_DESK_GROUP}/${process.pid}-`);
      const hog = await runTool(
        { workspaceRoot, sandbox, resourceLimits: { memoryBytes: 64 * MiB } },
        { command: "python3 -c \"b = b'x' * (256 * 1024 * 1024)\"" },
      );
      expect(hog.details.status).toBe("limit-reached");
      expect(hog.details.limit).toEqual({ kind: "memory", limit: 64 * MiB });
    }, 30_000);

    it("runs commands unlimited, in no cgroup, when limits are off", async () => {
      const workspaceRoot = makeWorkspace();
      const { text, details } = await runTool(
        { workspaceRoot, resourceLimits: false },
        { command: "cat /proc/self/cgroup" },
      );
      expect(text).not.toContain(PI_DESK_GROUP);
      expect(details.limitsLayer).toBe("none");
    });
  },
);
