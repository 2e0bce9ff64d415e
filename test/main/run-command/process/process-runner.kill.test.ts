import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runProcess } from "../../../../src/main/run-command/process/process-runner";
import { bash, liveSleeps, TEST_ENV, uniqueSeconds, waitFor } from "./process-probe";

const cwd = tmpdir();
// Printing forever for 1.5 s writes over 100 MB of full output: keep it where it gets removed.
const outputDir = mkdtempSync(join(tmpdir(), "process-runner-kill-test-"));
afterAll(() => rmSync(outputDir, { recursive: true, force: true }));

describe.runIf(process.platform === "linux")("runProcess: timeout, cancel and leftovers", () => {
  it("times out `sleep` after timeoutMs and leaves no sleep behind", async () => {
    const seconds = uniqueSeconds(31);
    const outcome = await runProcess({
      argv: bash(`sleep ${seconds}`),
      cwd,
      env: TEST_ENV,
      timeoutMs: 2_000,
    });
    expect(outcome).toMatchObject({ exitCode: null, timedOut: true, cancelled: false });
    // SIGTERM first; on a loaded machine the SIGKILL after the grace period may land before sleep runs.
    expect(["SIGTERM", "SIGKILL"]).toContain(outcome.signal);
    expect(outcome.durationMs).toBeGreaterThanOrEqual(1_900);
    expect(outcome.durationMs).toBeLessThan(5_000);
    expect(liveSleeps(seconds)).toEqual([]);
  });

  it("cancels a tree with grandchildren: plain, setsid, double-forked and TERM-ignoring", async () => {
    const plain = uniqueSeconds(32);
    const viaSetsid = uniqueSeconds(33);
    const doubleForked = uniqueSeconds(34);
    const ignoresTerm = uniqueSeconds(35);
    const controller = new AbortController();
    const running = runProcess({
      argv: bash(`
        sleep ${plain} &
        setsid sleep ${viaSetsid} &
        ( ( setsid sleep ${doubleForked} & ) & )
        ( trap '' TERM; exec sleep ${ignoresTerm} ) &
        echo ready; wait`),
      cwd,
      env: TEST_ENV,
      timeoutMs: 30_000,
      signal: controller.signal,
    });
    const all = [plain, viaSetsid, doubleForked, ignoresTerm];
    expect(await waitFor(() => all.every((s) => liveSleeps(s).length === 1))).toBe(true);

    const abortedAt = performance.now();
    controller.abort();
    const outcome = await running;
    const latencyMs = performance.now() - abortedAt;
    expect(outcome).toMatchObject({ exitCode: null, timedOut: false, cancelled: true });
    expect(outcome.output.text).toBe("ready");
    for (const s of all) expect(liveSleeps(s)).toEqual([]);
    // Resolving means the tree is gone. Loose bound: SIGKILL follows SIGTERM after 50 ms.
    expect(latencyMs).toBeLessThan(2_000);
  });

  it("runs nothing when the signal is already aborted", async () => {
    const seconds = uniqueSeconds(36);
    const outcome = await runProcess({
      argv: bash(`sleep ${seconds}`),
      cwd,
      env: TEST_ENV,
      timeoutMs: 10_000,
      signal: AbortSignal.abort(),
    });
    expect(outcome).toMatchObject({ exitCode: null, cancelled: true, timedOut: false });
    expect(outcome.output.totalBytes).toBe(0);
    expect(liveSleeps(seconds)).toEqual([]);
  });

  it("reports cancelled, not timedOut, when an abort comes while the timeout kill is under way", async () => {
    const controller = new AbortController();
    const outcome = await runProcess({
      // Ignores SIGTERM, so the timeout kill takes the 50 ms grace; the abort lands inside it.
      argv: bash("trap '' TERM; while :; do sleep 0.01; done"),
      cwd,
      env: TEST_ENV,
      timeoutMs: 300,
      signal: controller.signal,
    });
    // The abort above never fired: timed out. Now the race, with the abort just after the deadline.
    expect(outcome).toMatchObject({ timedOut: true, cancelled: false });
    const racing = runProcess({
      argv: bash("trap '' TERM; while :; do sleep 0.01; done"),
      cwd,
      env: TEST_ENV,
      timeoutMs: 300,
      signal: controller.signal,
    });
    setTimeout(() => controller.abort(), 310);
    expect(await racing).toMatchObject({ timedOut: false, cancelled: true, exitCode: null });
  });

  it("kills background jobs left behind when the shell exits, without hanging on their pipes", async () => {
    const job = uniqueSeconds(37);
    const ignoresTerm = uniqueSeconds(38);
    const daemon = uniqueSeconds(39);
    const outcome = await runProcess({
      argv: bash(`
        sleep ${job} &
        ( trap '' TERM; exec sleep ${ignoresTerm} ) &
        ( ( setsid sleep ${daemon} & ) & )
        sleep 0.2; echo shell done; exit 4`),
      cwd,
      env: TEST_ENV,
      timeoutMs: 20_000,
    });
    expect(outcome).toMatchObject({ exitCode: 4, timedOut: false, cancelled: false });
    expect(outcome.output.text).toBe("shell done");
    expect(outcome.durationMs).toBeLessThan(5_000);
    for (const s of [job, ignoresTerm, daemon]) expect(liveSleeps(s)).toEqual([]);
  });

  it("does not hang on a pipe held by a process that escaped detection", async () => {
    // env -i drops the marker and the double fork + setsid leave group, session and ppid chain:
    // the one shape the kill cannot find. The run must still end soon after the shell does.
    const escaped = uniqueSeconds(29);
    const outcome = await runProcess({
      // The pause lets the escape complete before the shell exits and the leftover scan runs.
      argv: bash(`( ( env -i setsid /bin/sleep ${escaped} & ) & ); sleep 0.3; echo left`),
      cwd,
      env: TEST_ENV,
      timeoutMs: 20_000,
    });
    expect(outcome).toMatchObject({ exitCode: 0, timedOut: false });
    expect(outcome.output.text).toBe("left");
    expect(outcome.durationMs).toBeLessThan(3_000);
    // It did escape (a known limit: see RUN_MARKER_ENV); this test started it, so it ends it.
    const survivors = liveSleeps(escaped);
    for (const pid of survivors) process.kill(pid, "SIGKILL");
    expect(survivors.length).toBe(1);
  });

  it("still ends at its timeout a command that closed its pipes and kept running", async () => {
    const seconds = uniqueSeconds(40);
    const outcome = await runProcess({
      argv: bash(`echo bye; exec >&- 2>&-; sleep ${seconds}`),
      cwd,
      env: TEST_ENV,
      timeoutMs: 1_500,
    });
    expect(outcome).toMatchObject({ timedOut: true, exitCode: null });
    expect(outcome.output.text).toBe("bye");
    expect(outcome.durationMs).toBeLessThan(5_000);
    expect(liveSleeps(seconds)).toEqual([]);
  });

  it("ends a command printing forever without newlines at its timeout, with a bounded tail", async () => {
    const outcome = await runProcess({
      argv: bash("yes | tr -d '\\n'"),
      cwd,
      env: TEST_ENV,
      timeoutMs: 1_500,
      outputDir,
    });
    expect(outcome).toMatchObject({ timedOut: true, exitCode: null });
    expect(outcome.durationMs).toBeLessThan(5_000);
    expect(outcome.output.totalLines).toBe(1);
    expect(outcome.output.totalBytes).toBeGreaterThan(1_000_000);
    expect(outcome.output.lastLinePartial).toBe(true);
    expect(Buffer.byteLength(outcome.output.text)).toBeLessThanOrEqual(51_200);
    expect(outcome.output.text.endsWith("y")).toBe(true);
  });
});

describe.runIf(process.platform === "linux")("runProcess: a second run after a kill", () => {
  it("is unaffected by the previous run's marker", async () => {
    const first = uniqueSeconds(30);
    const controller = new AbortController();
    const running = runProcess({
      argv: bash(`sleep ${first}`),
      cwd,
      env: TEST_ENV,
      timeoutMs: 10_000,
      signal: controller.signal,
    });
    await waitFor(() => liveSleeps(first).length === 1);
    controller.abort();
    await running;
    expect(
      (await runProcess({ argv: bash("echo again"), cwd, env: TEST_ENV, timeoutMs: 10_000 })).output.text,
    ).toBe("again");
  });
});
