import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { DEFAULT_EXCLUDES } from "../../../src/main/changes/defaults";
import { DeflateWorker, DeflateWorkerError } from "../../../src/main/changes/deflate-worker";
import { objectId } from "../../../src/main/changes/loose-objects";
import { ShadowRepo } from "../../../src/main/changes/shadow-repo";
import { StoredObjects } from "../../../src/main/changes/stored-objects";
import { makeScratch, removeScratch, type Scratch } from "./changes-harness";

let scratch: Scratch;
let repo: ShadowRepo;
const made: { close(): void }[] = [];

beforeEach(async () => {
  scratch = await makeScratch();
  repo = await ShadowRepo.open({
    workspace: scratch.workspace,
    dataDir: scratch.dataDir,
    excludes: DEFAULT_EXCLUDES,
  });
});
afterEach(async () => {
  for (const one of made.splice(0)) one.close();
  await removeScratch(scratch);
});

function objects(worker?: DeflateWorker): StoredObjects {
  const store = new StoredObjects(repo, worker);
  made.push(store);
  return store;
}

function gitCatFile(id: string): Buffer {
  return execFileSync("git", ["--git-dir", repo.gitDir, "cat-file", "blob", id], {
    maxBuffer: 64 * 1024 * 1024,
  });
}

/** The longest the main thread's event loop went without a turn while `task` ran. */
async function longestStall(task: () => Promise<unknown>): Promise<number> {
  let last = performance.now();
  let longest = 0;
  const ticker = setInterval(() => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
  }, 1);
  await task();
  clearInterval(ticker);
  return Math.max(longest, performance.now() - last);
}

describe("large objects in the worker thread", () => {
  it("stores a 16 MiB file as git's own blob without holding up the main thread", async () => {
    const content = randomBytes(16 * 1024 * 1024);
    const store = objects();
    await store.storeBlob(Buffer.from("warm the worker up")); // small: on the main thread
    await store.storeBlob(randomBytes(1024 * 1024)); // starts the worker
    let id = "";
    const inWorker = await longestStall(async () => {
      id = await store.storeBlob(content);
    });
    expect(id).toBe(objectId("blob", content));
    expect(gitCatFile(id).equals(content)).toBe(true);
    // The same work on the main thread, for the scale of a stall on this machine now.
    const onMain = await longestStall(async () => {
      objects().writeBlob(randomBytes(16 * 1024 * 1024));
    });
    expect(inWorker).toBeLessThan(onMain / 2);
  });

  it("rejects, with what happened and what next, when the worker cannot start", async () => {
    const store = objects(new DeflateWorker("throw new Error('no worker here')"));
    const failed = store.storeBlob(randomBytes(2 * 1024 * 1024));
    await expect(failed).rejects.toBeInstanceOf(DeflateWorkerError);
    await expect(failed).rejects.toThrow(
      /Compressing a large file .* failed \(no worker here\).*next one tries again/,
    );
    // Small files never need it.
    const small = Buffer.from("small\n");
    expect(await store.storeBlob(small)).toBe(objectId("blob", small));
  });

  it("rejects every waiting job when the worker stops, and starts a new one for the next", async () => {
    const worker = new DeflateWorker(
      "require('node:worker_threads').parentPort.on('message', () => process.exit(7));",
    );
    made.push(worker);
    const both = [worker.deflate("blob", randomBytes(10)), worker.deflate("blob", randomBytes(10))];
    for (const job of both) await expect(job).rejects.toThrow(/exit code 7/);
    await expect(worker.deflate("blob", randomBytes(10))).rejects.toThrow(/exit code 7/);
  });

  it("rejects a job the worker reports failing, and goes on with the next", async () => {
    const worker = new DeflateWorker(`
      const { parentPort } = require("node:worker_threads");
      let n = 0;
      parentPort.on("message", ({ job }) => {
        if (n++ === 0) parentPort.postMessage({ job, error: "out of memory" });
        else parentPort.postMessage({ job, id: "f".repeat(40), data: new Uint8Array([1]) });
      });
    `);
    made.push(worker);
    await expect(worker.deflate("blob", randomBytes(10))).rejects.toThrow(/failed \(out of memory\)/);
    expect((await worker.deflate("blob", randomBytes(10))).id).toBe("f".repeat(40));
  });

  it("stores nothing for a job that failed", async () => {
    const content = randomBytes(2 * 1024 * 1024);
    const store = objects(new DeflateWorker("throw new Error('broken')"));
    await expect(store.storeBlob(content)).rejects.toThrow(DeflateWorkerError);
    expect(() => gitCatFile(objectId("blob", content))).toThrow();
  });
});
