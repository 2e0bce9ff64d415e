import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { once } from "node:events";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { Socket } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll } from "vitest";
import type { CommandRequest } from "../../../../src/main/run-command/run-command";
import type { HostDecisionEvent } from "../../../../src/main/run-command/sandbox/network/host-gate";
import type { SandboxSettings } from "../../../../src/main/run-command/sandbox/sandbox";
import type { ApprovalDecision } from "../../../../src/shared/commands";
import { makeWorkspace, runTool } from "../run-command-harness";
import { makeOutsideDir } from "./sandbox-harness";
/** What the allowed-hosts tests share: fake upstreams on loopback reached by name, and a run with the decisions recorded. */

/** Fake upstreams on loopback, reached only by name through `resolveHost`. */
export const NAMES: Record<string, string> = {
  "registry.test": "127.0.0.2",
  "files.test": "127.0.0.3",
  "other.test": "127.0.0.3",
  "loopback.test": "127.0.0.1",
};
export const resolveHost = async (name: string) => (NAMES[name] ? [NAMES[name] as string] : []);

export interface Upstream {
  port: number;
  /** Every request it served: `host path`. */
  seen: string[];
  connections: Socket[];
  server: Server;
}

export async function upstream(
  address: string,
  tarball?: { path: string; bytes: Buffer },
): Promise<Upstream> {
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
export function tinyPackage(): Buffer {
  const dir = makeOutsideDir("tiny-pkg");
  mkdirSync(join(dir, "package"));
  writeFileSync(join(dir, "package", "package.json"), JSON.stringify({ name: "tiny-pkg", version: "1.0.0" }));
  writeFileSync(join(dir, "package", "index.js"), "module.exports = 'tiny-pkg works';\n");
  execFileSync("tar", ["czf", join(dir, "tiny.tgz"), "-C", dir, "package"]);
  return readFileSync(join(dir, "tiny.tgz"));
}

export function packument(port: number, bytes: Buffer) {
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

/** The fake upstreams, live bindings set by `serveUpstreams()`'s beforeAll. */
export let registry: Upstream;
export let files: Upstream;
export let local: Upstream;

/** Starts the fake upstreams before a file's tests and stops them after. */
export function serveUpstreams(): void {
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
}

/** A sandbox that allows `hosts`, with the fake names resolving to loopback. */
export const hostsOnly = (allowedHosts: string[], more: Partial<SandboxSettings> = {}): SandboxSettings => ({
  enabled: true,
  allowedHosts,
  resolveHost,
  allowLoopbackTargets: true,
  ...more,
});

/** Runs one command with the decisions recorded. */
export async function run(
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
