import { randomBytes } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync } from "node:fs";
import { connect, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runProcess } from "../../../../src/main/run-command/process/process-runner";
import { bash, TEST_ENV, waitFor } from "./process-probe";

// Off Linux the listener's folder goes under the temp folder of the moment: a private one here, so the
// test finds this process's listener and no other's (os.tmpdir() reads TMPDIR at every call).
const ownTemp = mkdtempSync(join(tmpdir(), "listener-test-"));
const savedTemp = process.env.TMPDIR;
process.env.TMPDIR = ownTemp;
afterAll(() => {
  process.env.TMPDIR = savedTemp;
  rmSync(ownTemp, { recursive: true, force: true });
});

const run = (command: string) =>
  runProcess({ argv: bash(command), cwd: ownTemp, env: TEST_ENV, timeoutMs: 60_000 });

/** The listener's folders in the private temp folder (not on Linux). */
const listenerDirs = () => readdirSync(ownTemp).filter((name) => name.startsWith("pi-desk-out-"));

/**
 * The names this process listens on in Linux's abstract namespace: the entries of /proc/net/unix whose
 * socket is one of this process's descriptors, named "@pi-desk-out-…" (listening: flag 00010000).
 */
function abstractListeners(): string[] {
  const ours = new Set<string>();
  for (const fd of readdirSync("/proc/self/fd")) {
    try {
      const target = readlinkSync(`/proc/self/fd/${fd}`);
      const inode = /^socket:\[(\d+)\]$/.exec(target)?.[1];
      if (inode) ours.add(inode);
    } catch {
      // closed meanwhile
    }
  }
  return readFileSync("/proc/net/unix", "latin1")
    .split("\n")
    .map((line) => line.trim().split(/\s+/))
    .filter((f) => f[3] === "00010000" && ours.has(f[6] ?? "") && f[7]?.startsWith("@pi-desk-out-"))
    .map((f) => `\0${(f[7] as string).slice(1)}`);
}

/** Where this process's output-socket listener is, if it listens. */
function listenerPath(): string | undefined {
  if (process.platform === "linux") return abstractListeners()[0];
  const [dir] = listenerDirs();
  return dir ? join(ownTemp, dir, "s") : undefined;
}

describe.runIf(process.platform !== "win32")("the output sockets' listener", () => {
  it("gives a stranger's connections nothing of any command's output", async () => {
    await run("true");
    const path = listenerPath();
    expect(path).toBeDefined();
    // A process connecting over and over while commands run, each time with what it would have to
    // guess (a token of the right length), a longer message, or nothing at all.
    let received = 0;
    let connections = 0;
    let stop = false;
    const strangers: Socket[] = [];
    const stranger = async () => {
      for (let i = 0; !stop; i++) {
        const socket = connect(path as string);
        strangers.push(socket);
        connections++;
        socket.on("error", () => {});
        socket.on("data", (chunk: Buffer) => {
          received += chunk.length;
        });
        if (i % 3 === 0) socket.write(randomBytes(16));
        if (i % 3 === 1) socket.write(randomBytes(40));
        await new Promise((resolve) => setTimeout(resolve, 1));
      }
    };
    const spamming = stranger();
    for (let i = 0; i < 40; i++) {
      const outcome = await run(`echo out-${i}; seq 1 20`);
      expect(outcome.output.text).toBe(
        [`out-${i}`, ...Array.from({ length: 20 }, (_, n) => n + 1)].join("\n"),
      );
    }
    stop = true;
    await spamming;
    expect(connections).toBeGreaterThan(40);
    expect(received).toBe(0);
    // The ones that sent something are closed by the host at once (the silent ones after a timeout).
    const spoke = strangers.filter((_, i) => i % 3 !== 2);
    expect(await waitFor(() => spoke.every((socket) => socket.destroyed || socket.readableEnded))).toBe(true);
    for (const socket of strangers) socket.destroy();
  });

  it("stops listening once commands stop coming, and leaves no file behind", async () => {
    await run("true");
    expect(listenerPath()).toBeDefined();
    expect(await waitFor(() => listenerPath() === undefined, 6_000)).toBe(true);
    expect(listenerDirs()).toEqual([]);
    // The next command opens a new one, and its output is whole.
    const outcome = await run("echo again");
    expect(outcome.output.text).toBe("again");
    // On Linux it never made a file at all.
    if (process.platform === "linux") expect(listenerDirs()).toEqual([]);
  });
});
