import { join } from "node:path";
import { deflateSync } from "node:zlib";
import { BorrowedObjects } from "./borrowed-objects";
import { DeflateWorker } from "./deflate-worker";
import { pacer } from "./event-loop-pacer";
import { EMPTY_TREE, LooseObjects, type ObjectType, objectId } from "./loose-objects";
import { PackReader } from "./pack-reader";
import { type PackLimits, PackWriter } from "./pack-writer";
import type { ShadowRepo } from "./shadow-repo";
import { decodeTree, encodeTree, type TreeEntry } from "./tree-objects";

/** Parsed trees kept in memory, at most (a 20,000-file workspace in folders of 50 has about 400). */
const MAX_TREES = 20_000;
/** Recently hashed file contents kept for line counts, at most this many bytes. */
const RECENT_CONTENT_BYTES = 16 * 1024 * 1024;
/** Contents this large or larger are hashed and deflated in a worker (about 6 ms of the main thread a MiB). */
const WORKER_FROM_BYTES = 1024 * 1024;
/** Files larger than this are not kept among the recent contents (they would push out many small ones). */
const RECENT_CONTENT_MAX_FILE = 1024 * 1024;

/**
 * The shadow repository's objects as the engine uses them on a command's path: blobs and trees written
 * in this process, trees parsed once and kept (they are immutable, and a snapshot shares all but the
 * folders that changed with the last one), and the latest file contents kept for line counts. A scan
 * that stores many (a first snapshot) writes packs instead of loose objects (`startPacking`). What is
 * not in memory, loose or whole in a pack (git's `gc` stores most as deltas) comes from git:
 * `readTree` says so with undefined, `readBlobs` asks `git cat-file` itself.
 */
export class StoredObjects {
  private readonly loose: LooseObjects;
  private readonly trees = new Map<string, TreeEntry[]>([[EMPTY_TREE, []]]);
  private readonly recent = new Map<string, Buffer>();
  private readonly pendingTrees = new Map<string, Buffer>();
  private recentBytes = 0;
  private readonly worker: DeflateWorker;
  private readonly packs: PackReader;
  /** The stores a worktree's records borrow from (see `writeAlternates`): read before asking git. */
  private readonly borrowed: BorrowedObjects;
  private readonly packDir: string;
  /** Where new objects go while a scan stores many (see `startPacking`). */
  private packing: PackWriter | undefined;
  /** The packs there were when packing started: what the packs written since hold is `known`. */
  private packsBefore = 0;

  constructor(
    private readonly repo: ShadowRepo,
    worker = new DeflateWorker(),
  ) {
    this.loose = new LooseObjects(join(repo.gitDir, "objects"));
    this.borrowed = new BorrowedObjects(join(repo.gitDir, "objects"));
    this.worker = worker;
    this.packDir = join(repo.gitDir, "objects", "pack");
    this.packs = new PackReader(this.packDir);
  }

  /**
   * Stores new objects in packs until `endPacking`, for a scan that stores many: each loose object is a
   * file created, each packed one an append (see `PackWriter`). `limits`: tests make small packs.
   */
  startPacking(limits?: PackLimits): void {
    if (this.packing) return;
    this.packsBefore = this.packs.count();
    this.packing = new PackWriter(this.packDir, (indexFile) => this.packs.added(indexFile), limits);
  }

  /** Writes the last pack and stores loose again. Rejects when a pack could not be written. */
  async endPacking(): Promise<void> {
    const packing = this.packing;
    this.packing = undefined;
    try {
      await packing?.flush();
    } catch (error) {
      // Objects counted as stored may be in no pack: look on disk again for each.
      this.loose.forget();
      throw error;
    }
  }

  /**
   * Hashes and stores a file's content (if not stored yet) and returns its blob id; a large one (1 MiB
   * or more) is hashed and deflated in the worker, off the main thread. Rejects with a
   * `DeflateWorkerError` when the worker fails. `remember` false: not kept among the recent contents
   * (a first snapshot's 300,000 files would only push one another out of them, 16 MiB held for nothing).
   */
  async storeBlob(content: Buffer, remember = true): Promise<string> {
    const packed = this.packing !== undefined;
    if (content.length < WORKER_FROM_BYTES) {
      const id = objectId("blob", content);
      if (remember) this.remember(id, content);
      if (!packed) return this.loose.write("blob", content, id);
      await this.pack(id, "blob", content);
      return id;
    }
    const { id, data } = await this.worker.deflate("blob", content, packed);
    if (remember) this.remember(id, content);
    if (packed) await this.pack(id, "blob", content, data);
    else if (!this.loose.has(id)) this.loose.writeDeflated(id, data);
    return id;
  }

  /**
   * Adds an object to the pack being written unless it is known to be stored or an earlier pack holds
   * it (a restart's scan meets every tree again: 30,000 for a big tree). Not looked for among the loose
   * ones: a copy of one in a pack costs a few bytes, the look a file lookup each.
   */
  private async pack(id: string, type: ObjectType, content: Buffer, deflated?: Buffer): Promise<void> {
    if (!this.packing || this.loose.knows(id) || this.packs.has(id, this.packsBefore)) return;
    this.loose.markStored(id);
    await this.packing.add(id, type, content.length, deflated ?? deflateSync(content, { level: 1 }));
  }

