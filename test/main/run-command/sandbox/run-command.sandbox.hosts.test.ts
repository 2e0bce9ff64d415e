import { execFileSync } from "node:child_process";
import { existsSync, realpathSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { files, hostsOnly, local, registry, run, serveUpstreams } from "./hosts-harness";
import { onLinux } from "./sandbox-harness";

serveUpstreams();

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
