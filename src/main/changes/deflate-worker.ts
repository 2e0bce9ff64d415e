import { Worker } from "node:worker_threads";

/**
 * The worker's code, run with `eval` so it needs no file of its own next to the bundle (electron-vite
 * bundles the main process into one file): it hashes and deflates one object per message, with its
 * header for a loose object, without for a pack entry.
 */
const WORKER_SOURCE = `
const { parentPort } = require("node:worker_threads");
const { createHash } = require("node:crypto");
const { deflateSync } = require("node:zlib");
parentPort.on("message", ({ job, type, content, packed }) => {
  try {
    const body = Buffer.from(content.buffer, content.byteOffset, content.byteLength);
    const header = Buffer.from(type + " " + body.length + "\\0");
    const id = createHash("sha1").update(header).update(body).digest("hex");
    const data = deflateSync(packed ? body : Buffer.concat([header, body]), { level: 1 });
    parentPort.postMessage({ job, id, data }, [data.buffer]);
  } catch (error) {
    parentPort.postMessage({ job, error: String(error && error.message || error) });
  }
});
`;

/** One object hashed and deflated off the main thread: its git id and its loose-object bytes. */
export interface DeflatedObject {
  /** Its git object id. */
  id: string;
  /** zlib (level 1) of `<type> <size>\0<content>` as a loose object is stored, or of the content alone for a pack. */
  data: Buffer;
}

/** The worker failed (it could not start, or stopped): the scan that needed it fails with this, and the next one starts a new worker. */
export class DeflateWorkerError extends Error {
  override name = "DeflateWorkerError";
}

/**
 * Hashes and deflates large objects in a worker thread, so a 16 MiB file (about 0.1 s of zlib and
 * SHA-1) never holds up the host's main thread, the Electron main process that draws nothing but
 * answers every window. Started on first use, one object at a time in order; `close` ends it.
 *
 * Its errors never go unanswered: a job the worker reports failing rejects with what happened; a
 * worker that dies (or cannot start) rejects every job waiting on it, and the next job starts another.
 */
export class DeflateWorker {
  private worker: Worker | undefined;
  private nextJob = 0;
  private readonly pending = new Map<
    number,
    { resolve: (o: DeflatedObject) => void; reject: (e: Error) => void }
  >();

  /** `source` is the worker's code; tests give a broken one to see the errors handled. */
  constructor(private readonly source = WORKER_SOURCE) {}

  /**
   * Hashes and deflates `content` as an object of `type`, for a loose object or (`packed`) a pack entry.
   * `content` is copied, the caller keeps it.
   */
  deflate(type: string, content: Buffer, packed = false): Promise<DeflatedObject> {
    const job = this.nextJob++;
    return new Promise<DeflatedObject>((resolve, reject) => {
      this.pending.set(job, { resolve, reject });
      try {
        const worker = this.start();
        worker.ref(); // a job waiting holds the process, as any pending read would
        worker.postMessage({ job, type, content: new Uint8Array(content), packed });
      } catch (error) {
        this.pending.delete(job);
        reject(this.failure(error));
      }
    });
  }

  /** Ends the worker; jobs still waiting are rejected. */
  close(): void {
    const worker = this.worker;
    this.worker = undefined;
    this.failAll(new DeflateWorkerError("The change records' compression worker was closed."));
    void worker?.terminate();
  }

  private start(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(this.source, { eval: true });
    // Not what keeps the host open: an idle worker must not hold a process that has nothing else to do.
    worker.unref();
    worker.on("message", (message: { job: number; id?: string; data?: Uint8Array; error?: string }) => {
      const waiting = this.pending.get(message.job);
      if (!waiting) return;
      this.pending.delete(message.job);
      if (this.pending.size === 0) worker.unref();
      if (message.error !== undefined || !message.id || !message.data) {
        waiting.reject(this.failure(message.error ?? "no result"));
      } else {
        const data = Buffer.from(message.data.buffer, message.data.byteOffset, message.data.byteLength);
        waiting.resolve({ id: message.id, data });
      }
    });
    const died = (error: unknown) => {
      if (this.worker !== worker) return;
      this.worker = undefined;
      this.failAll(this.failure(error));
    };
    worker.on("error", died);
    worker.on("exit", (code) => died(`the worker stopped (exit code ${code})`));
    this.worker = worker;
    return worker;
  }

  private failAll(error: Error): void {
    const waiting = [...this.pending.values()];
    this.pending.clear();
    for (const job of waiting) job.reject(error);
  }

  private failure(cause: unknown): DeflateWorkerError {
    const what = cause instanceof Error ? cause.message : String(cause);
    return new DeflateWorkerError(
      `Compressing a large file for the change records failed (${what}); the command is not recorded, ` +
        "and the next one tries again.",
    );
  }
}
