import { linkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { checkAllowedHosts } from "../../../../src/main/run-command/sandbox/network/host-pattern";
import { createSandbox } from "../../../../src/main/run-command/sandbox/sandbox";
import { makeWorkspace } from "../run-command-harness";
import { hostsOnly, registry, resolveHost, run, serveUpstreams } from "./hosts-harness";
import { makeOutsideDir, onLinux } from "./sandbox-harness";

serveUpstreams();

describe.runIf(onLinux)("the sandbox's network forwarder", () => {
  it("runs with a Node that lives in the person's hidden home (a checkout there), which stays hidden", async () => {
    const home = makeOutsideDir("home");
    writeFileSync(join(home, "secret"), "hidden");
    const node = join(home, "node");
    linkSync(process.execPath, node); // a hard link: the same binary, at a path inside the hidden home
    const workspace = makeWorkspace();
    const sandbox = createSandbox({ homeDir: home, forwarderNode: node });
    const ran = await sandbox.run(
      {
        argv: [
          "/bin/sh",
          "-c",
          `curl -fsS http://registry.test:${registry.port}/from-home; cat ${home}/secret`,
        ],
        cwd: workspace,
        env: { PATH: "/usr/bin:/bin", HOME: workspace },
        timeoutMs: 15_000,
        outputDir: join(workspace, "..", "out"),
      },
      {
        kind: "hosts",
        hosts: checkAllowedHosts(["registry.test"]).patterns,
        resolveHost,
        allowLoopbackTargets: true,
      },
    );
    expect("outcome" in ran && ran.outcome.output.text).toContain("/from-home");
    expect("outcome" in ran && ran.outcome.output.text).not.toContain("hidden\n");
    expect("outcome" in ran && ran.outcome.output.text).toMatch(/secret: No such file|Permission denied/);
  });

  it("leaves the command no hold on the channel its listeners came over: nothing inside can write to it", async () => {
    const { text, details } = await run(
      hostsOnly(["registry.test"]),
      [
        `curl -fsS http://registry.test:${registry.port}/channel-test`,
        // The channel is fd 4 and NODE_CHANNEL_FD says so: neither reaches the command.
        `env | grep -c '^NODE_CHANNEL' || true`,
        `{ echo '{"type":"pi-desk-listener","kind":"http"}' >&4; } 2>&1 || echo "fd 4: cannot write"`,
        // Nor does any process of the sandbox (bwrap's own init included) still hold it to be taken from.
        `for p in /proc/[0-9]*; do [ -e "$p/fd/4" ] && echo "fd 4 held by $(cat $p/comm)"; done; true`,
      ].join("\n"),
    );
    expect(details.status).toBe("succeeded");
    expect(text).toContain("/channel-test");
    const lines = text.trim().split("\n");
    expect(lines).toContain("0");
    expect(text).toMatch(/4: Bad file descriptor[\s\S]*fd 4: cannot write/);
    expect(text).not.toContain("fd 4 held by");
  });

  it("refuses the command, with the reason, when the forwarder cannot start", async () => {
    const workspace = makeWorkspace();
    const sandbox = createSandbox({ forwarderNode: "/nonexistent/node" });
    const ran = await sandbox.run(
      {
        argv: ["/bin/sh", "-c", "touch ran"],
        cwd: workspace,
        env: { PATH: "/usr/bin:/bin", HOME: workspace },
        timeoutMs: 15_000,
        outputDir: join(workspace, "..", "out"),
      },
      { kind: "hosts", hosts: [], resolveHost },
    );
    expect("failure" in ran && ran.failure).toMatch(
      /^The sandbox's network forwarder could not start, so the command did not run: .*\/nonexistent\/node/,
    );
  });
});
