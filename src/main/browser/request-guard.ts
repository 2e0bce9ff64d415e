import { timingSafeEqual } from "node:crypto";
import type { IncomingMessage } from "node:http";
import { TOKEN_PROTOCOL_PREFIX, WEB_PROTOCOL } from "../../shared/web-protocol";

/** Loopback names a browser on this machine may use to reach the host. */
const LOOPBACK_NAMES = ["127.0.0.1", "localhost", "[::1]"];

/** Is this bind address loopback only? Anything else exposes the host to the network. */
export function isLoopbackAddress(address: string): boolean {
  return (
    address === "127.0.0.1" || address === "::1" || address === "localhost" || address.startsWith("127.")
  );
}

/** The `Host` header values the host answers to: its own loopback names (and the bind address, if other). */
export function allowedHosts(bindAddress: string, port: number): Set<string> {
  const names = new Set(LOOPBACK_NAMES);
  if (!isLoopbackAddress(bindAddress))
    names.add(bindAddress.includes(":") ? `[${bindAddress}]` : bindAddress);
  return new Set([...names].map((name) => `${name}:${port}`));
}

/**
 * Refuses a request whose Host header is not ours: a DNS-rebinding page reaches 127.0.0.1 under its own
 * name, and this is where it is stopped. Returns the reason, or null when the request may go on.
 */
export function checkHost(request: IncomingMessage, hosts: Set<string>): string | null {
  const host = request.headers.host;
  return host && hosts.has(host.toLowerCase()) ? null : `Host "${host ?? ""}" is not this Pi Desk host.`;
}

/**
 * A WebSocket upgrade must come from our own page (Origin matches the Host we serve) and carry the
 * per-run token as a subprotocol. Any other site's page can open a WebSocket to loopback; the Origin check
 * stops it, and the token stops other local programs and pages that guess the port.
 */
export function checkUpgrade(request: IncomingMessage, hosts: Set<string>, token: string): string | null {
  const hostProblem = checkHost(request, hosts);
  if (hostProblem) return hostProblem;
  const origin = request.headers.origin;
  if (
    !origin ||
    !hosts.has(origin.replace(/^http:\/\//, "").toLowerCase()) ||
    !origin.startsWith("http://")
  ) {
    return `Origin "${origin ?? ""}" may not connect: open Pi Desk from the URL the host printed.`;
  }
  const offered = (request.headers["sec-websocket-protocol"] ?? "").split(",").map((p) => p.trim());
  if (!offered.includes(WEB_PROTOCOL)) return `The client must speak the ${WEB_PROTOCOL} protocol.`;
  const presented = offered
    .find((p) => p.startsWith(TOKEN_PROTOCOL_PREFIX))
    ?.slice(TOKEN_PROTOCOL_PREFIX.length);
  if (!presented || !sameSecret(presented, token)) {
    return "Missing or wrong token: open Pi Desk from the URL the host printed, token included.";
  }
  return null;
}

/** Compares in constant time, so the token cannot be guessed a character at a time. */
function sameSecret(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}
