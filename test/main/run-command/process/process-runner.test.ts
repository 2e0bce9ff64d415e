import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runProcess } from "../../../../src/main/run-command/process/process-runner";
import { RUN_MARKER_ENV } from "../../../../src/main/run-command/process/process-tree";
import { bash, TEST_ENV } from "./process-probe";

const cwd = mkdtempSync(join(tmpdir(), "process-runner-test-"));
afterAll(() => rmSync(cwd, { recursive: true, force: true }));

const run = (command: string, timeoutMs = 10_000) =>
  runProcess({ argv: bash(command), cwd, env: TEST_ENV, timeoutMs });

describe.runIf(process.platform !== "win32")("runProcess: how a command ends", () => {
  it("reports exit code 0 and the output", async () => {
    const outcome = await run("echo hello");
    expect(outcome).toMatchObject({ exitCode: 0, signal: null, timedOut: false, cancelled: false });
    expect(outcome.output.text).toBe("hello");
    expect(outcome.spawnError).toBeUndefined();
  });

  it("reports a failing command's real exit code without throwing", async () => {
    const outcome = await run("echo out; echo err >&2; exit 3");
    expect(outcome.exitCode).toBe(3);
    expect(outcome.output.text).toBe("out\nerr");
  });

  it("reports 128 + signal number when the command is killed by a signal on its own", async () => {
    const usr1 = await run("kill -USR1 $$");
    expect(usr1).toMatchObject({ exitCode: 128 + 10, signal: "SIGUSR1", timedOut: false, cancelled: false });
    const kill = await runProcess({
      argv: ["/bin/sh", "-c", "kill -KILL $$"],
      cwd,
      env: TEST_ENV,
      timeoutMs: 10_000,
    });
    expect(kill).toMatchObject({ exitCode: 137, signal: "SIGKILL" });
  });

  it("merges stdout and stderr in arrival order", async () => {
    const outcome = await run("for i in 1 2 3; do echo out$i; echo err$i >&2; done");
    expect(outcome.output.text).toBe("out1\nerr1\nout2\nerr2\nout3\nerr3");
  });

  it("runs in cwd with exactly the given environment plus the tree marker", async () => {
    const outcome = await runProcess({
      argv: ["/usr/bin/env"],
      cwd,
      env: { ONLY: "this", PATH: "/usr/bin:/bin" },
      timeoutMs: 10_000,
    });
    const names = outcome.output.text
      .trim()
      .split("\n")
      .map((line) => line.split("=")[0])
      .sort();
    expect(names).toEqual(["ONLY", "PATH", RUN_MARKER_ENV]);
    expect((await run("pwd")).output.text).toBe(cwd);
  });

  it("closes stdin, so commands that read it end at once", async () => {
    const outcome = await run("cat; read x; echo read=$?", 20_000);
    expect(outcome.exitCode).toBe(0);
    expect(outcome.output.text).toBe("read=1");
    expect(outcome.durationMs).toBeLessThan(5_000);
  });
});

describe.runIf(process.platform !== "win32")("runProcess: programs that cannot start", () => {
  it("turns a missing program into a spawnError outcome", async () => {
    const outcome = await runProcess({
      argv: ["/no/such/shell", "-c", "true"],
      cwd,
      env: TEST_ENV,
      timeoutMs: 1_000,
    });
    expect(outcome).toMatchObject({ exitCode: null, signal: null, timedOut: false, cancelled: false });
    expect(outcome.spawnError).toMatch(/Could not start \/no\/such\/shell: no such program \(ENOENT\)/);
    expect(outcome.output).toMatchObject({ text: "", totalBytes: 0, truncated: false });
  });

  it("names a missing working directory instead of blaming the program", async () => {
    const outcome = await runProcess({
      argv: ["/bin/sh", "-c", "true"],
      cwd: join(cwd, "gone"),
      env: TEST_ENV,
      timeoutMs: 1_000,
    });
    expect(outcome.spawnError).toMatch(/working directory .*gone does not exist/);
  });

  it("reports a file that is not executable", async () => {
    const script = join(cwd, "not-executable.sh");
    writeFileSync(script, "#!/bin/sh\necho hi\n", { mode: 0o644 });
    const outcome = await runProcess({ argv: [script], cwd, env: TEST_ENV, timeoutMs: 1_000 });
    expect(outcome.spawnError).toMatch(/EACCES/);
  });

  it("reports an empty argv", async () => {
    const outcome = await runProcess({ argv: [], cwd, env: TEST_ENV, timeoutMs: 1_000 });
    expect(outcome.spawnError).toMatch(/argv is empty/);
  });
});

describe.runIf(process.platform !== "win32")("runProcess: live updates", () => {
  it("throttles onUpdate to about ten a second and sends none after the end", async () => {
    const updates: { text: string; totalLines: number }[] = [];
    const outcome = await runProcess({
      argv: bash("for i in $(seq 1 150); do echo tick $i; sleep 0.01; done"),
      cwd,
      env: TEST_ENV,
      timeoutMs: 20_000,
      onUpdate: (update) => updates.push(update),
    });
    const callsAtEnd = updates.length;
    expect(outcome.output.totalLines).toBe(150);
    expect(callsAtEnd).toBeGreaterThan(1);
    // ~1.5 s or more of printing at 10 a second, plus the first call right away.
    expect(callsAtEnd).toBeLessThanOrEqual(Math.ceil(outcome.durationMs / 100) + 1);
    expect(updates.at(-1)?.text).toMatch(/^tick 1\n/);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(updates.length).toBe(callsAtEnd);
  });

  it("keeps running when onUpdate throws", async () => {
    const outcome = await runProcess({
      argv: bash("echo a; sleep 0.2; echo b"),
      cwd,
      env: TEST_ENV,
      timeoutMs: 10_000,
      onUpdate: () => {
        throw new Error("listener broke");
      },
    });
    expect(outcome.exitCode).toBe(0);
    expect(outcome.output.text).toBe("a\nb");
  });
});