  /** Whether object `id` is stored, loose or packed (one `git cat-file -e` when no pack here says so). */
  async has(id: string): Promise<boolean> {
    if (this.loose.has(id) || this.packs.has(id)) return true;
    return this.repo.run(["cat-file", "-e", id]).then(
      () => true,
      () => false,
    );
  }

  /** Ends the worker thread. */
  close(): void {
    this.worker.close();
  }

  /** Stores a file's content (if not stored yet) and returns its blob id, already computed by the caller. */
  writeBlob(content: Buffer, id = objectId("blob", content)): string {
    this.remember(id, content);
    return this.loose.write("blob", content, id);
  }

  /**
   * Returns the id of a tree of `entries`, kept in memory at once and stored by `flushTrees`: the
   * engine reads its trees from memory, and writing them (three files for one changed file two folders
   * deep) can wait until the command's change set has gone back. Anything that lets git read them
   * flushes first (see `ChangeRecorder`).
   */
  writeTree(entries: TreeEntry[]): string {
    const content = encodeTree(entries);
    const id = objectId("tree", content);
    // Kept as bytes only, parsed when read: a first snapshot writes one per folder (30,000 for a big
    // tree), and a parsed copy of each held 60 MiB there that nothing read.
    // Always to the list, even when parsed already: a prune may have dropped it since (the loose store
    // skips what it knows to be stored).
    this.pendingTrees.set(id, content);
    return id;
  }

  /**
   * Stores the trees `writeTree` has kept in memory only, yielding to the event loop between slices:
   * a first snapshot leaves one per folder (30,000 for a big tree, a second of writes in one go).
   * A tree written meanwhile is stored by the same call; one already stored is dropped from the list.
   */
  async flushTrees(): Promise<void> {
    const pace = pacer();
    // The empty tree too: git knows it without it being stored, but a ref to it (see prune) needs it.
    for (const [id, content] of this.pendingTrees) {
      if (this.packing) await this.pack(id, "tree", content);
      else this.loose.write("tree", content, id);
      this.pendingTrees.delete(id);
      await pace();
    }
  }

  /** After a prune: objects once stored may be gone (see `LooseObjects.forget`), packs replaced. */
  forgetStored(): void {
    this.loose.forget();
    this.packs.forget();
    this.borrowed.forget();
  }

  /** The entries of tree `id`, or undefined when only git can read it (a delta in git's packs). */
  async readTree(id: string): Promise<TreeEntry[] | undefined> {
    const known = this.trees.get(id);
    if (known) return known;
    let content = this.pendingTrees.get(id);
    if (!content) {
      await this.packing?.flush(); // what is read from disk must be there
      content = (await this.loose.readLoose("tree", id)) ?? (await this.packs.read("tree", id));
    }
    if (!content) return undefined;
    const entries = decodeTree(content);
    this.keepTree(id, entries);
    return entries;
  }

  /**
   * Keeps a parsed tree, dropping the oldest half once there are `MAX_TREES`: each command reads the
   * trees on the way to what it changed, and a long session would otherwise keep them all. A dropped
   * tree is parsed again from its bytes (not stored yet) or its loose object if needed.
   */
  private keepTree(id: string, entries: TreeEntry[]): void {
    this.trees.set(id, entries);
    if (this.trees.size <= MAX_TREES) return;
    for (const old of this.trees.keys()) {
      if (this.trees.size <= MAX_TREES / 2) break;
      if (old !== EMPTY_TREE) this.trees.delete(old);
    }
  }

  /**
   * The contents of blobs `ids`: from memory, loose objects, packs, the stores borrowed from, then one
   * `git cat-file` for the rest.
   */
  async readBlobs(ids: readonly string[]): Promise<Map<string, Buffer>> {
    const found = new Map<string, Buffer>();
    const missing: string[] = [];
    await this.packing?.flush(); // what is read from disk must be there
    for (const id of new Set(ids)) {
      const content =
        this.recent.get(id) ??
        (await this.loose.readLoose("blob", id)) ??
        (await this.packs.read("blob", id)) ??
        (await this.borrowed.read("blob", id));
      if (content) found.set(id, content);
      else missing.push(id);
    }
    for (const [id, content] of await this.repo.readBlobs(missing)) found.set(id, content);
    return found;
  }

  private remember(id: string, content: Buffer): void {
    if (content.length > RECENT_CONTENT_MAX_FILE || this.recent.has(id)) return;
    this.recent.set(id, content);
    this.recentBytes += content.length;
    for (const [old, buffer] of this.recent) {
      if (this.recentBytes <= RECENT_CONTENT_BYTES) break;
      this.recent.delete(old);
      this.recentBytes -= buffer.length;
    }
  }
}
