import { createServer, type Server, type Socket } from "node:net";
import type { ListenerKind } from "./forwarder-script";
import { HostGate, type HostGateOptions, MAX_OPEN_CONNECTIONS } from "./host-gate";
import { createHttpProxy } from "./http-proxy";
import { createSocks5Proxy } from "./socks5";

/** Client connections open at once, per upstream connection allowed (the rest wait on a request or DNS). */
const CLIENTS_PER_UPSTREAM = 4;

/**
 * One command's network proxy: an HTTP proxy and a SOCKS5 proxy deciding through one `HostGate`, serving
 * the connections of listening sockets it is given (`adopt`: the ones the forwarder made inside the
 * sandbox's own network namespace). It lives exactly as long as its command: `close()` ends every open
 * tunnel at once and stops listening.
 */
export class CommandProxy {
  private readonly clients = new Set<Socket>();
  private readonly listeners: Server[] = [];
  private closed = false;

  private constructor(
    private readonly gate: HostGate,
    private readonly proxies: Record<ListenerKind, Server>,
    private readonly maxClients: number,
  ) {}

  /** A proxy with nothing to listen on yet. */
  static start(options: HostGateOptions): CommandProxy {
    const gate = new HostGate(options);
    const proxies = { http: createHttpProxy(gate), socks: createSocks5Proxy(gate) };
    const maxClients = (options.maxConnections ?? MAX_OPEN_CONNECTIONS) * CLIENTS_PER_UPSTREAM;
    return new CommandProxy(gate, proxies, maxClients);
  }

  /** Serves `kind` to every connection `listener` accepts, until `close()` (which closes it too). */
  adopt(kind: ListenerKind, listener: Server): void {
    if (this.closed) {
      listener.close();
      return;
    }
    this.listeners.push(listener);
    listener.on("error", () => {});
    listener.on("connection", (client: Socket) => {
      if (this.closed) return client.destroy();
      // A flood of connections that never send a request would hold a descriptor each until timeouts.
      if (this.clients.size >= this.maxClients) {
        this.gate.refuse(
          "?",
          0,
          kind === "socks" ? "socks5" : "http",
          "too many connections at once.",
          "too-many",
        );
        client.destroy();
        return;
      }
      this.clients.add(client);
      client.once("close", () => this.clients.delete(client));
      this.proxies[kind].emit("connection", client);
    });
  }

  /**
   * Listens on two ports of the host's own 127.0.0.1 (macOS, which has no network namespace to put them in):
   * the Seatbelt profile lets the command connect to exactly these. Fails, nothing left listening, when a
   * port cannot be had.
   */
  async listenLoopback(): Promise<{ http: number; socks: number }> {
    const ports = { http: 0, socks: 0 };
    for (const kind of ["http", "socks"] as const) {
      const listener = createServer();
      this.adopt(kind, listener);
      await new Promise<void>((resolve, reject) => {
        listener.once("error", reject);
        listener.listen(0, "127.0.0.1", () => {
          listener.off("error", reject);
          resolve();
        });
      });
      ports[kind] = (listener.address() as { port: number }).port;
    }
    return ports;
  }

  /** Ends every tunnel and stops listening; safe to call twice. */
  async close(): Promise<void> {
    this.closed = true;
    this.gate.close();
    // Clients mid-handshake or waiting on DNS hold no upstream yet: they end here.
    for (const client of this.clients) client.destroy();
    await Promise.all(
      this.listeners.map(
        (server) =>
          new Promise<void>((resolve) => {
            if (!server.listening) return resolve();
            server.close(() => resolve());
          }),
      ),
    );
  }
}
