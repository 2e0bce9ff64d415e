import { randomBytes } from "node:crypto";
import { rmSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { connect, createServer, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

/*
 * Why the host makes its own socket for a command's output instead of spawn's `stdio: "pipe"`:
 *
 * For every read from a pipe, Node allocates a fresh buffer (up to 64 KiB), and a buffer is freed only
 * when V8 collects its object. A flood of output makes those buffers far faster than V8 collects (its
 * collections follow the JavaScript heap, not these buffers), so 20 to 40 MiB of dead buffers pile up
 * between collections. For one command printing 256 MiB (`npm run bench -- --phases memory`), a bare
 * drain grew the host by 29-34 MiB, 31 MiB of it buffers, and run_command by 33 MiB, nearly all of it
 * buffers too. Read with `onread`, every chunk lands in one buffer reused for the whole command: nothing
 * is allocated per read, and the same command grows the host by about 9 MiB, 2.8 MiB of it buffers (this
 * one and the two write batches of output-batches.ts), the rest V8 heap for the live view's strings.
 *
 * spawn cannot hand out such a socket, and Node has no socketpair(), so the host connects one through a
 * listening socket (a random name in Linux's abstract namespace, elsewhere a file in a private 0700
 * folder), open while commands come one after another (see `LISTENER_IDLE_MS`). The child gets the accepted
 * end as both its stdout and its stderr (run_command merges them with `exec 2>&1` anyway): a Unix
 * stream socket, which is what `stdio: "pipe"` gives it too (libuv makes a socket pair).
 */

/** Each read lands in one buffer of this size, reused for the whole command. */
const READ_BUFFER_BYTES = 64 * 1024;

/** The reading end proves it is ours with this many random bytes before the other end goes to the child. */
const TOKEN_BYTES = 16;

/** A connection that does not prove itself in time is dropped, and the command falls back to a pipe. */
const CONNECT_TIMEOUT_MS = 5_000;

/** A command's output channel: the end the child writes to, and the host's reading end. */
export interface OutputSocket {
  /** Give it to spawn as fd 1 and 2, then destroy it: the child holds its own copies. */
  childEnd: Socket;
  /**
   * The host's end. `onData` gets every chunk (a view of the shared buffer, valid during the call only);
   * when it returns false reading stops until `reader.resume()`. Ends when every copy of the child's end
   * is closed.
   */
  reader: Socket;
}

/** A socket opened ahead of time; `onData` is whoever takes it. */
interface SpareSocket extends OutputSocket {
  route: { onData: (bytes: Buffer) => boolean };
}

/**
 * How many sockets are opened ahead together. One: then, once commands have settled, exactly one socket
 * is waiting, whatever ran before, so the host's descriptor count is the same after every batch of
 * commands (the soak checks that it never grows).
 */
const SPARE_BATCH = 1;

/**
 * The listening socket stays open this long after it last connected one, so commands in a row (an agent
 * on "always allow") each only connect through it, instead of making a folder and a listener and
 * removing both again every time.
 */
const LISTENER_IDLE_MS = 2_000;

/**
 * Sockets opened ahead for the next commands. Opening one takes a connect and the token's round trip
 * (and, when no listener is open, a temp folder and a listen, later a close and the folder's removal:
 * together 1-2 ms of a small command's time on a loaded machine); kept ready, a command only takes one.
 * They are unreferenced while they wait, so they never keep the process alive.
 */
const spares: SpareSocket[] = [];

/** The batch being opened, if any. */
let refilling: Promise<void> | undefined;

/**
 * An output socket for one command (one opened ahead when there is one, intact, else a new one), or a
 * rejection (the caller then uses an ordinary pipe). `openOutputSocketAhead` opens the next one. Not on
 * Windows, where these are named pipes and this was never tried.
 */
export async function openOutputSocket(onData: (bytes: Buffer) => boolean): Promise<OutputSocket> {
  if (spares.length === 0 && refilling) {
    // The socket on its way is unreferenced (opened ahead); a command waits for it now, so the process
    // must stay alive until it is there.
    const keepAlive = setInterval(() => {}, CONNECT_TIMEOUT_MS);
    await refilling;
    clearInterval(keepAlive);
  }
  let socket = takeSpare();
  if (!socket) [socket] = await openSockets(1, false);
  if (!socket) throw new Error("The output socket did not open.");
  socket.route.onData = onData;
  socket.reader.ref();
  socket.childEnd.ref();
  return { childEnd: socket.childEnd, reader: socket.reader };
}

/** The oldest intact spare; broken ones are closed and dropped. */
function takeSpare(): SpareSocket | undefined {
  for (let socket = spares.shift(); socket; socket = spares.shift()) {
    if (!socket.reader.destroyed && !socket.childEnd.destroyed) return socket;
    socket.reader.destroy();
    socket.childEnd.destroy();
  }
  return undefined;
}

/**
 * Starts opening the next command's socket when none is waiting and none is on its way. The runner calls
 * it as a command's result goes out (see process-runner.ts for why then).
 */
export function openOutputSocketAhead(): void {
  if (spares.length > 0 || refilling) return;
  refilling = openSockets(SPARE_BATCH, true)
    .then((sockets) => {
      spares.push(...sockets);
    })
    // A failure here only means the next command opens its own (or falls back to a pipe).
    .catch(() => {})
    .finally(() => {
      refilling = undefined;
    });
}

/**
 * Opens `count` new output sockets through the listener (opening it when none is open), or rejects.
 * Opened `ahead`, they are unreferenced from the start: a socket waiting for a command that may never
 * come never keeps the process alive. Otherwise a command is waiting for it, and it keeps the process
 * alive until the command has it.
 */
async function openSockets(count: number, ahead: boolean): Promise<SpareSocket[]> {
  if (process.platform === "win32") throw new Error("Output sockets are not used on Windows.");
  const through = await openListener();
  const opened: SpareSocket[] = [];
  try {
    for (let i = 0; i < count; i++) opened.push(await connectOne(through, ahead));
    return opened;
  } catch (error) {
    for (const socket of opened) {
      socket.reader.destroy();
      socket.childEnd.destroy();
    }
    throw error;
  } finally {
    through.idleSoon();
  }
}

/** The listening socket (abstract on Linux, else in a private 0700 folder), and the connections of ours it waits for. */
interface Listener {
  /** Where it listens: an abstract name (Linux) or the socket file's path inside the private folder. */
  path: string;
  /** Each connection of ours still to arrive, by its token (hex): who gets it. */
  expected: Map<string, (socket: Socket) => void>;
  /** (Re)starts the countdown to its close: `LISTENER_IDLE_MS` without a connection of ours. */
  idleSoon: () => void;
}

/** The open listener (or the one opening), if any. */
let listening: Promise<Listener> | undefined;

/** The open listener, or a new one: a temp folder of its own and a listen in it. */
function openListener(): Promise<Listener> {
  listening ??= startListener().catch((error: unknown) => {
    listening = undefined;
    throw error;
  });
  return listening;
}

async function startListener(): Promise<Listener> {
  // On Linux a name in the abstract namespace: no file, so nothing is left behind however the host ends
  // (a folder was, each time a host was killed while it listened). Any process of the machine's network
  // namespace could connect to it (its name is in /proc/net/unix), as a command of this user could to the
  // folder's socket: a connection without one of our tokens is closed and never gets output either way.
  // The name is random, so nobody can take it first.
  const abstract = process.platform === "linux";
  const dir = abstract ? undefined : await mkdtemp(join(tmpdir(), "pi-desk-out-"));
  const path = dir ? join(dir, "s") : `\0pi-desk-out-${randomBytes(16).toString("hex")}`;
  const server = createServer();
  try {
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(path, resolve);
    });
  } catch (error) {
    server.close();
    if (dir) await rm(dir, { recursive: true, force: true });
    throw error;
  }
  // A host that exits while it listens leaves no folder behind either.
  const removeDir = () => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  };
  if (dir) process.on("exit", removeDir);
  const expected = new Map<string, (socket: Socket) => void>();
  let idle: NodeJS.Timeout | undefined;
  let closed = false;
  const close = () => {
    if (closed) return;
    closed = true;
    clearTimeout(idle);
    // Only ever this one: a new listener opens only once this one is no longer `listening`.
    listening = undefined;
    process.off("exit", removeDir);
    // The connections outlive it: closing the server removes its socket file, then the folder goes.
    server.close();
    if (dir) rm(dir, { recursive: true, force: true }).catch(() => {});
  };
  const idleSoon = () => {
    clearTimeout(idle);
    if (closed) return;
    idle = setTimeout(() => (expected.size === 0 ? close() : idleSoon()), LISTENER_IDLE_MS);
    // Never what keeps the process alive, nor is the server: the next command may never come.
    idle.unref();
  };
  server.unref();
  server.on("error", close);
  server.on("connection", (socket) => proveOurs(socket, expected));
  return { path, expected, idleSoon };
}

