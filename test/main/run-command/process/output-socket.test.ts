import { readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { describe, expect, it } from "vitest";
import { openOutputSocket } from "../../../../src/main/run-command/process/output-socket";
import { runProcess } from "../../../../src/main/run-command/process/process-runner";
import { bash, TEST_ENV } from "./process-probe";

const run = (command: string) =>
  runProcess({ argv: bash(command), cwd: tmpdir(), env: TEST_ENV, timeoutMs: 60_000 });

/** Handles that keep this process alive (unreferenced ones are not listed). */
const liveSockets = () => process.getActiveResourcesInfo().filter((name) => name === "PipeWrap").length;

/** Open descriptors of this process (Linux), the fewest of a few reads, as the soak counts them. */
const openDescriptors = () => Math.min(...[0, 1, 2].map(() => readdirSync("/proc/self/fd").length));

const settle = () => new Promise((resolve) => setTimeout(resolve, 300));

describe.runIf(process.platform !== "win32")("output socket opened ahead", () => {
  it("gives each of many back-to-back commands its own output, complete", async () => {
    for (let i = 0; i < 30; i++) {
      const outcome = await run(`echo start-${i}; seq 1 ${i * 50}; echo end-${i}`);
      expect(outcome.exitCode).toBe(0);
      const lines = outcome.output.text.split("\n");
      expect(lines[0]).toBe(`start-${i}`);
      expect(lines.at(-1)).toBe(`end-${i}`);
      expect(outcome.output.totalLines).toBe(i * 50 + 2);
    }
  });

  it("never mixes the output of commands running at the same time", async () => {
    const outcomes = await Promise.all(
      Array.from({ length: 8 }, (_, i) => run(`for n in 1 2 3 4 5; do echo cmd-${i}-$n; sleep 0.01; done`)),
    );
    outcomes.forEach((outcome, i) => {
      expect(outcome.output.text).toBe([1, 2, 3, 4, 5].map((n) => `cmd-${i}-${n}`).join("\n"));
    });
  });

  it.runIf(process.platform === "linux")(
    "holds the same descriptors after every command once it settled, whatever ran before",
    async () => {
      await run("true");
      await settle();
      const first = openDescriptors();
      for (let i = 0; i < 5; i++) await run("echo one");
      await Promise.all([run("echo a"), run("echo b")]);
      await settle();
      expect(openDescriptors()).toBe(first);
    },
  );

  it("does not keep the process alive while it waits for the next command", async () => {
    await run("true");
    // Let the next command's socket finish opening.
    await new Promise((resolve) => setTimeout(resolve, 200));
    const waiting = liveSockets();
    // Taking it references it (a running command keeps the process alive); the one after is opened unreferenced.
    const taken = await openOutputSocket(() => true);
    expect(liveSockets()).toBe(waiting + 2);
    taken.childEnd.destroy();
    taken.reader.destroy();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(liveSockets()).toBe(waiting);
  });
});
