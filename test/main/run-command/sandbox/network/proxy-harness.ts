import { once } from "node:events";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type RequestListener, type Server } from "node:http";
import { connect, createServer as createNetServer, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach } from "vitest";
import { CommandProxy } from "../../../../../src/main/run-command/sandbox/network/command-proxy";
import type {
  HostDecisionEvent,
  HostGateOptions,
} from "../../../../../src/main/run-command/sandbox/network/host-gate";
import { checkAllowedHosts } from "../../../../../src/main/run-command/sandbox/network/host-pattern";

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A fake upstream on a loopback address: answers every request with its Host and path, counts connections. */
export async function fakeUpstream(address: string, handler?: RequestListener) {
  const connections: Socket[] = [];
  const server: Server = createServer(
    handler ??
      ((request, response) =>
        response.end(`upstream ${address} got ${request.headers.host} ${request.url}\n`)),
  );
  server.on("connection", (socket) => connections.push(socket));
  server.listen(0, address);
  await once(server, "listening");
  const port = (server.address() as { port: number }).port;
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return { server, port, connections };
}

/** A proxy for `hosts`, its decisions recorded; closed after the test. */
export async function startProxy(hosts: string[], options: Partial<HostGateOptions> = {}) {
  const events: HostDecisionEvent[] = [];
  const lookups: string[] = [];
  const proxy = CommandProxy.start({
    patterns: checkAllowedHosts(hosts).patterns,
    resolveHost: async (name) => {
      lookups.push(name);
      return name === "loopback.test" ? ["127.0.0.1"] : name === "files.test" ? ["127.0.0.3"] : ["127.0.0.2"];
    },
    allowLoopbackTargets: true,
    onDecision: (event) => events.push(event),
    ...options,
  });
  cleanups.push(() => proxy.close());
  // Listeners on Unix sockets stand in for the forwarder's (in the sandbox, on its loopback): the proxy
  // serves whatever listening socket it is handed.
  const folder = mkdtempSync(join(tmpdir(), "pi-desk-proxy-test-"));
  cleanups.push(() => rmSync(folder, { recursive: true, force: true }));
  const sockets = { http: join(folder, "http.sock"), socks: join(folder, "socks.sock") };
  for (const kind of ["http", "socks"] as const) {
    const listener = createNetServer();
    listener.listen(sockets[kind]);
    await once(listener, "listening");
    proxy.adopt(kind, listener);
  }
  return { proxy, sockets, events, lookups };
}

/** A client connection to one of the proxy's Unix sockets, with everything it received. */
export async function dial(path: string) {
  const socket = connect(path);
  await once(socket, "connect");
  let received = Buffer.alloc(0);
  socket.on("data", (chunk: Buffer) => {
    received = Buffer.concat([received, chunk]);
  });
  socket.on("error", () => {});
  // Not events.once: it rejects on "error", and a reset is how some of these connections end.
  const closed = new Promise<void>((resolve) => socket.once("close", () => resolve()));
  cleanups.push(() => {
    socket.destroy();
  });
  return {
    socket,
    closed,
    received: () => received,
    text: () => received.toString("latin1"),
    /** Waits until what was received matches. */
    async until(pattern: RegExp | ((bytes: Buffer) => boolean), ms = 3000): Promise<string> {
      const test =
        typeof pattern === "function" ? pattern : (b: Buffer) => pattern.test(b.toString("latin1"));
      const deadline = Date.now() + ms;
      while (!test(received)) {
        if (Date.now() > deadline)
          throw new Error(`timed out; received: ${JSON.stringify(received.toString("latin1"))}`);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      return received.toString("latin1");
    },
  };
}

/** A SOCKS5 greeting (no authentication) and CONNECT request for a host name. */
export function socksByName(host: string, port: number): Buffer {
  const name = Buffer.from(host, "latin1");
  const request = Buffer.alloc(3 + 5 + name.length + 2);
  request.set([0x05, 0x01, 0x00, 0x05, 0x01, 0x00, 0x03, name.length]);
  name.copy(request, 8);
  request.writeUInt16BE(port, 8 + name.length);
  return request;
}

/** A SOCKS5 greeting and CONNECT request for an IPv4 address. */
export function socksByIp(ip: string, port: number): Buffer {
  const request = Buffer.alloc(3 + 4 + 4 + 2);
  request.set([0x05, 0x01, 0x00, 0x05, 0x01, 0x00, 0x01, ...ip.split(".").map(Number)]);
  request.writeUInt16BE(port, 11);
  return request;
}

/** Waits until `check` is true (events arrive a tick after the bytes). */
export async function eventually(check: () => boolean, ms = 3000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error("timed out waiting");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
