import type { RefusalText } from "../../../../shared/host-text";
import type { ProcessOutcome } from "../../process/process-runner";

/** What the forwarder prints once it has handed its listeners over; anything else means it could not. */
export const FORWARDER_READY = "pi-desk-forwarder-ready";

/** The exit code of a sandbox whose forwarder did not start (with `FORWARDER_FAILED` printed before it). */
export const FORWARDER_EXIT_CODE = 125;

/** The line printed when the forwarder did not start: how the sandbox tells it from the command's own exit. */
export const FORWARDER_FAILED = "pi-desk: the network forwarder could not start";

/** Which of the proxy's two listeners a message from the forwarder carries. */
export type ListenerKind = "http" | "socks";

/** The one kind of message the forwarder sends, each with a listening socket as its handle. */
export interface ListenerMessage {
  /** Always "pi-desk-listener". */
  type: "pi-desk-listener";
  /** Which proxy it is for. */
  kind: ListenerKind;
}

/**
 * The forwarder, run inside the sandbox with the app's own Node (`node -e`; Electron with
 * ELECTRON_RUN_AS_NODE=1) before the command: listens on 127.0.0.1 at two ports of the sandbox's own
 * loopback, sends both listening sockets to the host over the IPC channel it was started with (a Node
 * channel passes a handle with a message), and exits. From then on the host accepts the sandbox's
 * connections itself, so a tunnel's bytes cross one process (the proxy), not two. It decides nothing.
 * Plain CommonJS with no dependencies, so it runs wherever Node does.
 */
export const FORWARDER_SOURCE = `"use strict";
const net = require("net");
const [httpPort, socksPort] = process.argv.slice(1);
const fail = (why) => {
  process.stderr.write("${FORWARDER_FAILED}: " + why + "\\n");
  process.exit(1);
};
if (typeof process.send !== "function") fail("it has no channel to the host.");
const listen = (kind, port) =>
  new Promise((resolve) => {
    const server = net.createServer();
    server.on("error", (error) => fail("127.0.0.1:" + port + ": " + error.message));
    server.listen(Number(port), "127.0.0.1", () =>
      process.send({ type: "pi-desk-listener", kind }, server, (error) =>
        error ? fail("the host did not take the socket: " + error.message) : resolve(),
      ),
    );
  });
listen("http", httpPort)
  .then(() => listen("socks", socksPort))
  .then(() => {
    process.stdout.write("${FORWARDER_READY}\\n");
    process.exit(0);
  });
`;

/**
 * The shell that runs the forwarder to its end, then becomes the command (`exec`), so the command's exit
 * status is the sandbox's. The channel (fd 4, NODE_CHANNEL_FD) is the forwarder's only: the command must
 * never hold it, so it is closed and its variables dropped before `exec`, and the forwarder has exited by
 * then (`$(...)` waits), leaving no process the command could take it from. The forwarder gets an empty
 * environment but the channel's and ELECTRON_RUN_AS_NODE: the command's NODE_OPTIONS are not for it.
 * Positional parameters: node, source, the two ports, then the command's argv.
 */
const LAUNCHER = `node="$1" source="$2"; shift 2
channel="$NODE_CHANNEL_FD"
unset NODE_CHANNEL_FD NODE_CHANNEL_SERIALIZATION_MODE
ready=""
if [ "$channel" = 4 ]; then
  ready="$(exec /usr/bin/env -i ELECTRON_RUN_AS_NODE=1 NODE_CHANNEL_FD=4 "$node" -e "$source" "$1" "$2" </dev/null)"
fi
exec 4>&-
if [ "$ready" != "${FORWARDER_READY}" ]; then
  echo "${FORWARDER_FAILED}." >&2
  exit ${FORWARDER_EXIT_CODE}
fi
shift 2
exec "$@"`;

/** Where the forwarder listens. */
export interface ForwarderSetup {
  /** The Node binary to run it with (the app's own: `process.execPath`). */
  node: string;
  /** The HTTP proxy's port on the sandbox's loopback. */
  httpPort: number;
  /** The SOCKS5 proxy's port on the sandbox's loopback. */
  socksPort: number;
}

/** The argv that runs `command` (an argv) inside the sandbox once the forwarder has handed its listeners over. */
export function withForwarder(setup: ForwarderSetup, command: readonly string[]): string[] {
  return [
    "/bin/bash",
    "-c",
    LAUNCHER,
    "pi-desk-network",
    setup.node,
    FORWARDER_SOURCE,
    String(setup.httpPort),
    String(setup.socksPort),
    ...command,
  ];
}

/** The message's kind when it is one the forwarder sends; undefined for anything else. */
export function listenerKind(message: unknown): ListenerKind | undefined {
  const { type, kind } = (message ?? {}) as Partial<ListenerMessage>;
  if (type !== "pi-desk-listener") return undefined;
  return kind === "http" || kind === "socks" ? kind : undefined;
}

/**
 * Why the run's forwarder did not start, from the sandbox's outcome; undefined when it started (the
 * command ran). A sandbox whose forwarder did not start did not start: nothing ran, with less or more network.
 */
export function forwarderFailure(
  outcome: ProcessOutcome,
): { failure: string; say: Extract<RefusalText, { id: "forwarder-failed" }> } | undefined {
  const { exitCode, output } = outcome;
  if (exitCode !== FORWARDER_EXIT_CODE || !output.text.includes(FORWARDER_FAILED)) return undefined;
  const said = output.text.trim().split("\n").slice(-4).join(" ");
  return {
    failure:
      `The sandbox's network forwarder could not start, so the command did not run: ${said} ` +
      "Run it with the network off, or turn the sandbox off for this workspace in settings.",
    say: { id: "forwarder-failed", said },
  };
}
