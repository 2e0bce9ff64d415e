import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { RunCommandProgress } from "../../../../src/shared/commands";
import { liveSleeps, uniqueSeconds, waitFor } from "../process/process-probe";
import { makeWorkspace, runTool } from "../run-command-harness";
import { onLinux } from "./sandbox-harness";

const SANDBOX = { enabled: true } as const;

describe.runIf(onLinux)("run_command in the sandbox: exit codes, kills and output", () => {
  it.each([
    ["exit 3", 3],
    // bwrap's own failure is exit 1 too: the status descriptor, not the code, tells them apart.
    ["exit 1", 1],
    ["kill -9 $$", 137],
  ])("reports the command's own exit code for `%s`", async (command, code) => {
    const { text, details } = await runTool(
      { workspaceRoot: makeWorkspace(), sandbox: SANDBOX },
      { command },
    );
    expect(details).toMatchObject({ status: "failed", exitCode: code, timedOut: false, cancelled: false });
    expect(text).toBe(`Command exited with code ${code}`);
  });

  it("kills everything on cancel, processes that left the group and the marker included", async () => {
    const seconds = [uniqueSeconds(41), uniqueSeconds(42), uniqueSeconds(43)] as const;
    const command = [
      `sleep ${seconds[0]} &`,
      `setsid sleep ${seconds[1]} &`,
      // No marker in its environment, its own session, and its parent gone: only the PID namespace holds it.
      `env -i /usr/bin/setsid /bin/sh -c 'sleep ${seconds[2]} & exit' &`,
      "echo spawned; wait",
    ].join("\n");
    const controller = new AbortController();
    const running = runTool(
      { workspaceRoot: makeWorkspace(), sandbox: SANDBOX },
      { command, timeout: 60 },
      { signal: controller.signal },
    );
    expect(await waitFor(() => seconds.every((s) => liveSleeps(s).length === 1), 10_000)).toBe(true);
    controller.abort();
    const { text, details } = await running;
    expect(details).toMatchObject({ status: "cancelled", cancelled: true, exitCode: null });
    expect(text).toBe("spawned\n\nCommand cancelled by the user");
    for (const s of seconds) expect(liveSleeps(s)).toEqual([]);
  });

  it("times out like an unsandboxed command and leaves nothing behind", async () => {
    const seconds = uniqueSeconds(44);
    const started = Date.now();
    const { text, details } = await runTool(
      { workspaceRoot: makeWorkspace(), sandbox: SANDBOX },
      { command: `echo started; setsid sleep ${seconds} & sleep ${seconds}`, timeout: 2 },
    );
    expect(Date.now() - started).toBeGreaterThanOrEqual(1900);
    expect(details).toMatchObject({ status: "timed-out", timedOut: true, exitCode: null });
    expect(text).toBe("started\n\nCommand timed out after 2 seconds");
    expect(liveSleeps(seconds)).toEqual([]);
  });

  it("keeps output order, trimming and live updates as without the sandbox", async () => {
    const command = "for i in 1 2 3; do echo out$i; echo err$i >&2; done; seq 1 100000";
    const workspaceRoot = makeWorkspace();
    const updates: RunCommandProgress[] = [];
    const boxed = await runTool({ workspaceRoot, sandbox: SANDBOX }, { command }, { updates });
    const plain = await runTool({ workspaceRoot }, { command });
    expect(boxed.details).toMatchObject({ status: "succeeded", truncated: true, totalLines: 100_006 });
    const path = (text: string) => text.replace(/Full output: \S+/, "Full output: <file>");
    expect(path(boxed.text)).toBe(path(plain.text));
    expect(boxed.text.startsWith(`${100_006 - 2000 + 1 - 6}\n`)).toBe(true);
    const full = readFileSync(boxed.details.fullOutputPath as string, "utf8");
    expect(full.startsWith("out1\nerr1\nout2\nerr2\nout3\nerr3\n1\n2\n")).toBe(true);
    expect(full.endsWith("99999\n100000\n")).toBe(true);
    expect(updates[0]).toMatchObject({ status: "running", totalLines: 0 });
    expect(updates.length).toBeGreaterThan(1);
  });
});
