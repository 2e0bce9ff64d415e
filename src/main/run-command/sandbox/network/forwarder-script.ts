import type { ProcessOutcome } from "../../process/process-runner";

/** What the forwarder prints once it listens; anything else means it could not start. */
export const FORWARDER_READY = "pi-desk-forwarder-ready";

/** The exit code of a sandbox whose forwarder did not start (with `FORWARDER_FAILED` printed before it). */
export const FORWARDER_EXIT_CODE = 125;

/** The line printed when the forwarder did not start: how the sandbox tells it from the command's own exit. */
export const FORWARDER_FAILED = "pi-desk: the network forwarder could not start";

/**
 * The forwarder, run inside the sandbox with the app's own Node (`node -e`; Electron with
 * ELECTRON_RUN_AS_NODE=1): listens on 127.0.0.1 at two ports of the sandbox's own loopback and pipes each
 * connection to the proxy's Unix socket for it. It decides nothing; the proxy outside does. Plain CommonJS
 * with no dependencies, so it runs wherever Node does.
 */
export const FORWARDER_SOURCE = `"use strict";
const net = require("net");
const [httpSocket, socksSocket, httpPort, socksPort] = process.argv.slice(1);
let listening = 0;
for (const [path, port] of [[httpSocket, httpPort], [socksSocket, socksPort]]) {
  const server = net.createServer((client) => {
    const upstream = net.connect(path);
    client.setNoDelay(true);
    client.on("error", () => upstream.destroy());
    upstream.on("error", () => client.destroy());
    client.on("close", () => upstream.destroy());
    upstream.on("close", () => client.destroy());
    client.pipe(upstream);
    upstream.pipe(client);
  });
  server.on("error", (error) => {
    process.stderr.write("${FORWARDER_FAILED}: 127.0.0.1:" + port + ": " + error.message + "\\n");
    process.exit(1);
  });
  server.listen(Number(port), "127.0.0.1", () => {
    listening += 1;
    if (listening === 2) process.stdout.write("${FORWARDER_READY}\\n");
  });
}
`;

/**
 * The shell that starts the forwarder, waits until it listens, then becomes the command (`exec`), so the
 * command's exit status is the sandbox's and the forwarder dies with the sandbox's PID namespace. The
 * forwarder gets an empty environment but ELECTRON_RUN_AS_NODE: the command's NODE_OPTIONS or
 * NODE_USE_ENV_PROXY (whose warning it would print into the command's output) are not for it.
 * Positional parameters: node, source, the two sockets, the two ports, then the command's argv.
 */
const LAUNCHER = `node="$1" source="$2"; shift 2
read -r ready < <(exec /usr/bin/env -i ELECTRON_RUN_AS_NODE=1 "$node" -e "$source" "$1" "$2" "$3" "$4" </dev/null)
if [ "$ready" != "${FORWARDER_READY}" ]; then
  echo "${FORWARDER_FAILED}." >&2
  exit ${FORWARDER_EXIT_CODE}
fi
shift 4
exec "$@"`;

/** Where the forwarder listens and where it forwards to. */
export interface ForwarderSetup {
  /** The Node binary to run it with (the app's own: `process.execPath`). */
  node: string;
  /** The proxy's HTTP socket, as bound inside the sandbox. */
  httpSocket: string;
  /** The proxy's SOCKS5 socket, as bound inside the sandbox. */
  socksSocket: string;
  /** The HTTP proxy's port on the sandbox's loopback. */
  httpPort: number;
  /** The SOCKS5 proxy's port on the sandbox's loopback. */
  socksPort: number;
}

/** The argv that runs `command` (an argv) inside the sandbox with the forwarder listening first. */
export function withForwarder(setup: ForwarderSetup, command: readonly string[]): string[] {
  return [
    "/bin/bash",
    "-c",
    LAUNCHER,
    "pi-desk-network",
    setup.node,
    FORWARDER_SOURCE,
    setup.httpSocket,
    setup.socksSocket,
    String(setup.httpPort),
    String(setup.socksPort),
    ...command,
  ];
}

/**
 * Why the run's forwarder did not start, from the sandbox's outcome; undefined when it started (the
 * command ran). A sandbox whose forwarder did not start did not start: nothing ran, with less or more network.
 */
export function forwarderFailure(outcome: ProcessOutcome): string | undefined {
  const { exitCode, output } = outcome;
  if (exitCode !== FORWARDER_EXIT_CODE || !output.text.includes(FORWARDER_FAILED)) return undefined;
  const said = output.text.trim().split("\n").slice(-4).join(" ");
  return (
    `The sandbox's network forwarder could not start, so the command did not run: ${said} ` +
    "Run it with the network off, or turn the sandbox off for this workspace in settings."
  );
}
