import { once } from "node:events";
import { chmodSync, readFileSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { connect } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkAllowedHosts } from "../../../../src/main/run-command/sandbox/network/host-pattern";
import { createSandbox } from "../../../../src/main/run-command/sandbox/sandbox";
import { makeWorkspace } from "../run-command-harness";
import { makeOutsideDir } from "./sandbox-harness";

/**
 * Allowed hosts under Seatbelt (macOS), as far as Linux can take it: the proxy on the host's loopback, the
 * profile that lets the command reach only its ports, the proxy variables pointing there, the proxy gone
 * with the command. sandbox-exec itself is a stand-in that records the profile and runs the command
 * unsandboxed, so what the profile enforces is checked as text (seatbelt.test.ts), not run: the macOS path
 * is untested on a Mac.
 */

let upstream: Server;
let port: number;
beforeAll(async () => {
  upstream = createServer((request, response) => response.end(`upstream got ${request.url}\n`));
  upstream.listen(0, "127.0.0.2");
  await once(upstream, "listening");
  port = (upstream.address() as { port: number }).port;
});
afterAll(() => {
  upstream.closeAllConnections();
  upstream.close();
});

/** A stand-in for /usr/bin/sandbox-exec: writes the profile it was given (`-p profile`) to a file, runs the rest. */
function standIn(): { path: string; profile: () => string } {
  const dir = makeOutsideDir("sandbox-exec");
  const out = join(dir, "profile.sb");
  const path = join(dir, "sandbox-exec");
  writeFileSync(
    path,
    `#!/bin/sh\n[ "$1" = "-p" ] || exit 64\nprintf '%s' "$2" > '${out}'\nshift 2\nexec "$@"\n`,
  );
  chmodSync(path, 0o755);
  return { path, profile: () => readFileSync(out, "utf8") };
}

const hosts = {
  kind: "hosts" as const,
  hosts: checkAllowedHosts(["registry.test"]).patterns,
  resolveHost: async () => ["127.0.0.2"],
  allowLoopbackTargets: true,
};

describe.runIf(process.platform !== "win32")("allowed hosts under Seatbelt (a stand-in sandbox-exec)", () => {
  it("runs the proxy on the host's loopback, lets the profile reach only its two ports, and ends it with the command", async () => {
    const exec = standIn();
    const workspace = makeWorkspace();
    const sandbox = createSandbox({ platform: "darwin", sandboxExec: exec.path });
    const ran = await sandbox.run(
      {
        argv: [
          "/bin/sh",
          "-c",
          `echo "proxy $http_proxy $ALL_PROXY"; curl -fsS http://registry.test:${port}/by-name; ` +
            `curl -sS http://other.test:${port}/unlisted`,
        ],
        cwd: workspace,
        env: { PATH: "/usr/bin:/bin", HOME: workspace },
        timeoutMs: 15_000,
        outputDir: `${workspace}-output`,
      },
      hosts,
    );
    expect("outcome" in ran).toBe(true);
    const text = "outcome" in ran ? ran.outcome.output.text : "";
    expect(text).toContain("upstream got /by-name");
    expect(text).toContain("Pi Desk refused it: other.test:");
    expect(text).not.toContain("upstream got /unlisted");
    const [, http, socks] =
      /proxy http:\/\/127\.0\.0\.1:(\d+) socks5h:\/\/127\.0\.0\.1:(\d+)/.exec(text) ?? [];
    expect(http).toBeDefined();
    const profile = exec.profile();
    const outbound = profile.split("\n").filter((line) => line.includes("network"));
    expect(outbound).toEqual([
      `(allow network-outbound (remote ip "localhost:${http}"))`,
      `(allow network-outbound (remote ip "localhost:${socks}"))`,
    ]);
    // The proxy ended with the command: nothing listens on its ports any more.
    for (const p of [Number(http), Number(socks)]) {
      const socket = connect(p, "127.0.0.1");
      const outcome = await new Promise((resolve) => {
        socket.once("connect", () => resolve("connected"));
        socket.once("error", () => resolve("refused"));
      });
      socket.destroy();
      expect(outcome).toBe("refused");
    }
  });

  it("keeps the full network's rules and no proxy when the network is fully on", async () => {
    const exec = standIn();
    const workspace = makeWorkspace();
    const ran = await createSandbox({ platform: "darwin", sandboxExec: exec.path }).run(
      {
        argv: ["/bin/sh", "-c", "env | grep -ci proxy || true"],
        cwd: workspace,
        env: { PATH: "/usr/bin:/bin", HOME: workspace },
        timeoutMs: 15_000,
        outputDir: `${workspace}-output`,
      },
      true,
    );
    expect("outcome" in ran && ran.outcome.output.text.trim()).toBe("0");
    expect(exec.profile()).toContain("(allow network* system-socket)");
    expect(exec.profile()).not.toContain("network-outbound");
  });

  it("is refused, with the reason, where Seatbelt is not present", async () => {
    const workspace = makeWorkspace();
    const missing = join(makeOutsideDir("no-sandbox-exec"), "sandbox-exec");
    const ran = await createSandbox({ platform: "darwin", sandboxExec: missing }).run(
      {
        argv: ["/bin/sh", "-c", "touch ran"],
        cwd: workspace,
        env: { PATH: "/usr/bin:/bin", HOME: workspace },
        timeoutMs: 15_000,
      },
      hosts,
    );
    expect("failure" in ran && ran.failure).toMatch(/sandbox-exec is missing, so the command did not run/);
  });
});
