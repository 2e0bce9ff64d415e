import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DEFAULT_MAX_LINES } from "@earendil-works/pi-coding-agent";
import { afterAll, describe, expect, it } from "vitest";
import { runProcess } from "../../../../src/main/run-command/process/process-runner";
import { bash, TEST_ENV } from "./process-probe";

const outputDir = mkdtempSync(join(tmpdir(), "process-runner-output-test-"));
afterAll(() => rmSync(outputDir, { recursive: true, force: true }));

/** Whether bubblewrap can mount a tmpfs here (installed, and user namespaces allowed). */
function canMountTmpfs(): boolean {
  if (process.platform !== "linux") return false;
  try {
    execFileSync("bwrap", ["--dev-bind", "/", "/", "--unshare-user", "--tmpfs", tmpdir(), "--", "true"], {
      stdio: "ignore",
    });
    return true;
  } catch {
    return false;
  }
}

const run = (command: string, dir = outputDir) =>
  runProcess({ argv: bash(command), cwd: tmpdir(), env: TEST_ENV, timeoutMs: 60_000, outputDir: dir });

describe.runIf(process.platform !== "win32")("runProcess: output", () => {
  it("keeps the tail of 100,000 lines and saves every line to the full-output file", async () => {
    const outcome = await run("seq 1 100000");
    expect(outcome.exitCode).toBe(0);
    expect(outcome.output).toMatchObject({
      truncated: true,
      totalLines: 100_000,
      outputLines: DEFAULT_MAX_LINES,
    });
    expect(outcome.output.text.endsWith("\n99999\n100000")).toBe(true);
    const full = readFileSync(outcome.output.fullOutputPath as string, "utf8").split("\n");
    expect(full.length).toBe(100_001);
    expect(full[0]).toBe("1");
    expect(full[99_999]).toBe("100000");
    expect(statSync(outcome.output.fullOutputPath as string).mode & 0o777).toBe(0o600);
  });

  it("takes invalid UTF-8 and NUL bytes in stride", async () => {
    const outcome = await run("printf 'ok\\n\\377\\376\\000bin\\342\\202'");
    expect(outcome.exitCode).toBe(0);
    expect(outcome.output.text).toBe("ok\n\uFFFD\uFFFD\0bin\uFFFD");
  });

  it("still returns an outcome when the full output cannot be saved", async () => {
    const notADirectory = join(outputDir, "plain-file");
    writeFileSync(notADirectory, "");
    const outcome = await run("seq 1 5000; echo end", join(notADirectory, "sub"));
    expect(outcome.exitCode).toBe(0);
    expect(outcome.output.truncated).toBe(true);
    expect(outcome.output.fullOutputPath).toBeUndefined();
    expect(outcome.output.fullOutputError).toMatch(/Could not save the full output/);
    expect(outcome.output.text.endsWith("5000\nend")).toBe(true);
  });

  // A real full disk: a 64 KiB tmpfs (bubblewrap mounts it) as the output folder of a host process.
  it.runIf(canMountTmpfs())(
    "still returns the tail when the disk fills while saving, and leaves no part file",
    () => {
      const dir = mkdtempSync(join(tmpdir(), "process-runner-full-disk-"));
      const printed = execFileSync(
        "bwrap",
        [
          ...["--dev-bind", "/", "/", "--unshare-user", "--size", "65536", "--tmpfs", dir, "--"],
          ...[
            process.execPath,
            "node_modules/.bin/jiti",
            "test/main/run-command/process/fixtures/full-disk-run.ts",
          ],
          ...[dir, "seq 1 100000; echo end"],
        ],
        { encoding: "utf8", timeout: 60_000 },
      );
      rmSync(dir, { recursive: true, force: true });
      const outcome = JSON.parse(printed);
      expect(outcome.exitCode).toBe(0);
      expect(outcome.truncated).toBe(true);
      expect(outcome.tail.endsWith("100000\nend")).toBe(true);
      expect(outcome.fullOutputPath).toBeUndefined();
      expect(outcome.fullOutputError).toMatch(/Could not save the full output.*ENOSPC/);
      expect(outcome.left).toEqual([]);
    },
  );

  it("reads through a plain pipe when it cannot make its output socket (no usable temp folder)", async () => {
    const saved = process.env.TMPDIR;
    // os.tmpdir() follows TMPDIR at every call: the socket's private folder cannot be made there.
    process.env.TMPDIR = join(outputDir, "no-such-folder");
    try {
      const outcome = await runProcess({
        argv: bash("seq 1 100000; echo to-stderr >&2"),
        cwd: outputDir,
        env: TEST_ENV,
        timeoutMs: 60_000,
        outputDir,
      });
      expect(outcome.exitCode).toBe(0);
      expect(outcome.output.totalLines).toBe(100_001);
      expect(outcome.output.text.endsWith("100000\nto-stderr")).toBe(true);
      expect(readFileSync(outcome.output.fullOutputPath as string, "utf8").split("\n")[99_999]).toBe(
        "100000",
      );
    } finally {
      process.env.TMPDIR = saved;
      if (saved === undefined) delete process.env.TMPDIR;
    }
  });

  it("keeps the host's memory bounded while a command prints 200 MB", async () => {
    const rssBefore = process.memoryUsage().rss;
    const outcome = await run("head -c 200000000 /dev/zero | tr '\\0' a | fold -w 100");
    const growthMb = (process.memoryUsage().rss - rssBefore) / 1024 / 1024;
    expect(outcome.exitCode).toBe(0);
    // fold ends the last line without a newline: 2,000,000 lines of 100, 1,999,999 newlines.
    expect(outcome.output.totalBytes).toBe(201_999_999);
    expect(outcome.output.totalLines).toBe(2_000_000);
    expect(statSync(outcome.output.fullOutputPath as string).size).toBe(201_999_999);
    rmSync(outcome.output.fullOutputPath as string);
    // A behaviour check, not a benchmark: buffering the output would grow by 200 MB or more.
    expect(growthMb).toBeLessThan(100);
    if (process.env.PI_DESK_REPORT)
      console.log(`200 MB run: RSS growth ${growthMb.toFixed(1)} MB in ${outcome.durationMs} ms`);
  });
});
