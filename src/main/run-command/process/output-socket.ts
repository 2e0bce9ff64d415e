import { randomBytes, timingSafeEqual } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { connect, createServer, type Server, type Socket } from "node:net";
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
 * listening socket that lives a few milliseconds in a private 0700 folder. The child gets the accepted
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
 * How many sockets are opened ahead together (one folder, one listen and one close serve a batch). One:
 * then, once commands have settled, exactly one socket is waiting, whatever ran before, so the host's
 * descriptor count is the same after every batch of commands (the soak checks that it never grows).
 */
const SPARE_BATCH = 1;

/**
 * Sockets opened ahead for the next commands. Opening one takes a temp folder, a listen, a connect, the
 * token's round trip, a close and the folder's removal (about 1-2 ms of a small command's time on a loaded
 * machine); kept ready, a command only takes one. They are unreferenced while they wait, so they never
 * keep the process alive.
 */
const spares: SpareSocket[] = [];

/** The batch being opened, if any. */
let refilling: Promise<void> | undefined;

/**
 * An output socket for one command (one opened ahead when there is one, intact, else a new one), or a
 * rejection (the caller then uses an ordinary pipe). Opens the next batch ahead in the background when
 * none is left. Not on Windows, where these are named pipes and this was never tried.
 */
export async function openOutputSocket(onData: (bytes: Buffer) => boolean): Promise<OutputSocket> {
  if (spares.length === 0 && refilling) await refilling;
  let socket = takeSpare();
  if (!socket) [socket] = await openSockets(1);
  if (!socket) throw new Error("The output socket did not open.");
  socket.route.onData = onData;
  socket.reader.ref();
  socket.childEnd.ref();
  refill();
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

/** Starts opening the next batch when none is left and none is on its way. */
function refill(): void {
  if (spares.length > 0 || refilling) return;
  refilling = openSockets(SPARE_BATCH)
    .then((sockets) => {
      for (const socket of sockets) {
        socket.reader.unref();
        socket.childEnd.unref();
      }
      spares.push(...sockets);
    })
    // A failure here only means the next command opens its own (or falls back to a pipe).
    .catch(() => {})
    .finally(() => {
      refilling = undefined;
    });
}

/** Opens `count` new output sockets through one listening socket, or rejects. */
async function openSockets(count: number): Promise<SpareSocket[]> {
  if (process.platform === "win32") throw new Error("Output sockets are not used on Windows.");
  const dir = await mkdtemp(join(tmpdir(), "pi-desk-out-"));
  const server = createServer();
  const opened: SpareSocket[] = [];
  try {
    const path = join(dir, "s");
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(path, resolve);
    });
    for (let i = 0; i < count; i++) opened.push(await connectOne(server, path));
    return opened;
  } catch (error) {
    for (const socket of opened) {
      socket.reader.destroy();
      socket.childEnd.destroy();
    }
    throw error;
  } finally {
    // The connections outlive both: closing the server removes its socket file, then the folder goes.
    server.close();
    await rm(dir, { recursive: true, force: true });
  }
}

/** Connects one reader to the listening `server` and returns it with the accepted end that proved itself. */
async function connectOne(server: Server, path: string): Promise<SpareSocket> {
  const token = randomBytes(TOKEN_BYTES);
  const accepted = acceptOurs(server, token);
  const buffer = Buffer.allocUnsafe(READ_BUFFER_BYTES);
  // Nothing arrives before a command has the child's end; until then a chunk would have nowhere to go.
  const route = { onData: (_bytes: Buffer) => true };
  const reader = connect({
    path,
    onread: { buffer, callback: (bytes) => route.onData(buffer.subarray(0, bytes)) },
  });
  reader.on("error", () => {});
  reader.write(token);
  try {
    return { childEnd: await accepted, reader, route };
  } catch (error) {
    reader.destroy();
    throw error;
  }
}

/**
 * The accepted connection that first sends `token`. Only this user can reach the private folder, but a
 * command of theirs could still connect: such a connection never gets the child's output.
 */
function acceptOurs(server: Server, token: Buffer): Promise<Socket> {
  return new Promise((resolve, reject) => {
    // One batch connects its sockets one after another through the same server: each waits for its own.
    const done = () => {
      clearTimeout(timer);
      server.off("connection", onConnection);
    };
    const timer = setTimeout(() => {
      done();
      reject(new Error("The output socket did not connect."));
    }, CONNECT_TIMEOUT_MS);
    // Never what keeps the process alive: a socket opened ahead may be waiting for nobody.
    timer.unref();
    const onConnection = (socket: Socket) => {
      let got = Buffer.alloc(0);
      socket.on("error", () => {});
      socket.on("data", (chunk: Buffer) => {
        got = Buffer.concat([got, chunk]);
        if (got.length < TOKEN_BYTES) return;
        socket.removeAllListeners("data");
        if (got.length !== TOKEN_BYTES || !timingSafeEqual(got, token)) {
          socket.destroy();
          return;
        }
        // Nothing more is read on this end: from now on only the child writes, into the reader.
        socket.pause();
        done();
        resolve(socket);
      });
    };
    server.on("connection", onConnection);
  });
}
