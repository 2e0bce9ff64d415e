import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import type { Server, Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { HostGate, type HostGateOptions, MAX_OPEN_CONNECTIONS } from "./host-gate";
import { createHttpProxy } from "./http-proxy";
import { createSocks5Proxy } from "./socks5";

/** Client connections open at once, per upstream connection allowed (the rest wait on a request or DNS). */
const CLIENTS_PER_UPSTREAM = 4;

/** The two Unix sockets a sandbox binds in for its forwarder. */
export interface ProxySockets {
  /** The HTTP proxy (CONNECT and plain requests). */
  http: string;
  /** The SOCKS5 proxy. */
  socks: string;
}

/**
 * One command's network proxy: an HTTP proxy and a SOCKS5 proxy on Unix sockets in a private folder, both
 * deciding through one `HostGate`. It lives exactly as long as its command: `close()` ends every open
 * tunnel at once and removes the sockets.
 */
export class CommandProxy {
  private readonly clients = new Set<Socket>();

  private constructor(
    /** Where the sockets are. */
    readonly sockets: ProxySockets,
    private readonly folder: string,
    private readonly gate: HostGate,
    private readonly servers: Server[],
  ) {}

  /** Starts the proxy; fails (nothing left behind) when a socket cannot be made. */
  static async start(options: HostGateOptions): Promise<CommandProxy> {
    // A short path of its own: Unix socket paths are limited to about 107 bytes.
    const folder = mkdtempSync(join(tmpdir(), "pi-desk-net-"));
    const sockets = { http: join(folder, "http.sock"), socks: join(folder, "socks.sock") };
    const gate = new HostGate(options);
    const servers = [createHttpProxy(gate), createSocks5Proxy(gate)];
    const proxy = new CommandProxy(sockets, folder, gate, servers);
    const clients = proxy.clients;
    const maxClients = (options.maxConnections ?? MAX_OPEN_CONNECTIONS) * CLIENTS_PER_UPSTREAM;
    for (const server of servers) {
      server.on("connection", (client: Socket) => {
        // A flood of connections that never send a request would hold a descriptor each until timeouts.
        if (clients.size >= maxClients) {
          gate.refuse(
            "?",
            0,
            server === servers[1] ? "socks5" : "http",
            "too many connections at once.",
            "too-many",
          );
          client.destroy();
          return;
        }
        clients.add(client);
        client.once("close", () => clients.delete(client));
      });
    }
    try {
      await Promise.all([
        listen(servers[0] as Server, sockets.http),
        listen(servers[1] as Server, sockets.socks),
      ]);
      for (const path of [sockets.http, sockets.socks]) chmodSync(path, 0o600);
    } catch (error) {
      await proxy.close();
      throw error;
    }
    return proxy;
  }

  /** Ends every tunnel, stops listening and removes the sockets; safe to call twice. */
  async close(): Promise<void> {
    this.gate.close();
    // Clients mid-handshake or waiting on DNS hold no upstream yet: they end here.
    for (const client of this.clients) client.destroy();
    await Promise.all(
      this.servers.map(
        (server) =>
          new Promise<void>((resolve) => {
            if (!server.listening) return resolve();
            server.close(() => resolve());
          }),
      ),
    );
    rmSync(this.folder, { recursive: true, force: true });
  }
}

function listen(server: Server, path: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(path, () => {
      server.off("error", reject);
      resolve();
    });
  });
}
