import { randomInt } from "node:crypto";
import { dirname } from "node:path";
import { CommandProxy } from "./command-proxy";
import { withForwarder } from "./forwarder-script";
import type { HostDecisionEvent } from "./host-gate";
import type { HostPattern } from "./host-pattern";
import { proxyEnvironment } from "./proxy-environment";

/** How much network one sandboxed command has. */
export type NetworkPolicy =
  /** No route out (bubblewrap's `--unshare-net`, Seatbelt's deny). */
  | { kind: "none" }
  /** The whole network, as the host has it. */
  | { kind: "full" }
  /** No route out but a proxy that lets through these hosts, by name. */
  | {
      kind: "hosts";
      /** The hosts allowed: the workspace's list and any granted for this command. */
      hosts: readonly HostPattern[];
      /** Resolves an allowed name (default: the OS resolver). */
      resolveHost?: (name: string) => Promise<string[]>;
      /** Lets allowed names lead to loopback and private addresses (tests only; default false). */
      allowLoopbackTargets?: boolean;
      /** Told each of the proxy's decisions, as it makes them. */
      onDecision?: (event: HostDecisionEvent) => void;
    };

/** The older boolean form still passed around: `true` is the whole network, `false` none. */
export function toNetworkPolicy(network: boolean | NetworkPolicy): NetworkPolicy {
  if (typeof network === "boolean") return network ? { kind: "full" } : { kind: "none" };
  return network;
}

/** A command's proxy, ready for a sandbox to bind in: what to add to its mounts, argv and environment. */
export interface PreparedNetwork {
  /** The Unix sockets to bind into the sandbox at the same paths (the forwarder's only way out). */
  sockets: string[];
  /**
   * What the forwarder needs to read, shown read-only even where the sandbox hides it: the Node binary (a
   * checkout in the person's home runs its own), or Electron's folder (its resources sit beside it).
   */
  readable: string[];
  /** Wraps the command's argv so the forwarder listens before the command starts. */
  wrap(argv: readonly string[]): string[];
  /** The proxy variables for the command. */
  env: Record<string, string>;
  /** Ends the proxy and every tunnel through it: the command has ended. */
  dispose(): Promise<void>;
}

/**
 * Starts the proxy for one command under a `hosts` policy. The forwarder's ports are picked at random in a
 * high range of the sandbox's own loopback (its own network namespace: no other program is there), so a
 * command's dev server rarely meets them.
 */
export async function prepareNetwork(
  policy: Extract<NetworkPolicy, { kind: "hosts" }>,
  node: string,
): Promise<PreparedNetwork> {
  const proxy = await CommandProxy.start({
    patterns: policy.hosts,
    resolveHost: policy.resolveHost,
    allowLoopbackTargets: policy.allowLoopbackTargets,
    onDecision: policy.onDecision,
  });
  const httpPort = randomInt(20_000, 60_000);
  const socksPort = httpPort + 1;
  const { http, socks } = proxy.sockets;
  return {
    sockets: [http, socks],
    readable: [process.versions.electron && node === process.execPath ? dirname(node) : node],
    wrap: (argv) => withForwarder({ node, httpSocket: http, socksSocket: socks, httpPort, socksPort }, argv),
    env: proxyEnvironment({ http: httpPort, socks: socksPort }),
    dispose: () => proxy.close(),
  };
}
