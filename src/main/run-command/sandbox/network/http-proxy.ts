import {
  createServer,
  request as httpRequest,
  type IncomingMessage,
  type OutgoingHttpHeaders,
  type Server,
} from "node:http";
import type { Duplex } from "node:stream";
import type { HostGate, RefusalKind } from "./host-gate";

/** Request headers only a proxy reads, or that describe the client's own connection (RFC 9110 §7.6.1). */
const HOP_BY_HOP = new Set([
  "connection",
  "proxy-connection",
  "keep-alive",
  "proxy-authorization",
  "proxy-authenticate",
  "te",
  "trailer",
  "upgrade",
]);

const STATUS: Record<RefusalKind, string> = {
  "not-allowed": "403 Forbidden",
  unreachable: "502 Bad Gateway",
  busy: "429 Too Many Requests",
  "bad-request": "400 Bad Request",
};

/**
 * The HTTP side of a command's proxy: `CONNECT host:port` tunnels (HTTPS, git, anything over TLS) and plain
 * `http://` requests in absolute form. Each is decided by the gate before a byte goes out; a request whose
 * `Host` header names another host than its target is refused, so a tool cannot be allowed one host and
 * talk to another through it.
 */
export function createHttpProxy(gate: HostGate): Server {
  const server = createServer({ requestTimeout: 0, headersTimeout: 10_000 });
  server.on("connect", (request: IncomingMessage, client: Duplex, head: Buffer) => {
    client.on("error", () => {});
    const target = splitHostPort(request.url ?? "");
    if (!target) {
      gate.refuse(request.url ?? "?", 0, "connect", "the CONNECT target is not host:port.");
      return reply(client, "bad-request", "The CONNECT target must be host:port.");
    }
    const mismatch = hostHeaderMismatch(request.headers.host, target);
    if (mismatch) {
      gate.refuse(target.host, target.port, "connect", mismatch);
      return reply(client, "bad-request", mismatch);
    }
    void gate.connect(target.host, target.port, "connect").then((opened) => {
      if ("refused" in opened) return reply(client, opened.kind, `Pi Desk refused it: ${opened.refused}`);
      const { socket, done, relay } = opened.upstream;
      if (client.destroyed) return done();
      client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
      if (head.length > 0) socket.write(head);
      relay(client);
    });
  });
  server.on("request", (request, response) => {
    const refuse = (kind: RefusalKind, host: string, port: number, why: string) => {
      gate.refuse(host, port, "http", why);
      response.writeHead(Number(STATUS[kind].slice(0, 3)), {
        "content-type": "text/plain",
        connection: "close",
      });
      response.end(`Pi Desk refused it: ${why}\n`);
    };
    let url: URL;
    try {
      url = new URL(request.url ?? "");
    } catch {
      return refuse(
        "bad-request",
        "?",
        0,
        "a proxy request must name its target in full (http://host/path).",
      );
    }
    if (url.protocol !== "http:") {
      return refuse(
        "bad-request",
        url.hostname,
        0,
        `${url.protocol} requests go through CONNECT, not as plain requests.`,
      );
    }
    const target = { host: url.hostname, port: url.port ? Number(url.port) : 80 };
    const mismatch = hostHeaderMismatch(request.headers.host, target);
    if (mismatch) return refuse("bad-request", target.host, target.port, mismatch);
    void gate.connect(target.host, target.port, "http").then((opened) => {
      if ("refused" in opened) {
        response.writeHead(Number(STATUS[opened.kind].slice(0, 3)), { "content-type": "text/plain" });
        response.end(`Pi Desk refused it: ${opened.refused}\n`);
        return;
      }
      const { socket, done } = opened.upstream;
      const headers: OutgoingHttpHeaders = {};
      for (const [name, value] of Object.entries(request.headers)) {
        if (!HOP_BY_HOP.has(name) && value !== undefined) headers[name] = value;
      }
      headers.connection = "close";
      const upstream = httpRequest({
        createConnection: () => socket,
        method: request.method,
        path: `${url.pathname}${url.search}`,
        headers,
        setHost: false,
      });
      upstream.on("response", (answer) => {
        const { connection: _, "keep-alive": __, ...kept } = answer.headers;
        response.writeHead(answer.statusCode ?? 502, answer.statusMessage, kept);
        answer.pipe(response);
        answer.once("end", done);
      });
      upstream.on("error", (error) => {
        if (!response.headersSent) {
          response.writeHead(502, { "content-type": "text/plain" });
          response.end(`Pi Desk's proxy lost ${target.host}: ${error.message}\n`);
        } else response.destroy();
        done();
      });
      response.once("close", done);
      request.pipe(upstream);
    });
  });
  // WebSocket and other upgrades over plain HTTP: refused (wss:// goes through CONNECT like any TLS).
  server.on("upgrade", (request: IncomingMessage, client: Duplex) => {
    client.on("error", () => {});
    gate.refuse(
      request.headers.host ?? "?",
      0,
      "http",
      "upgrades (WebSocket) over plain http:// are not supported.",
    );
    reply(client, "bad-request", "Upgrades over plain http:// are not supported; use https:// or wss://.");
  });
  server.on("clientError", (error, client) => {
    gate.refuse(
      "?",
      0,
      "http",
      `the proxy request could not be read (${(error as { code?: string }).code ?? error.message}).`,
    );
    if (client.writable) client.end("HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n");
    else client.destroy();
  });
  return server;
}

/** Writes a refusal and closes the connection (a CONNECT that is not tunnelled). */
function reply(client: Duplex, kind: RefusalKind, text: string): void {
  const body = `${text}\n`;
  client.end(
    `HTTP/1.1 ${STATUS[kind]}\r\nContent-Type: text/plain\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

/** `host:port` or `[v6]:port`; undefined when either is missing. */
export function splitHostPort(text: string): { host: string; port: number } | undefined {
  const match = /^(\[[^\]]*\]|[^:[\]]+):([0-9]{1,5})$/.exec(text);
  if (!match) return undefined;
  return { host: (match[1] as string).replace(/^\[|\]$/g, ""), port: Number(match[2]) };
}

/** Why a `Host` header does not fit the request's target; undefined when absent or the same host and port. */
function hostHeaderMismatch(
  header: string | undefined,
  target: { host: string; port: number },
): string | undefined {
  if (header === undefined) return undefined;
  const named = splitHostPort(header) ?? { host: header.replace(/^\[|\]$/g, ""), port: undefined };
  const same = (a: string, b: string) =>
    a.toLowerCase().replace(/\.$/, "") === b.toLowerCase().replace(/\.$/, "");
  if (same(named.host, target.host) && (named.port === undefined || named.port === target.port))
    return undefined;
  return `the Host header (${header}) names another host than the request's target (${target.host}:${target.port}).`;
}
