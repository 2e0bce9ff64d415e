import { realpathSync } from "node:fs";
import { createServer } from "node:net";
import { dirname } from "node:path";
import { afterAll } from "vitest";

/** A Unix socket server the test runs on the host, and what reached it. */
export interface UnixListener {
  /** The path, or `@name` for the abstract namespace. */
  name: string;
  /** Connections accepted so far. */
  connections: () => number;
  /** Everything clients sent, joined. */
  received: () => string;
}

const open: Array<() => Promise<void>> = [];
afterAll(async () => {
  await Promise.all(open.splice(0).map((close) => close()));
});

/** Listens at a path (or `@name`: abstract) until the test file ends, recording every byte that arrives. */
export async function listenUnix(name: string): Promise<UnixListener> {
  let connections = 0;
  let received = "";
  const server = createServer((socket) => {
    connections++;
    socket.setEncoding("utf8");
    socket.on("data", (chunk: string) => {
      received += chunk;
    });
    socket.on("error", () => {});
  });
  const address = name.startsWith("@") ? `\0${name.slice(1)}` : name;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(address, resolve);
  });
  open.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { name, connections: () => connections, received: () => received };
}

/** The Node running the tests: a client that needs no python or socat on the machine. */
export const NODE = realpathSync(process.execPath);

/** Its folder, for `readOnlyPaths` where it sits in the hidden home (a checkout under ~). */
export const NODE_DIR = dirname(NODE);

const CLIENT =
  'const [n]=process.argv.slice(1);const s=require("net").connect(n.startsWith("@")?"\\0"+n.slice(1):n);' +
  's.on("connect",()=>{console.log("connected");s.end("hello-from-sandbox")});' +
  's.on("error",(e)=>console.log("no-connection "+e.code))';

/** A shell line that connects to `name` (a path or `@abstract`), sends a greeting, and says what happened. */
export function connectLine(name: string): string {
  return `${NODE} -e '${CLIENT}' '${name}'`;
}

const SERVER =
  'const [p]=process.argv.slice(1);require("net").createServer((c)=>{c.on("data",(d)=>{console.log("server got "+d);process.exit(0)})}).listen(p,()=>console.log("listening"))';

/** A shell line that starts a one-message server at `path` in the background and waits until it listens. */
export function serveLine(path: string): string {
  return `${NODE} -e '${SERVER}' '${path}' & for i in $(seq 50); do [ -S '${path}' ] && break; sleep 0.1; done`;
}

/** Waits a moment for bytes still on their way, so "nothing arrived" is not read too early. */
export function settle(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 150));
}
