import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** A browser host started for a test, as a person starts it: `node out/main/serve.js --workspace <dir>`. */
export interface DeskServer {
  /** The URL it printed, token included. */
  url: string;
  /** The URL without its token. */
  origin: string;
  /** The workspace folder it serves. */
  workspace: string;
}

/** One block of a scripted model turn, as `PI_DESK_SCRIPT` files hold them. */
export type ScriptBlock =
  | { type: "text"; text: string }
  | { type: "thinking"; thinking: string }
  | { type: "toolCall"; name: string; arguments: Record<string, unknown>; id?: string }
  | { type: "error"; message: string }
  | { type: "delay"; ms: number };

/** A script: turns every chat plays, or each chat's turns by the start of its first message. */
export type Script = ScriptBlock[][] | Record<string, ScriptBlock[][]>;

/** How to start a host beyond its workspace. */
export interface DeskServerOptions {
  /** Extra environment for the host process. */
  env?: Record<string, string>;
  /** Extra command line arguments (e.g. `--allow`). */
  args?: string[];
}

/** Starts the built browser host on a free port and waits for the URL it prints. */
export async function startDeskServer(
  workspace: string,
  options: DeskServerOptions = {},
): Promise<{ server: DeskServer; child: ChildProcess }> {
  const child = spawn(
    process.execPath,
    ["out/main/serve.js", "--workspace", workspace, "--port", "0", ...(options.args ?? [])],
    { stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, ...options.env } },
  );
  let output = "";
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`The browser host did not start:\n${output}`)), 20_000);
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const found = /Open (http:\/\/\S+#token=\S+)/.exec(output);
      if (found?.[1]) {
        clearTimeout(timer);
        resolve(found[1]);
      }
    };
    child.stdout?.on("data", read);
    child.stderr?.on("data", read);
    child.once("exit", (code) => reject(new Error(`The browser host exited with ${code}:\n${output}`)));
  });
  return { server: { url, origin: new URL(url).origin, workspace }, child };
}

/** Stops a host and waits for it to go, so its commands' process trees are gone before the next test. */
export async function stopDeskServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
  await exited;
  clearTimeout(timer);
}

/**
 * Starts a host whose model is the scripted one: the script is written to a file named by
 * `PI_DESK_SCRIPT`, Pi is kept offline (`PI_OFFLINE=1`) with a fresh agent dir, and rules, audit log and
 * saved outputs go to a fresh data dir, so no test sees another's (or the person's) configuration.
 */
export async function startScriptedDesk(
  script: Script,
  options: DeskServerOptions = {},
): Promise<{ server: DeskServer; child: ChildProcess; cleanup: () => Promise<void> }> {
  const workspace = mkdtempSync(join(tmpdir(), "pi-desk-e2e-"));
  const home = mkdtempSync(join(tmpdir(), "pi-desk-e2e-home-"));
  const scriptFile = join(home, "script.json");
  writeFileSync(scriptFile, JSON.stringify(script, null, 2));
  const { server, child } = await startDeskServer(workspace, {
    ...options,
    env: {
      PI_DESK_SCRIPT: scriptFile,
      PI_OFFLINE: "1",
      PI_CODING_AGENT_DIR: join(home, "agent"),
      PI_DESK_DATA_DIR: join(home, "data"),
      ...options.env,
    },
  });
  const cleanup = async () => {
    await stopDeskServer(child);
    rmSync(workspace, { recursive: true, force: true });
    rmSync(home, { recursive: true, force: true });
  };
  return { server, child, cleanup };
}
