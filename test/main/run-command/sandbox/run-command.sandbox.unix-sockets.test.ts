import { type ChildProcess, spawn } from "node:child_process";
import { accessSync, constants, existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { findBubblewrap } from "../../../../src/main/run-command/sandbox/bubblewrap";
import { createSandbox } from "../../../../src/main/run-command/sandbox/sandbox";
import { makeWorkspace, runTool } from "../run-command-harness";
import { makeOutsideDir, onLinux } from "./sandbox-harness";
import { connectLine, listenUnix, NODE, NODE_DIR, serveLine, settle } from "./unix-socket-harness";

// The node running the tests is the client inside the sandbox: shown read-only in case it sits in the home.
const SANDBOX = { enabled: true, readOnlyPaths: [NODE_DIR] } as const;
const FULL_NETWORK = { ...SANDBOX, network: true } as const;

/** A folder where daemons keep their sockets (/run), where this user may write; /var/tmp otherwise. */
function daemonPlace(): string {
  try {
    accessSync("/run", constants.W_OK);
  } catch {
    return makeOutsideDir("run");
  }
  const dir = mkdtempSync("/run/pi-desk-daemon-");
  made.push(dir);
  return dir;
}
const made: string[] = [];
const children: ChildProcess[] = [];
afterAll(() => {
  for (const child of children) child.kill("SIGKILL");
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

describe.runIf(onLinux)("run_command in the sandbox: Unix sockets", () => {
  it("cannot reach a server listening at a socket under /var/tmp: the server receives nothing", async () => {
    const dir = makeOutsideDir("sockets");
    const server = await listenUnix(join(dir, "daemon.sock"));
    const { text } = await runTool(
      { workspaceRoot: makeWorkspace(), sandbox: SANDBOX },
      // The folder stays visible (the socket file is listed): it is the socket that is covered, not a folder rule.
      { command: `ls ${dir}; ${connectLine(server.name)}` },
    );
    await settle();
    expect(text).toContain("daemon.sock");
    expect(text).toMatch(/no-connection (ECONNREFUSED|ENOENT)/);
    expect(text).not.toContain("connected\n");
    expect(server.connections()).toBe(0);
    expect(server.received()).toBe("");
  });

  it("cannot reach a socket at a daemon's place that no list names (a stand-in for snapd's, a database's)", async () => {
    const server = await listenUnix(join(daemonPlace(), ".s.PGSQL.5432"));
    const { text } = await runTool(
      { workspaceRoot: makeWorkspace(), sandbox: SANDBOX },
      { command: connectLine(server.name) },
    );
    await settle();
    expect(text).toMatch(/no-connection/);
    expect(server.received()).toBe("");
  });

  it("cannot reach a server in the abstract namespace without the network; with the full network it can", async () => {
    const server = await listenUnix(`@pi-desk-test-${process.pid}-${Date.now()}`);
    const off = await runTool(
      { workspaceRoot: makeWorkspace(), sandbox: SANDBOX },
      { command: connectLine(server.name) },
    );
    await settle();
    expect(off.text).toMatch(/no-connection ECONNREFUSED/);
    expect(server.connections()).toBe(0);

    // Abstract names belong to the network namespace: the full network shares the host's, and the card says
    // that this machine's services are reachable then.
    const full = await runTool(
      { workspaceRoot: makeWorkspace(), sandbox: FULL_NETWORK },
      { command: connectLine(server.name) },
    );
    await settle();
    expect(full.text).toContain("connected");
    expect(server.received()).toBe("hello-from-sandbox");
  });

  it("cannot reach a path socket even with the full network", async () => {
    const server = await listenUnix(join(makeOutsideDir("sockets"), "daemon.sock"));
    const { text } = await runTool(
      { workspaceRoot: makeWorkspace(), sandbox: FULL_NETWORK },
      { command: connectLine(server.name) },
    );
    await settle();
    expect(text).toMatch(/no-connection/);
    expect(server.received()).toBe("");
  });

  it("cannot reach a socket bound in another network namespace (a container's, another sandbox's)", async () => {
    const bwrap = findBubblewrap(process.env.PATH ?? "") as string;
    const dir = makeOutsideDir("netns");
    const path = join(dir, "other.sock");
    const server = spawn(
      bwrap,
      ["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--bind", dir, dir, "--unshare-net"].concat(
        ["--die-with-parent", "--", NODE, "-e", SERVER_PRINTING, path],
      ),
      { stdio: ["ignore", "pipe", "inherit"] },
    );
    children.push(server);
    let printed = "";
    server.stdout?.on("data", (chunk) => {
      printed += chunk;
    });
    for (let i = 0; i < 100 && !printed.includes("listening"); i++)
      await new Promise((r) => setTimeout(r, 50));
    expect(printed).toContain("listening");
    // The host's own table does not list it: only the look into the other namespace finds it.
    expect(readFileSync("/proc/net/unix", "utf8")).not.toContain(path);

    const { text } = await runTool(
      { workspaceRoot: makeWorkspace(), sandbox: SANDBOX },
      { command: connectLine(path) },
    );
    await settle();
    expect(text).toMatch(/no-connection/);
    expect(printed).not.toContain("got");
  });

  it("reaches a server listening inside the workspace, the host's or one the command starts", async () => {
    const workspace = makeWorkspace();
    const server = await listenUnix(join(workspace, "dev.sock"));
    const { text } = await runTool(
      { workspaceRoot: workspace, sandbox: SANDBOX },
      { command: `${connectLine("dev.sock")}; ${serveLine("own.sock")}; ${connectLine("own.sock")}; wait` },
    );
    await settle();
    expect(server.received()).toBe("hello-from-sandbox");
    expect(text).toContain("server got hello-from-sandbox");
    expect(text).not.toContain("no-connection");
  });

  it("reaches a socket outside the workspace it is given (the network proxy's way in)", async () => {
    const server = await listenUnix(join(makeOutsideDir("proxy"), "proxy.sock"));
    const workspace = makeWorkspace();
    const sandbox = createSandbox({ readOnlyPaths: [NODE_DIR], reachableSockets: [server.name] });
    const ran = await sandbox.run(
      {
        argv: ["/bin/sh", "-c", connectLine(server.name)],
        cwd: workspace,
        env: { PATH: "/usr/bin:/bin", HOME: join(workspace, ".home"), LANG: "C.UTF-8" },
        timeoutMs: 20_000,
      },
      false,
    );
    await settle();
    expect("outcome" in ran && ran.outcome.output.text).toContain("connected");
    expect(server.received()).toBe("hello-from-sandbox");
    expect(existsSync(server.name)).toBe(true);
  });
  it("looks again when a socket it was to cover went away before bubblewrap started", async () => {
    const workspace = makeWorkspace();
    const gone = join(makeOutsideDir("gone"), "restarted.sock");
    let looks = 0;
    const sandbox = createSandbox({ hostSockets: () => (looks++ === 0 ? [gone] : []) });
    const ran = await sandbox.run(plainRun(workspace, "echo ran"), false);
    expect("outcome" in ran && ran.outcome.output.text).toBe("ran");
    expect(looks).toBe(2);
  });

  it("gives up after three looks, having run nothing, and says to run it again", async () => {
    const workspace = makeWorkspace();
    const gone = join(makeOutsideDir("gone"), "flapping.sock");
    let looks = 0;
    const sandbox = createSandbox({
      hostSockets: () => {
        looks++;
        return [gone];
      },
    });
    const ran = await sandbox.run(plainRun(workspace, "touch ran"), false);
    expect(looks).toBe(3);
    expect("failure" in ran && ran.failure).toMatch(/went away while it was set up.*run the command again/);
    expect(existsSync(join(workspace, "ran"))).toBe(false);
  });
});

const SERVER_PRINTING =
  'const [p]=process.argv.slice(1);require("net").createServer((c)=>c.on("data",(d)=>console.log("got "+d))).listen(p,()=>console.log("listening"))';

/** A run of `script` in /bin/sh, as run_command would give it to the sandbox. */
function plainRun(workspace: string, script: string) {
  return {
    argv: ["/bin/sh", "-c", script],
    cwd: workspace,
    env: { PATH: "/usr/bin:/bin", HOME: join(workspace, ".home"), LANG: "C.UTF-8" },
    timeoutMs: 20_000,
  };
}
