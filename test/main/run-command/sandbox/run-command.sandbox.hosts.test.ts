import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { once } from "node:events";
import { existsSync, linkSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { Socket } from "node:net";
import { dirname, join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BackgroundCommands } from "../../../../src/main/run-command/background/background-commands";
import type { CommandRequest } from "../../../../src/main/run-command/run-command";
import type { HostDecisionEvent } from "../../../../src/main/run-command/sandbox/network/host-gate";
import { checkAllowedHosts } from "../../../../src/main/run-command/sandbox/network/host-pattern";
import { createSandbox, type SandboxSettings } from "../../../../src/main/run-command/sandbox/sandbox";
import type { ApprovalDecision } from "../../../../src/shared/commands";
import { makeWorkspace, runTool } from "../run-command-harness";
import { makeOutsideDir, onLinux } from "./sandbox-harness";

/** Fake upstreams on loopback, reached only by name through `resolveHost`. */
const NAMES: Record<string, string> = {
  "registry.test": "127.0.0.2",
  "files.test": "127.0.0.3",
  "other.test": "127.0.0.3",
  "loopback.test": "127.0.0.1",
};
const resolveHost = async (name: string) => (NAMES[name] ? [NAMES[name] as string] : []);

interface Upstream {
  port: number;
  /** Every request it served: `host path`. */
  seen: string[];
  connections: Socket[];
  server: Server;
}

async function upstream(address: string, tarball?: { path: string; bytes: Buffer }): Promise<Upstream> {
  const seen: string[] = [];
  const connections: Socket[] = [];
  let port = 0;
  const server = createServer((request, response) => {
    seen.push(`${request.headers.host} ${request.url}`);
    if (request.url === "/tiny-pkg" && tarball) {
      response.setHeader("content-type", "application/json");
      response.end(JSON.stringify(packument(port, tarball.bytes)));
    } else if (tarball && request.url === tarball.path) {
      response.setHeader("content-type", "application/octet-stream");
      response.end(tarball.bytes);
    } else if (request.url === "/slow") {
      response.write("first part\n"); // and never the rest: the tunnel stays open
    } else {
      response.end(`hello from ${address} for ${request.headers.host}${request.url}\n`);
    }
  });
  server.on("connection", (socket) => connections.push(socket));
  server.listen(0, address);
  await once(server, "listening");
  port = (server.address() as { port: number }).port;
  return { port, seen, connections, server };
}

/** A one-file npm package as a .tgz, made with tar. */
function tinyPackage(): Buffer {
  const dir = makeOutsideDir("tiny-pkg");
  mkdirSync(join(dir, "package"));
  writeFileSync(join(dir, "package", "package.json"), JSON.stringify({ name: "tiny-pkg", version: "1.0.0" }));
  writeFileSync(join(dir, "package", "index.js"), "module.exports = 'tiny-pkg works';\n");
  execFileSync("tar", ["czf", join(dir, "tiny.tgz"), "-C", dir, "package"]);
  return readFileSync(join(dir, "tiny.tgz"));
}

function packument(port: number, bytes: Buffer) {
  return {
    name: "tiny-pkg",
    "dist-tags": { latest: "1.0.0" },
    versions: {
      "1.0.0": {
        name: "tiny-pkg",
        version: "1.0.0",
        dist: {
          tarball: `http://registry.test:${port}/tiny-pkg/-/tiny-pkg-1.0.0.tgz`,
          integrity: `sha512-${createHash("sha512").update(bytes).digest("base64")}`,
          shasum: createHash("sha1").update(bytes).digest("hex"),
        },
      },
    },
  };
}

let registry: Upstream;
let files: Upstream;
let local: Upstream;
beforeAll(async () => {
  registry = await upstream("127.0.0.2", { path: "/tiny-pkg/-/tiny-pkg-1.0.0.tgz", bytes: tinyPackage() });
  files = await upstream("127.0.0.3");
  local = await upstream("127.0.0.1");
});
afterAll(async () => {
  for (const { server } of [registry, files, local]) {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});

/** A sandbox that allows `hosts`, with the fake names resolving to loopback. */
const hostsOnly = (allowedHosts: string[], more: Partial<SandboxSettings> = {}): SandboxSettings => ({
  enabled: true,
  allowedHosts,
  resolveHost,
  allowLoopbackTargets: true,
  ...more,
});

/** Runs one command with the decisions recorded. */
async function run(
  sandbox: SandboxSettings,
  command: string,
  extra: { decision?: ApprovalDecision; network?: string[]; timeout?: number } = {},
) {
  const events: HostDecisionEvent[] = [];
  const requests: CommandRequest[] = [];
  const result = await runTool(
    {
      workspaceRoot: makeWorkspace(),
      sandbox,
      onHostDecision: (_id, event) => events.push(event),
      ...(extra.decision
        ? {
            approve: async (request: CommandRequest) => {
              requests.push(request);
              return extra.decision as ApprovalDecision;
            },
          }
        : {}),
    },
    { command, ...(extra.network ? { network: extra.network } : {}), timeout: extra.timeout ?? 60 } as {
      command: string;
    },
  );
  return { ...result, events, requests };
}

describe.runIf(onLinux)("run_command in the sandbox: allowed hosts", () => {
  it("curl reaches an allowed name by plain HTTP and through CONNECT, and the card lists it with its bytes", async () => {
    const { text, details, events } = await run(
      hostsOnly(["registry.test"]),
      `curl -sS http://registry.test:${registry.port}/plain && curl -sS --proxytunnel http://registry.test:${registry.port}/tunnel`,
    );
    expect(details.status).toBe("succeeded");
    expect(text).toContain(`hello from 127.0.0.2 for registry.test:${registry.port}/plain`);
    expect(text).toContain(`hello from 127.0.0.2 for registry.test:${registry.port}/tunnel`);
    expect(events.filter((e) => e.phase === "opened").map((e) => e.protocol)).toEqual(["http", "connect"]);
    expect(details.hosts).toEqual([
      expect.objectContaining({ host: "registry.test", port: registry.port, allowed: true, count: 2 }),
    ]);
    expect(details.hosts?.[0]?.bytesDown).toBeGreaterThan(200);
    expect(text).not.toContain("Network: the sandbox refused");
  });

  it("refuses a name not on the list, lists it as refused, and tells the model in one line", async () => {
    const { text, details } = await run(
      hostsOnly(["registry.test"]),
      `curl -fsS http://files.test:${files.port}/x`,
    );
    expect(details.status).toBe("failed");
    expect(files.seen).not.toContain(`files.test:${files.port} /x`);
    expect(details.hosts).toEqual([
      expect.objectContaining({ host: "files.test", port: files.port, allowed: false, count: 1 }),
    ]);
    expect(text.trim().split("\n").at(-1)).toMatch(
      new RegExp(
        `^Network: the sandbox refused connections to files\\.test:${files.port} \\(not allowed\\)\\. .*ask the`,
      ),
    );
  });

  it("a tool that skips the proxy or connects by IP gets nowhere", async () => {
    const before = registry.connections.length;
    const { text } = await run(
      hostsOnly(["registry.test"]),
      [
        `curl -sS --max-time 5 --noproxy '*' http://registry.test:${registry.port}/direct; echo "noproxy=$?"`,
        `curl -sS --max-time 5 --noproxy '*' http://127.0.0.2:${registry.port}/ip; echo "ip=$?"`,
        `(exec 3<>/dev/tcp/127.0.0.2/${registry.port}) 2>/dev/null; echo "tcp=$?"`,
        `getent hosts registry.test; echo "dns=$?"`,
      ].join("\n"),
    );
    expect(text).toMatch(/Could not resolve host: registry\.test/);
    expect(text).toMatch(/noproxy=[1-9]/);
    expect(text).toMatch(/ip=[1-9]/);
    expect(text).toMatch(/tcp=[1-9]/);
    expect(text).toMatch(/dns=[1-9]/);
    expect(registry.connections.length).toBe(before);
  });

  it("a request by IP through the proxy is refused too", async () => {
    const { text, details } = await run(
      hostsOnly(["registry.test"]),
      `curl -sS http://127.0.0.2:${registry.port}/via-proxy; curl -sS -x socks5h://$(echo $ALL_PROXY | cut -d/ -f3) http://127.0.0.2:${registry.port}/socks`,
    );
    expect(registry.seen.some((line) => line.includes("via-proxy") || line.includes("/socks"))).toBe(false);
    expect(details.hosts?.every((entry) => !entry.allowed)).toBe(true);
    expect(text).toContain(
      `Network: the sandbox refused connections to 127.0.0.2:${registry.port} (an IP address; only names are allowed)`,
    );
  });

  it("curl through SOCKS5 with remote names (ALL_PROXY) reaches an allowed name", async () => {
    const { text, details } = await run(
      hostsOnly(["registry.test"]),
      `curl -sS -x "$ALL_PROXY" http://registry.test:${registry.port}/socks-ok`,
    );
    expect(details.status).toBe("succeeded");
    expect(text).toContain("/socks-ok");
    expect(details.hosts?.[0]).toMatchObject({ host: "registry.test", allowed: true });
  });

  // The system's Python: one under the home (pyenv's shims) is hidden in the sandbox.
  it.runIf(existsSync("/usr/bin/python3"))(
    "Python's urllib reaches an allowed name through the proxy variables",
    async () => {
      const script = `import urllib.request; print(urllib.request.urlopen('http://files.test:${files.port}/py').read().decode())`;
      const { text, details } = await run(hostsOnly(["files.test"]), `/usr/bin/python3 -c "${script}"`);
      expect(details.status).toBe("succeeded");
      expect(text).toContain(`hello from 127.0.0.3 for files.test:${files.port}/py`);
    },
  );

  it("Node's fetch (the app's own Node) goes through the proxy, and Node's proxy warning stays out of the output", async () => {
    const node = realpathSync(process.execPath);
    const script =
      `fetch('http://registry.test:${registry.port}/node-fetch').then((r) => r.text()).then(console.log);` +
      "process.emitWarning('a warning of the command');";
    const { text, details } = await run(
      hostsOnly(["registry.test"], { readOnlyPaths: [dirname(node)] }),
      `${node} -e "${script}"`,
    );
    expect(details.status).toBe("succeeded");
    expect(text).toContain(`hello from 127.0.0.2 for registry.test:${registry.port}/node-fetch`);
    expect(details.hosts?.[0]).toMatchObject({ host: "registry.test", allowed: true });
    // Only that one warning is silenced: the command's own still show.
    expect(text).not.toMatch(/UNDICI-EHPA|EnvHttpProxyAgent/);
    expect(text).toContain("Warning: a warning of the command");
  });

  it("npm install works against a registry reached by name", async () => {
    // npm and node shown read-only wherever they are installed (under a hidden home with nvm, say).
    const npmRoot = resolve(
      realpathSync(execFileSync("sh", ["-c", "command -v npm"]).toString().trim()),
      "..",
      "..",
    );
    const nodeDir = dirname(realpathSync(execFileSync("sh", ["-c", "command -v node"]).toString().trim()));
    const { text, details } = await run(
      hostsOnly([`registry.test:${registry.port}`], { readOnlyPaths: [npmRoot, nodeDir] }),
      `npm install tiny-pkg --registry=http://registry.test:${registry.port}/ --no-audit --no-fund --no-update-notifier ` +
        `--cache "$TMPDIR/npm-cache" && node -e "console.log(require('tiny-pkg'))"`,
      { timeout: 90 },
    );
    expect(text).toContain("tiny-pkg works");
    expect(details.status).toBe("succeeded");
    expect(registry.seen).toContain(`registry.test:${registry.port} /tiny-pkg/-/tiny-pkg-1.0.0.tgz`);
  }, 120_000);

  it("refuses an allowed name that resolves to 127.0.0.1 while loopback targets are off", async () => {
    const before = local.connections.length;
    const { text, details } = await run(
      hostsOnly(["loopback.test"], { allowLoopbackTargets: false }),
      `curl -fsS http://loopback.test:${local.port}/rebind`,
    );
    expect(details.status).toBe("failed");
    expect(local.connections.length).toBe(before);
    expect(details.hosts?.[0]).toMatchObject({ host: "loopback.test", allowed: false });
    expect(details.hosts?.[0]?.reason).toMatch(/resolves to 127\.0\.0\.1/);
    expect(text).toContain(`loopback.test:${local.port} (resolves to a loopback or private address)`);
  });

  it("closes a tunnel still open when the command ends", async () => {
    const before = registry.connections.length;
    const { details } = await run(
      hostsOnly(["registry.test"]),
      `(curl -sS -N --proxytunnel http://registry.test:${registry.port}/slow > /dev/null &); sleep 1; echo done`,
    );
    expect(details.status).toBe("succeeded");
    const tunnel = registry.connections[before];
    expect(tunnel).toBeDefined();
    const deadline = Date.now() + 2000;
    while (!tunnel?.destroyed && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(tunnel?.destroyed).toBe(true);
  });
});

describe.runIf(onLinux)("run_command in the sandbox: allowed hosts for a background command", () => {
  it("keeps its proxy for its whole life, and ends it, tunnels and all, when it stops", async () => {
    const commands = new BackgroundCommands({ onState: () => {}, onOutput: () => {}, onEnd: () => {} });
    const events: HostDecisionEvent[] = [];
    const before = registry.connections.length;
    try {
      const { details } = await runTool(
        {
          workspaceRoot: makeWorkspace(),
          sandbox: hostsOnly(["registry.test"]),
          onHostDecision: (_id, event) => events.push(event),
          background: { commands, readinessMs: 10_000 },
        },
        {
          command:
            `echo started; curl -sS -N --proxytunnel http://registry.test:${registry.port}/slow > /dev/null & ` +
            `while true; do curl -fsS http://registry.test:${registry.port}/bg > /dev/null; sleep 0.2; done`,
          background: true,
        } as never,
      );
      expect(details.status).toBe("background");
      // Still reaching the host after run_command returned.
      const returnedAt = events.length;
      const deadline = Date.now() + 5000;
      while (events.length < returnedAt + 4 && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 50));
      expect(events.length).toBeGreaterThanOrEqual(returnedAt + 4);
      const slow = registry.connections.slice(before).find((socket) => !socket.destroyed);
      expect(slow).toBeDefined();
      await commands.stop("call-1", "person");
      const closedBy = Date.now() + 2000;
      while (!slow?.destroyed && Date.now() < closedBy) await new Promise((r) => setTimeout(r, 20));
      expect(slow?.destroyed).toBe(true);
      const atStop = events.length;
      await new Promise((r) => setTimeout(r, 500));
      expect(events.length).toBe(atStop);
    } finally {
      await commands.stopAll("quit");
    }
  });
});

describe.runIf(onLinux)("run_command in the sandbox: the person's network choice", () => {
  it("offers allowed hosts by default when the workspace lists some, else off; the agent's asks are shown", async () => {
    const listed = await run(hostsOnly(["registry.test"]), "true", {
      decision: { kind: "approve" },
      network: ["files.test"],
    });
    expect(listed.requests[0]?.network).toEqual({
      mode: "hosts",
      allowedHosts: ["registry.test"],
      askedHosts: ["files.test"],
      hostRules: true,
    });
    expect(listed.requests[0]?.sandbox).toEqual({ enabled: true, network: false });
    const empty = await run(hostsOnly([]), "true", { decision: { kind: "approve" } });
    expect(empty.requests[0]?.network.mode).toBe("off");
  });

  it("the agent's asked hosts are not reachable unless the person grants them", async () => {
    const command = `curl -fsS http://files.test:${files.port}/asked`;
    const asked = await run(hostsOnly(["registry.test"]), command, {
      decision: { kind: "approve" },
      network: ["files.test"],
    });
    expect(asked.details.status).toBe("failed");
    expect(asked.details.hosts?.[0]).toMatchObject({ host: "files.test", allowed: false });

    const granted = await run(hostsOnly(["registry.test"]), command, {
      decision: { kind: "approve", network: { mode: "hosts", grantedHosts: ["files.test"] } },
      network: ["files.test"],
    });
    expect(granted.details.status).toBe("succeeded");
    expect(granted.text).toContain("/asked");
  });

  it("the person can turn the network off for one command, or give it all of it", async () => {
    const command = `curl -fsS --max-time 5 http://registry.test:${registry.port}/choice`;
    const off = await run(hostsOnly(["registry.test"]), command, {
      decision: { kind: "approve", network: { mode: "off" } },
    });
    expect(off.details.status).toBe("failed");
    expect(off.events).toEqual([]);
    expect(off.text).not.toContain("/choice");
    // Full network: no proxy variables, the host's own loopback (where the fake upstream is) is reachable.
    const full = await run(
      hostsOnly(["registry.test"]),
      `curl -sS http://127.0.0.2:${registry.port}/full; env | grep -ci proxy`,
      {
        decision: { kind: "approve", network: true },
      },
    );
    expect(full.text).toContain("/full");
    expect(full.events).toEqual([]);
  });

  it("refuses, and does not run, an asked host that is not a valid entry", async () => {
    const { details, text } = await run(hostsOnly(["registry.test"]), "touch ran", {
      decision: { kind: "approve" },
      network: ["*"],
    });
    expect(details.status).toBe("refused");
    expect(text).toContain('"*" cannot be an allowed host');
  });
});

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
