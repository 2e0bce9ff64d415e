import type { ChildProcess } from "node:child_process";
import { randomInt } from "node:crypto";
import { Server } from "node:net";
import { dirname } from "node:path";
import { CommandProxy } from "./command-proxy";
import { type ListenerKind, listenerKind, withForwarder } from "./forwarder-script";
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

/** A command's proxy, ready for a sandbox to start: what to add to its mounts, argv, environment and spawn. */
export interface PreparedNetwork {
  /** The proxy's ports on the host's loopback, the only ones the command may connect to (Seatbelt); absent under bubblewrap. */
  loopbackPorts?: { http: number; socks: number };
  /**
   * What the forwarder needs to read, shown read-only even where the sandbox hides it: the Node binary (a
   * checkout in the person's home runs its own), or Electron's folder (its resources sit beside it).
   */
  readable: string[];
  /** Wraps the command's argv so the forwarder hands its listeners over before the command starts. */
  wrap(argv: readonly string[]): string[];
  /** The proxy variables for the command. */
  env: Record<string, string>;
  /** Takes the sandbox's IPC channel (`RunProcessOptions.onChannel`): the forwarder's two listeners arrive on it. */
  receive?: (channel: ChildProcess) => void;
  /** Ends the proxy and every tunnel through it: the command has ended. */
  dispose(): Promise<void>;
}

/** Where a command's proxy listens: in the sandbox's own network namespace (bubblewrap), or on the host's loopback (Seatbelt). */
export type ProxyPlace = { kind: "namespace"; node: string } | { kind: "loopback" };

/** Starts the proxy for one command under a `hosts` policy, where its sandbox can reach it. */
export async function prepareNetwork(
  policy: Extract<NetworkPolicy, { kind: "hosts" }>,
  place: ProxyPlace,
): Promise<PreparedNetwork> {
  if (place.kind === "namespace") return inNamespace(policy, place.node);
  const proxy = startProxy(policy);
  try {
    const ports = await proxy.listenLoopback();
    return {
      loopbackPorts: ports,
      readable: [],
      wrap: (argv) => [...argv],
      env: proxyEnvironment(ports),
      dispose: () => proxy.close(),
    };
  } catch (error) {
    await proxy.close();
    throw error;
  }
}

function startProxy(policy: Extract<NetworkPolicy, { kind: "hosts" }>): CommandProxy {
  return CommandProxy.start({
    patterns: policy.hosts,
    resolveHost: policy.resolveHost,
    allowLoopbackTargets: policy.allowLoopbackTargets,
    onDecision: policy.onDecision,
  });
}

/**
 * The proxy inside the sandbox's own network namespace (bubblewrap). The forwarder's ports are picked at random in a
 * high range of the sandbox's own loopback (its own network namespace: no other program is there), so a
 * command's dev server rarely meets them.
 */
function inNamespace(policy: Extract<NetworkPolicy, { kind: "hosts" }>, node: string): PreparedNetwork {
  const proxy = startProxy(policy);
  const httpPort = randomInt(20_000, 60_000);
  const socksPort = httpPort + 1;
  let channel: ChildProcess | undefined;
  const hangUp = () => {
    if (channel?.connected) channel.disconnect();
  };
  return {
    readable: [process.versions.electron && node === process.execPath ? dirname(node) : node],
    wrap: (argv) => withForwarder({ node, httpPort, socksPort }, argv),
    env: proxyEnvironment({ http: httpPort, socks: socksPort }),
    receive(child) {
      channel = child;
      const taken = new Set<ListenerKind>();
      // Exactly the forwarder's two messages, in order, then the channel is shut: it is no way in for
      // anything later (the command never holds it, and nothing after these two is read).
      child.on("message", (message: unknown, handle: unknown) => {
        const kind = listenerKind(message);
        if (kind === undefined || taken.has(kind) || !(handle instanceof Server)) {
          if (handle instanceof Server) handle.close();
          return hangUp();
        }
        taken.add(kind);
        proxy.adopt(kind, handle);
        if (taken.size === 2) hangUp();
      });
    },
    dispose: () => {
      hangUp();
      return proxy.close();
    },
  };
}
