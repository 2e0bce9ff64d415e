import { spawn } from "node:child_process";
import { join } from "node:path";

/** The ways of running a shell command the benchmark compares; (s) is (a) inside the sandbox, (u) (a) without resource limits. */
export type ContenderId = "a" | "s" | "u" | "b" | "c" | "d";

/** What a contender reports for one command. */
export interface ContenderResult {
  /** The text the model would be given; absent where there is no model-facing text (the raw limit). */
  text?: string;
  /** The file holding the complete output, when the contender saved one. */
  fullOutputPath?: string;
}

/** One contender, set up for a workspace: runs a command there and stops it when `signal` aborts. */
export interface Contender {
  id: ContenderId;
  name: string;
  run(command: string, signal?: AbortSignal): Promise<ContenderResult>;
}

/** Display names, also used by the orchestrator's table. */
export const CONTENDER_NAMES: Record<ContenderId, string> = {
  a: "run_command",
  s: "run_command, sandboxed",
  u: "run_command, no resource limits",
  b: "Pi bash tool",
  c: "naive spawn",
  d: "raw limit",
};

/** Timeout given to the tools that take one, in seconds: far above any run, so it never fires. */
const TOOL_TIMEOUT_SECONDS = 120;

/** The live-view callback the app would pass; it keeps only the last update, like the UI does. */
function liveView(): (update: unknown) => void {
  let last: unknown;
  return (update) => {
    last = update;
    void last;
  };
}

function textOf(content: readonly { type: string; text?: string }[]): string {
  return content.map((part) => (part.type === "text" ? (part.text ?? "") : "")).join("");
}

/**
 * Creates a contender. Each imports only what it uses, so a worker process holds only its own
 * contender's modules and its RSS is that contender's.
 */
export async function createContender(
  id: ContenderId,
  setup: { workspace: string; outputDir: string },
): Promise<Contender> {
  const name = CONTENDER_NAMES[id];
  switch (id) {
    case "a":
      // `--aa-control`: (a) as (u), so the limits' ratio shows the noise floor (run-command.bench.ts).
      return runCommandContender(id, setup, false, process.env.BENCH_AA_CONTROL !== "1");
    case "s":
      return runCommandContender(id, setup, true);
    case "u":
      return runCommandContender(id, setup, false, false);
    case "b": {
      const { createBashToolDefinition, createLocalBashOperations } = await import(
        "@earendil-works/pi-coding-agent"
      );
      const tool = createBashToolDefinition(setup.workspace, { operations: createLocalBashOperations() });
      const onUpdate = liveView();
      return {
        id,
        name,
        async run(command, signal) {
          try {
            const result = await tool.execute(
              "bench",
              { command, timeout: TOOL_TIMEOUT_SECONDS },
              signal,
              onUpdate,
              undefined as never,
            );
            const details = result.details as { fullOutputPath?: string } | undefined;
            return { text: textOf(result.content), fullOutputPath: details?.fullOutputPath };
          } catch (error) {
            // Pi's tool reports abort, timeout and a non-zero exit by throwing; the message is the model's text.
            return { text: error instanceof Error ? error.message : String(error) };
          }
        },
      };
    }
    case "c":
      return { id, name, run: (command, signal) => naiveSpawn(command, setup.workspace, signal) };
    case "d":
      return { id, name, run: (command, signal) => rawLimit(command, setup.workspace, signal) };
  }
}

/** Pi Desk's run_command, auto-approved (no approve callback): validation, policy, runner and, for (s), bwrap. */
async function runCommandContender(
  id: ContenderId,
  setup: { workspace: string; outputDir: string },
  sandboxed: boolean,
  /** Each command in a cgroup with its limits (the app's default), or not at all (the "off" of the limits' cost). */
  limited = true,
): Promise<Contender> {
  const { createRunCommandTool } = await import("../src/main/run-command/run-command");
  const { RunRegistry } = await import("../src/main/run-command/process/run-registry");
  const tool = createRunCommandTool({
    workspaceRoot: setup.workspace,
    outputDir: setup.outputDir,
    // As the app runs it: every command recorded while it runs, for the next start to reap after a crash.
    runRegistry: new RunRegistry(join(setup.outputDir, "..", `runs-${id}`)),
    defaultTimeoutSeconds: TOOL_TIMEOUT_SECONDS,
    maxTimeoutSeconds: TOOL_TIMEOUT_SECONDS,
    sandbox: sandboxed ? { enabled: true } : undefined,
    ...(limited ? {} : { resourceLimits: false as const }),
  });
  const onUpdate = liveView();
  return {
    id,
    name: CONTENDER_NAMES[id],
    async run(command, signal) {
      const result = await tool.execute(
        "bench",
        { command, timeout: TOOL_TIMEOUT_SECONDS },
        signal,
        onUpdate,
        undefined as never,
      );
      const details = result.details as { fullOutputPath?: string };
      return { text: textOf(result.content), fullOutputPath: details.fullOutputPath };
    },
  };
}

/** The textbook version: spawn, `data += chunk` on both streams, resolve on close, `child.kill()` to stop. */
function naiveSpawn(command: string, cwd: string, signal?: AbortSignal): Promise<ContenderResult> {
  return new Promise((resolve, reject) => {
    const child = spawn("/bin/bash", ["-c", command], { cwd });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => {
      stdout += chunk;
    });
    child.stderr.on("data", (chunk) => {
      stderr += chunk;
    });
    signal?.addEventListener("abort", () => child.kill(), { once: true });
    child.on("error", reject);
    child.on("close", () => resolve({ text: stdout + stderr }));
  });
}

/**
 * The floor: `/bin/sh -c` in its own process group, its output through a pipe that is drained and
 * discarded, a group SIGKILL to stop it. Nothing any tool could do costs less.
 */
function rawLimit(command: string, cwd: string, signal?: AbortSignal): Promise<ContenderResult> {
  return new Promise((resolve, reject) => {
    const child = spawn("/bin/sh", ["-c", command], {
      cwd,
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
    });
    child.stdout.resume();
    child.stderr.resume();
    signal?.addEventListener(
      "abort",
      () => {
        try {
          if (child.pid !== undefined) process.kill(-child.pid, "SIGKILL");
        } catch {
          // already gone
        }
      },
      { once: true },
    );
    child.on("error", reject);
    child.on("close", () => resolve({}));
  });
}