/** Connects one reader through the listener and returns it with the accepted end that proved itself. */
async function connectOne(through: Listener, ahead: boolean): Promise<SpareSocket> {
  const token = randomBytes(TOKEN_BYTES);
  const accepted = acceptOurs(through, token);
  const buffer = Buffer.allocUnsafe(READ_BUFFER_BYTES);
  // Nothing arrives before a command has the child's end; until then a chunk would have nowhere to go.
  const route = { onData: (_bytes: Buffer) => true };
  const reader = connect({
    path: through.path,
    onread: { buffer, callback: (bytes) => route.onData(buffer.subarray(0, bytes)) },
  });
  if (ahead) reader.unref();
  reader.on("error", () => {});
  reader.write(token);
  try {
    return { childEnd: await accepted, reader, route };
  } catch (error) {
    reader.destroy();
    throw error;
  }
}

/** The accepted connection that sends `token`, or a rejection when none does in time. */
function acceptOurs(through: Listener, token: Buffer): Promise<Socket> {
  const key = token.toString("hex");
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      through.expected.delete(key);
      reject(new Error("The output socket did not connect."));
    }, CONNECT_TIMEOUT_MS);
    // Never what keeps the process alive: a socket opened ahead may be waiting for nobody.
    timer.unref();
    through.expected.set(key, (socket) => {
      clearTimeout(timer);
      resolve(socket);
    });
  });
}

/**
 * Reads a new connection's token and hands the connection to whoever expects that token. Anyone who can
 * reach the listener could connect (on Linux any local process, elsewhere a command of this user): a
 * connection that does not send one of our tokens (another, a longer message, or nothing in time) is
 * closed and never gets a child's output. A token is random, used once, and forgotten when it arrives.
 */
function proveOurs(socket: Socket, expected: Map<string, (socket: Socket) => void>): void {
  let got = Buffer.alloc(0);
  // Referenced again by the command that takes it; until then (or a stranger's) it keeps nothing alive.
  socket.unref();
  socket.on("error", () => {});
  const timer = setTimeout(() => socket.destroy(), CONNECT_TIMEOUT_MS);
  timer.unref();
  socket.on("data", (chunk: Buffer) => {
    got = Buffer.concat([got, chunk]);
    if (got.length < TOKEN_BYTES) return;
    socket.removeAllListeners("data");
    clearTimeout(timer);
    const key = got.toString("hex");
    const take = got.length === TOKEN_BYTES ? expected.get(key) : undefined;
    if (!take) {
      socket.destroy();
      return;
    }
    expected.delete(key);
    // Nothing more is read on this end: from now on only the child writes, into the reader.
    socket.pause();
    take(socket);
  });
}
