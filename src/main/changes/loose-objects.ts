import { createHash, randomUUID } from "node:crypto";
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { deflateSync, inflateSync } from "node:zlib";

/** Git's object kinds the engine writes and reads itself. */
export type ObjectType = "blob" | "tree";

/** The id of git's empty tree, which git knows without it being stored. */
export const EMPTY_TREE = "4b825dc642cb6eb9a060e54bf8d69288fbee4904";

/** Git's id of an object of `type` with `content` (SHA-1, the shadow repository's object format). */
export function objectId(type: ObjectType, content: Buffer): string {
  return createHash("sha1").update(`${type} ${content.length}\0`).update(content).digest("hex");
}

/**
 * The shadow repository's object store, written and read in this process: a git process costs about
 * 16 ms to start here (more on a loaded machine), a loose object a file write. The format is git's own
 * and stable (zlib of `<type> <size>\0<content>` at `objects/<2 hex>/<38 hex>`), so git reads what is
 * written here as its own: `git diff`, `ls-tree`, `cat-file` and `gc` work on it unchanged.
 *
 * Packed objects (those of a first snapshot, see `PackWriter`, and after a prune's `gc`) are not read
 * here: `readLoose` says so by returning undefined and the caller reads the packs (`PackReader`).
 */
export class LooseObjects {
  private readonly objectsDir: string;
  /** Ids known to be stored (written or found here), so a file seen again costs no lookup. */
  private readonly known = new Set<string>();
  /** The `objects/xx` folders made (or found) already: one mkdir call fewer per object. */
  private readonly folders = new Set<string>();

  /** `objectsDir`: a repository's `objects` folder. */
  constructor(objectsDir: string) {
    this.objectsDir = objectsDir;
  }

  /**
   * Stores `content` as an object of `type` unless it is known to be stored; returns its id. An object
   * git packed is written loose again the first time this process meets it: harmless (git reads either
   * and the next gc drops the copy), and cheaper than asking git which ids its packs hold.
   */
  write(type: ObjectType, content: Buffer, id = objectId(type, content)): string {
    if (this.has(id)) return id;
    const header = Buffer.from(`${type} ${content.length}\0`);
    // Level 1, as core.looseCompression=1: snapshots store every new file, speed matters more than size.
    this.writeDeflated(id, deflateSync(Buffer.concat([header, content]), { level: 1 }));
    return id;
  }

  /** Whether object `id` is known to be stored, without a look at the disk. */
  knows(id: string): boolean {
    return this.known.has(id);
  }

  /** Notes that object `id` is stored (in a pack): `write` and `has` then skip it. */
  markStored(id: string): void {
    this.known.add(id);
  }

  /** Whether object `id` is stored loose (or known to be stored). */
  has(id: string): boolean {
    if (this.known.has(id)) return true;
    if (!existsSync(this.pathOf(id))) return false;
    this.known.add(id);
    return true;
  }

  /** Stores object `id` from its loose-object bytes, deflated already (by `DeflateWorker`). */
  writeDeflated(id: string, data: Buffer): void {
    const file = this.pathOf(id);
    if (!this.known.has(id) && !existsSync(file)) {
      // Synchronous: a small write costs far less so than four trips through the thread pool, and the
      // scan yields between batches (see WorkspaceScan). Beside and renamed, as git does: a reader (or a
      // crash) never sees half an object.
      const fanOut = id.slice(0, 2);
      if (!this.folders.has(fanOut)) {
        mkdirSync(join(this.objectsDir, fanOut), { recursive: true });
        this.folders.add(fanOut);
      }
      const temp = join(this.objectsDir, id.slice(0, 2), `tmp_obj_${randomUUID()}`);
      try {
        writeFileSync(temp, data, { mode: 0o444 });
        renameSync(temp, file);
      } catch (error) {
        rmSync(temp, { force: true });
        throw error;
      }
    }
    this.known.add(id);
  }

  /**
   * Forgets what is known to be stored: after a prune's `gc` dropped unreachable objects (and packed
   * the rest), an id remembered here may be gone, and writing a tree over it would name a missing blob.
   */
  forget(): void {
    this.known.clear();
    this.folders.clear(); // gc removes the folders it emptied
  }

  /** The content of a loose object of `type`, or undefined when it is not stored loose. */
  async readLoose(type: ObjectType, id: string): Promise<Buffer | undefined> {
    const data = await readFile(this.pathOf(id)).catch(() => undefined);
    if (!data) return undefined;
    const raw = inflateSync(data);
    const nul = raw.indexOf(0);
    const [kind, size] = raw.subarray(0, nul).toString("latin1").split(" ");
    if (kind !== type || Number(size) !== raw.length - nul - 1) return undefined;
    this.known.add(id);
    return raw.subarray(nul + 1);
  }

  private pathOf(id: string): string {
    return join(this.objectsDir, id.slice(0, 2), id.slice(2));
  }
}
