import { createHash, randomBytes } from "node:crypto";
import { mkdirSync, readdirSync, rmSync } from "node:fs";
import { open, rename, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { crc32 } from "node:zlib";
import type { ObjectType } from "./loose-objects";

/** Git's type numbers in a pack entry's header. */
export const PACK_TYPE: Record<ObjectType, number> = { tree: 2, blob: 3 };

/** A pack is written once its entries pass this: about 40 packs for a 3 GB tree, each held in memory once. */
const PACK_BYTES = 64 * 1024 * 1024;

/** Names of the files being written: a crash leaves them, the next `PackWriter` removes them. */
const TEMP_PREFIX = "tmp_pidesk_";

/** A pack entry's header: its type and its content's size, in git's little-endian groups of 7 bits. */
export function entryHeader(type: ObjectType, size: number): Buffer {
  const bytes = [(PACK_TYPE[type] << 4) | (size & 15)];
  let rest = Math.floor(size / 16);
  while (rest > 0) {
    bytes[bytes.length - 1] = (bytes[bytes.length - 1] as number) | 0x80;
    bytes.push(rest & 0x7f);
    rest = Math.floor(rest / 128);
  }
  return Buffer.from(bytes);
}

/** The entries of one pack being gathered. */
interface Batch {
  ids: string[];
  crcs: number[];
  offsets: number[];
  chunks: Buffer[];
  /** Bytes of the entries so far (the pack's 12-byte header not counted). */
  bytes: number;
}

function emptyBatch(): Batch {
  return { ids: [], crcs: [], offsets: [], chunks: [], bytes: 0 };
}

/**
 * Writes objects into packs (git's format, version 2 with a version 2 index), for the scans that store
 * many: a loose object is a file created, and on this machine's disk a create costs 0.2-0.5 ms (git's
 * `add` pays the same), where an entry in a pack is an append. A 100,000-file first snapshot spent 60%
 * of its time creating loose objects.
 *
 * Entries are gathered in memory and written as a pack once they pass 64 MiB (the entry count, which
 * heads the pack, is then known, and the checksum is taken as the bytes go by), while the next batch
 * is gathered: at most two batches are held. Every object is whole (no deltas: git's next `gc` makes
 * those), so `PackReader` reads it back with one read and one inflate. A pack is renamed into place
 * before its index: git counts a pack only once its index is there, so a reader or a crash never sees
 * half of one.
 */
export class PackWriter {
  private batch = emptyBatch();
  private writing: Promise<void> = Promise.resolve();
  /** The first write that failed: every later call fails with it (the snapshot that needs it fails). */
  private failure: unknown;

  /**
   * `onWritten` is told each pack made (a reader's list of packs is then out of date). Removes the
   * files a crash left half written.
   */
  constructor(
    private readonly packDir: string,
    private readonly onWritten: () => void = () => {},
    private readonly packBytes = PACK_BYTES,
  ) {
    mkdirSync(packDir, { recursive: true });
    for (const name of readdirSync(packDir)) {
      if (name.startsWith(TEMP_PREFIX)) rmSync(join(packDir, name), { force: true });
    }
  }

  /**
   * Adds object `id` of `type` whose content (`size` bytes) zlib made `deflated` (the content alone,
   * without the loose object's header). Waits while two packs are being written.
   */
  async add(id: string, type: ObjectType, size: number, deflated: Buffer): Promise<void> {
    if (this.failure) throw this.failure;
    // An entry's offset must fit the index's 4 bytes: past 2 GiB (a size limit set very high), a new pack.
    if (12 + this.batch.bytes >= 2 ** 31) await this.writeBatch();
    const header = entryHeader(type, size);
    const batch = this.batch;
    batch.ids.push(id);
    batch.offsets.push(12 + batch.bytes);
    batch.crcs.push(crc32(deflated, crc32(header)));
    batch.chunks.push(header, deflated);
    batch.bytes += header.length + deflated.length;
    if (batch.bytes >= this.packBytes) await this.writeBatch();
  }

  /** Writes what is gathered (if anything) and waits for every pack to be in place; `add` may go on after. */
  async flush(): Promise<void> {
    if (this.batch.ids.length > 0) await this.writeBatch();
    await this.writing;
    if (this.failure) throw this.failure;
  }

  /** Starts writing the gathered batch once the one before it is written; waits for the one before. */
  private async writeBatch(): Promise<void> {
    const batch = this.batch;
    this.batch = emptyBatch();
    const before = this.writing;
    this.writing = before.then(() =>
      this.writePack(batch).catch((error: unknown) => {
        this.failure ??= error;
      }),
    );
    await before;
    if (this.failure) throw this.failure;
  }

  private async writePack(batch: Batch): Promise<void> {
    const head = Buffer.alloc(12);
    head.write("PACK", 0, "latin1");
    head.writeUInt32BE(2, 4);
    head.writeUInt32BE(batch.ids.length, 8);
    const hash = createHash("sha1").update(head);
    for (const chunk of batch.chunks) hash.update(chunk);
    const checksum = hash.digest();
    const name = `pack-${checksum.toString("hex")}`;
    const temp = join(this.packDir, `${TEMP_PREFIX}${randomBytes(8).toString("hex")}`);
    try {
      const file = await open(`${temp}.pack`, "wx", 0o444);
      try {
        await file.writev([head, ...batch.chunks, checksum]);
      } finally {
        await file.close();
      }
      await writeFile(`${temp}.idx`, packIndex(batch, checksum), { mode: 0o444 });
      await rename(`${temp}.pack`, join(this.packDir, `${name}.pack`));
      await rename(`${temp}.idx`, join(this.packDir, `${name}.idx`));
    } catch (error) {
      await rm(`${temp}.pack`, { force: true });
      await rm(`${temp}.idx`, { force: true });
      throw error;
    }
    this.onWritten();
  }
}

/**
 * The version 2 index of a pack: 256 fan-out counts, the ids sorted, their CRC-32s and 4-byte offsets
 * (`add` starts a new pack before an entry would begin past 2 GiB, where 8-byte ones are needed), the
 * pack's checksum and its own.
 */
function packIndex(batch: Batch, packChecksum: Buffer): Buffer {
  const count = batch.ids.length;
  const order = batch.ids
    .map((_, i) => i)
    .sort((a, b) => ((batch.ids[a] as string) < (batch.ids[b] as string) ? -1 : 1));
  const index = Buffer.alloc(8 + 256 * 4 + count * 28 + 40);
  index.writeUInt32BE(0xff744f63, 0);
  index.writeUInt32BE(2, 4);
  const names = 8 + 256 * 4;
  const crcs = names + count * 20;
  const offsets = crcs + count * 4;
  const fanOut = new Uint32Array(256);
  order.forEach((entry, at) => {
    const id = batch.ids[entry] as string;
    index.write(id, names + at * 20, "hex");
    index.writeUInt32BE(batch.crcs[entry] as number, crcs + at * 4);
    index.writeUInt32BE(batch.offsets[entry] as number, offsets + at * 4);
    fanOut[Number.parseInt(id.slice(0, 2), 16)] = (fanOut[Number.parseInt(id.slice(0, 2), 16)] as number) + 1;
  });
  let total = 0;
  for (let byte = 0; byte < 256; byte++) {
    total += fanOut[byte] as number;
    index.writeUInt32BE(total, 8 + byte * 4);
  }
  const end = offsets + count * 4;
  packChecksum.copy(index, end);
  createHash("sha1")
    .update(index.subarray(0, end + 20))
    .digest()
    .copy(index, end + 20);
  return index;
}
