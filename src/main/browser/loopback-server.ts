import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { Duplex } from "node:stream";
import sirv from "sirv";
import { type WebSocket, WebSocketServer } from "ws";
import { MAX_CLIENT_MESSAGE_BYTES, WEB_PROTOCOL } from "../../shared/web-protocol";
import type { DeskHost } from "../core/desk-host";
import { serveConnection } from "./connection";
import { allowedHosts, checkHost, checkUpgrade } from "./request-guard";

/** How to start the browser shell's server (HTTP for the page, a WebSocket for DeskApi). */
export interface LoopbackServerOptions {
  /** The host core the pages talk to. */
  host: DeskHost;
  /** The built renderer (out/renderer). */
  rendererDir: string;
  /** TCP port; 0 picks a free one. */
  port?: number;
  /** Where to listen; loopback unless the person asks otherwise. */
  bindAddress?: string;
  /** The access token; a fresh random one per run when absent. */
  token?: string;
  /** How many pages may be connected at once. */
  maxConnections?: number;
}

/** The browser shell's running server. */
export interface LoopbackServer {
  /** The URL to open, token included (in the fragment, so it never reaches a server log). */
  url: string;
  /** The port it listens on. */
  port: number;
  /** The per-run token. */
  token: string;
  /** Stops listening and closes every connection. */
  close(): Promise<void>;
}

/** Headers on every page: the same CSP as the Electron window, and no framing, sniffing or referrers. */
const SECURITY_HEADERS = {
  "Content-Security-Policy":
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; media-src 'self' data:; " +
    "font-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'; " +
    "frame-ancestors 'none'",
  "X-Content-Type-Options": "nosniff",
  "X-Frame-Options": "DENY",
  "Referrer-Policy": "no-referrer",
  "Cross-Origin-Opener-Policy": "same-origin",
  "Cross-Origin-Resource-Policy": "same-origin",
};

/** Serves the renderer and `DeskApi` over a WebSocket, on loopback, behind a token and an Origin check. */
export async function startLoopbackServer(options: LoopbackServerOptions): Promise<LoopbackServer> {
  const bindAddress = options.bindAddress ?? "127.0.0.1";
  const token = options.token ?? randomBytes(32).toString("base64url");
  const maxConnections = options.maxConnections ?? 16;
  const files = sirv(options.rendererDir, { dev: false, etag: true, single: false });
  const sockets = new WebSocketServer({
    noServer: true,
    maxPayload: MAX_CLIENT_MESSAGE_BYTES,
    handleProtocols: () => WEB_PROTOCOL,
  });
  let hosts = new Set<string>();

  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const problem = checkHost(request, hosts);
    if (problem) return refuseHttp(response, 421, problem);
    if (request.method !== "GET" && request.method !== "HEAD") return refuseHttp(response, 405, "Read-only.");
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) response.setHeader(name, value);
    response.setHeader("Cache-Control", "no-store");
    files(request, response, () => refuseHttp(response, 404, "Not found."));
  });

  server.on("upgrade", (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    const problem =
      checkUpgrade(request, hosts, token) ??
      (sockets.clients.size >= maxConnections
        ? `Too many open Pi Desk pages (${maxConnections}); close one and reload.`
        : null);
    if (problem) return refuseUpgrade(socket, problem);
    sockets.handleUpgrade(request, socket, head, (ws: WebSocket) => serveConnection(ws, options.host));
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, bindAddress, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  hosts = allowedHosts(bindAddress, port);
  const shownHost = bindAddress.includes(":") ? `[${bindAddress}]` : bindAddress;

  return {
    url: `http://${shownHost}:${port}/#token=${token}`,
    port,
    token,
    close: async () => {
      for (const client of sockets.clients) client.terminate();
      sockets.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function refuseHttp(response: ServerResponse, status: number, message: string): void {
  response.writeHead(status, { "Content-Type": "text/plain; charset=utf-8" });
  response.end(`${message}\n`);
}

function refuseUpgrade(socket: Duplex, message: string): void {
  const body = `${message}\n`;
  socket.end(
    `HTTP/1.1 403 Forbidden\r\nConnection: close\r\nContent-Type: text/plain; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
}
