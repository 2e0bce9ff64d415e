import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach } from "vitest";
import type { DeskHost } from "../../../src/main/core/desk-host";
import type { McpCallView } from "../../../src/shared/mcp";
import { waitFor } from "./host-harness";

const require = createRequire(import.meta.url);

/** server-everything's packaged entry, run with `node <path>` as a person's mcp.json would. */
export const EVERYTHING_SERVER = join(
  dirname(require.resolve("@modelcontextprotocol/server-everything/package.json")),
  "dist",
  "index.js",
);

/** Writes a user-level mcp.json into Pi's agent folder (this test file's own, see test/setup). */
export function writeUserMcp(servers: Record<string, object>, agentDir = agentFolder()): void {
  writeFileSync(join(agentDir, "mcp.json"), JSON.stringify({ mcpServers: servers }, null, 2));
}

/** Pi's agent folder of this test file. */
export function agentFolder(): string {
  return process.env.PI_CODING_AGENT_DIR as string;
}

/** server-everything over stdio, marked so that its process can be found (`processesMarked`). */
export function everythingServer(marker: string, env: Record<string, string> = {}): object {
  return {
    command: process.execPath,
    args: [EVERYTHING_SERVER, "stdio"],
    env: { PI_DESK_MARK: marker, ...env },
  };
}

/** The pids of live processes whose environment holds `PI_DESK_MARK=<marker>` (Linux). */
export function processesMarked(marker: string): number[] {
  const found: number[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const environ = readFileSync(`/proc/${name}/environ`, "utf8").split("\0");
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      // A zombie has ended; only its parent has not collected it yet.
      if (environ.includes(`PI_DESK_MARK=${marker}`) && !/\) Z /.test(stat)) found.push(Number(name));
    } catch {
      // Gone meanwhile, or not ours to read.
    }
  }
  return found;
}

/** The logging wrapper around server-everything (test/fixtures/mcp-logging-server.mjs). */
export const LOGGING_SERVER = join(
  dirname(new URL(import.meta.url).pathname),
  "..",
  "..",
  "fixtures",
  "mcp-logging-server.mjs",
);

/** server-everything behind a log of every message it receives, written to `log`. */
export function loggedEverythingServer(marker: string, log: string): object {
  return {
    command: process.execPath,
    args: [LOGGING_SERVER, log, EVERYTHING_SERVER],
    env: { PI_DESK_MARK: marker },
  };
}

/** The `tools/call` requests a logged server received, by tool name. */
export function callsReceived(log: string): { name: string; arguments: unknown }[] {
  let text = "";
  try {
    text = readFileSync(log, "utf8");
  } catch {
    return [];
  }
  return text
    .split("\n")
    .filter((line) => line.includes('"tools/call"'))
    .map((line) => {
      const { name, arguments: args } = (JSON.parse(line) as { params: { name: string; arguments: unknown } })
        .params;
      return { name, arguments: args };
    });
}

/** server-filesystem's packaged entry. */
export const FILESYSTEM_SERVER = join(
  dirname(require.resolve("@modelcontextprotocol/server-filesystem/package.json")),
  "dist",
  "index.js",
);

const logs: string[] = [];
afterEach(() => {
  for (const dir of logs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A fresh log file for a logged server, removed after the test. */
export function freshLog(): string {
  const dir = mkdtempSync(join(tmpdir(), "pi-desk-mcp-log-"));
  logs.push(dir);
  return join(dir, "received.jsonl");
}

/** The view of an MCP call (or a script or search) in the shown chat. */
export function callOf(host: DeskHost, id: string): McpCallView | undefined {
  return host.state().session?.mcpCalls?.[id];
}

/** Waits until the call waits for the person, and returns its approval id. */
export function waiting(host: DeskHost, id: string): Promise<string> {
  return waitFor(() => callOf(host, id)?.approvalId);
}
