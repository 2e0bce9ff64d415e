import { lookup } from "node:dns/promises";
import { isIP, type OnReadOpts, type Socket, connect as tcpConnect } from "node:net";
import type { Duplex } from "node:stream";
import type { HostRefusal } from "../../../../shared/network";
import { refusedAddress } from "./address-checks";
import { matchesHost } from "./host-matcher";
import { type HostPattern, MAX_HOST_NAME_LENGTH, normalizeHostName } from "./host-pattern";
import { TunnelReader } from "./tunnel-relay";

/** How a connection reached the proxy. */
export type ProxyProtocol = "connect" | "http" | "socks5";

/** One decision of a command's proxy, as the audit log and the card take it. */
export interface HostDecisionEvent {
  /** `opened` when an allowed connection is made, `closed` when it ends (with its bytes), `refused` at once. */
  phase: "opened" | "closed" | "refused";
  /** The host name the command asked for, as it asked (an IP literal or `?` when it never named one). */
  host: string;
  /** The port it asked for (0 when not known). */
  port: number;
  /** How it asked. */
  protocol: ProxyProtocol;
  /** Why it was refused, as a sentence (refused only). */
  reason?: string;
  /** Why it was refused, as a kind the page words itself (refused only). */
  refusal?: HostRefusal;
  /** The address connected to, the one that was checked (allowed only). */
  address?: string;
  /** Bytes sent from the command to the host (closed only; 0 before). */
  bytesUp: number;
  /** Bytes received from the host (closed only; 0 before). */
  bytesDown: number;
}

/** What the gate needs from the sandbox settings. */
export interface HostGateOptions {
  /** The hosts this command may reach. */
  patterns: readonly HostPattern[];
  /** Resolves an allowed name; the OS resolver (getaddrinfo, /etc/hosts included) when absent. */
  resolveHost?: (name: string) => Promise<string[]>;
  /** Lets an allowed name lead to loopback and private addresses (tests' fake upstreams on 127.0.0.2). */
  allowLoopbackTargets?: boolean;
  /** Upstream connections open at once; past it new ones are refused (default `MAX_OPEN_CONNECTIONS`). */
  maxConnections?: number;
  /** Told every decision. */
  onDecision?: (event: HostDecisionEvent) => void;
}

/** Concurrent upstream connections per command: far more than a package manager opens (npm: 16). */
export const MAX_OPEN_CONNECTIONS = 64;

/** How long a name may take to resolve, and a connection to open, before the proxy gives up. */
const RESOLVE_TIMEOUT_MS = 10_000;
const CONNECT_TIMEOUT_MS = 15_000;

/** The reply code the protocol handlers map a refusal to. */
export type RefusalKind = "not-allowed" | "unreachable" | "busy" | "bad-request";

/** An open, checked connection to an allowed host. */
export interface OpenedUpstream {
  /** Connected to `address`, the address that passed the checks. */
  socket: Socket;
  /** Call once the connection ended: reports its bytes. */
  done: () => void;
  /**
   * Joins it to the client both ways until either closes, then reports (a CONNECT or SOCKS5 tunnel; a plain
   * HTTP request reads `socket` itself). Downloads go through one reused buffer (tunnel-relay.ts).
   */
  relay: (client: Duplex) => void;
}

/**
 * The one place a command's connection is decided: the name first (is it allowed?), then, only for an
 * allowed name, its addresses (none that leads to this machine or the LAN, unless `allowLoopbackTargets`),
 * then a connection to the very address that was checked, never a second lookup.
 */
export class HostGate {
  private open = 0;
  /** Open upstream connections, each with what reports its end. */
  private readonly sockets = new Map<Socket, () => void>();
  private closed = false;

  constructor(private readonly options: HostGateOptions) {}

  /** Records a refusal decided by a protocol handler before the gate saw a target (a request it cannot read). */
  refuse(
    host: string,
    port: number,
    protocol: ProxyProtocol,
    reason: string,
    refusal: HostRefusal = "malformed",
  ): void {
    this.options.onDecision?.({
      phase: "refused",
      host,
      port,
      protocol,
      reason,
      refusal,
      bytesUp: 0,
      bytesDown: 0,
    });
  }

  /** Decides on `host:port` and, when allowed, connects; the refusal's sentence says why and what to do. */
  async connect(
    host: string,
    port: number,
    protocol: ProxyProtocol,
  ): Promise<{ upstream: OpenedUpstream } | { refused: string; kind: RefusalKind }> {
    const refuse = (reason: string, kind: RefusalKind, refusal: HostRefusal) => {
      this.refuse(host, port, protocol, reason, refusal);
      return { refused: reason, kind };
    };
    if (this.closed) return refuse("the command has ended.", "unreachable", "ended");
    if (!Number.isInteger(port) || port < 1 || port > 65535)
      return refuse(`port ${port} is not valid.`, "bad-request", "malformed");
    if (host.length > MAX_HOST_NAME_LENGTH) {
      return refuse(
        `the host name is longer than ${MAX_HOST_NAME_LENGTH} characters.`,
        "bad-request",
        "malformed",
      );
    }
    if (isIP(host.replace(/^\[|\]$/g, "")) !== 0) {
      return refuse(
        "connections by IP address are not allowed; host rules are by name. Connect by the host's name.",
        "not-allowed",
        "by-address",
      );
    }
    const name = normalizeHostName(host);
    if (!name) return refuse("it is not a valid host name.", "bad-request", "malformed");
    if (!matchesHost(this.options.patterns, name, port)) {
      return refuse(
        `${name}:${port} is not among the hosts allowed for this command. The user can allow it for the workspace or for one command.`,
        "not-allowed",
        "not-allowed",
      );
    }
    if (this.open >= (this.options.maxConnections ?? MAX_OPEN_CONNECTIONS)) {
      return refuse(
        `too many connections at once (${this.open}); close some before opening more.`,
        "busy",
        "too-many",
      );
    }
    // Counted from here, so a flood of lookups cannot get past the cap while it waits on DNS.
    this.open += 1;
    let counted = true;
    const release = () => {
      if (counted) this.open -= 1;
      counted = false;
    };
    let addresses: string[];
    try {
      addresses = await withTimeout(
        this.resolve(name),
        RESOLVE_TIMEOUT_MS,
        `resolving ${name} took too long`,
      );
    } catch (error) {
      release();
      return refuse(
        `${name} could not be resolved: ${(error as Error).message}.`,
        "unreachable",
        "unreachable",
      );
    }
    const checked = this.options.allowLoopbackTargets
      ? addresses.filter((address) => isIP(address) !== 0)
      : addresses.filter((address) => refusedAddress(address) === undefined);
    const address = checked[0];
    if (address === undefined) {
      release();
      if (addresses.length === 0) return refuse(`${name} has no address.`, "unreachable", "unreachable");
      return refuse(
        `${name} is allowed, but it resolves to ${addresses.join(", ")}: a loopback, private or reserved ` +
          "address, which commands may not reach (the machine's own services and the LAN stay closed).",
        "not-allowed",
        "private-address",
      );
    }
    if (this.closed) {
      release();
      return refuse("the command has ended.", "unreachable", "ended");
    }
    // Tunnels read the upstream into a buffer of their own; a plain HTTP request's parser reads it as a stream.
    const reader = protocol === "http" ? undefined : new TunnelReader();
    let socket: Socket;
    try {
      socket = await openSocket(address, port, reader?.onread);
    } catch (error) {
      release();
      return refuse(
        `${name}:${port} (${address}) could not be reached: ${(error as Error).message}.`,
        "unreachable",
        "unreachable",
      );
    }
    if (this.closed) {
      socket.destroy();
      release();
      return refuse("the command has ended.", "unreachable", "ended");
    }
    const event = { host: name, port, protocol, address };
    this.options.onDecision?.({ phase: "opened", ...event, bytesUp: 0, bytesDown: 0 });
    let reported = false;
    const done = () => {
      if (reported) return;
      reported = true;
      release();
      this.sockets.delete(socket);
      socket.destroy();
      const { bytesWritten: bytesUp, bytesRead: bytesDown } = socket;
      this.options.onDecision?.({ phase: "closed", ...event, bytesUp, bytesDown });
    };
    this.sockets.set(socket, done);
    socket.once("close", done);
    const relay = (client: Duplex) => {
      if (reader) return reader.relay(socket, client, done);
      socket.pipe(client);
      client.pipe(socket);
      client.once("close", done);
      socket.once("close", () => client.destroy());
    };
    return { upstream: { socket, done, relay } };
  }

  /** Closes every upstream connection and refuses new ones: the command has ended. Reports them at once. */
  close(): void {
    this.closed = true;
    for (const done of [...this.sockets.values()]) done();
  }

  private async resolve(name: string): Promise<string[]> {
    if (this.options.resolveHost) return this.options.resolveHost(name);
    const found = await lookup(name, { all: true, verbatim: true });
    return found.map((entry) => entry.address);
  }
}

function openSocket(address: string, port: number, onread?: OnReadOpts): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = tcpConnect({ host: address, port, noDelay: true, ...(onread ? { onread } : {}) });
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error("the connection timed out"));
    }, CONNECT_TIMEOUT_MS);
    socket.once("connect", () => {
      clearTimeout(timer);
      socket.removeAllListeners("error");
      socket.on("error", () => {}); // reported through "close"
      resolve(socket);
    });
    socket.once("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
  });
}

function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(message)), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}
