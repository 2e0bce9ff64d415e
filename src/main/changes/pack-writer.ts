import { createHash, type Hash, randomBytes } from "node:crypto";
import { mkdirSync, readdirSync, rmSync } from "node:fs";
import { type FileHandle, open, rename, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { crc32 } from "node:zlib";
import type { ObjectType } from "./loose-objects";

/** Git's type numbers in a pack entry's header. */
export const PACK_TYPE: Record<ObjectType, number> = { tree: 2, blob: 3 };

/** How a pack is cut: entries a pack is opened for, and most bytes (large files) before it ends early. */
export interface PackLimits {
  /** The entry count a pack's header is written with; a pack ends on reaching it. */
  entries: number;
  /** A pack ends once past this many bytes, whatever its count. */
  bytes: number;
}

/** About 8 KB an entry for source files: packs of 60-100 MB, some 40 for a 3 GB tree. */
const LIMITS: PackLimits = { entries: 8192, bytes: 512 * 1024 * 1024 };

/** Entries are copied into segments of this size and written a segment at a time. */
const SEGMENT_BYTES = 1024 * 1024;

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

/** The pack being written. */
interface OpenPack {
  temp: string;
  file: FileHandle;
  /** SHA-1 of what was written, header first: the pack's checksum if its count stays the header's. */
  hash: Hash;
  ids: string[];
  crcs: number[];
  offsets: number[];
  /** Bytes so far, the 12-byte header included: where the next entry goes. */
  bytes: number;
  /** Entries not yet written, copied in here (see `SEGMENT_BYTES`), and how much of it is used. */
  segment: Buffer;
  used: number;
  /** The other segment: the one being written, filled again once its write is done. */
  spare: Buffer;
  /** Where in the file `segment` starts. */
  segmentAt: number;
  /** The segment write in flight; it never rejects (a failure goes to `writeError`, met when awaited). */
  writing: Promise<void>;
  writeError?: unknown;
}

/**
 * Writes objects into packs (git's format, version 2 with a version 2 index), for the scans that store
 * many: a loose object is a file created, and on this machine's disk a create costs 0.2-0.5 ms (git's
 * `add` pays the same), where an entry in a pack is an append. A 100,000-file first snapshot spent 60%
 * of its time creating loose objects.
 *
 * Entries stream to the pack as they come, a 1 MiB segment at a time (so memory stays flat: the
 * contents are never held), and are checksummed as they go. The entry count heads a pack, before its
 * entries: a pack is opened for 8,192 and ends on reaching them, checksum and all; one that ends short
 * (the last, or one cut at 512 MiB by large files) has its count written again and is read back once
 * for its checksum. Every object is whole (no deltas: git's next `gc` makes those), so `PackReader`
 * reads it back with one read and one inflate. A pack is renamed into place before its index: git
 * counts a pack only once its index is there, so a reader or a crash never sees half of one. Calls
 * come one at a time (the scan awaits each), as `StoredObjects`' callers are serialised.
 */
export class PackWriter {
  private pack: OpenPack | undefined;
  /** The first write that failed: every later call fails with it (the snapshot that needs it fails). */
  private failure: unknown;

  /**
   * `onWritten` is told each pack made, by its index file (a reader then reads that one too). Removes the
   * files a crash left half written.
   */
  constructor(
    private readonly packDir: string,
    private readonly onWritten: (indexFile: string) => void = () => {},
    private readonly limits: PackLimits = LIMITS,
  ) {
    mkdirSync(packDir, { recursive: true });
    for (const name of readdirSync(packDir)) {
      if (name.startsWith(TEMP_PREFIX)) rmSync(join(packDir, name), { force: true });
    }
  }

  /**
   * Adds object `id` of `type` whose content (`size` bytes) zlib made `deflated` (the content alone,
   * without the loose object's header). Waits while the segment before is being written.
   */
  async add(id: string, type: ObjectType, size: number, deflated: Buffer): Promise<void> {
    if (this.failure) throw this.failure;
    try {
      const pack = this.pack ?? (await this.openPack());
      const header = entryHeader(type, size);
      pack.ids.push(id);
      pack.offsets.push(pack.bytes);
      pack.crcs.push(crc32(deflated, crc32(header)));
      await this.append(pack, header);
      await this.append(pack, deflated);
      if (pack.ids.length === this.limits.entries || pack.bytes >= this.limits.bytes) await this.closePack();
    } catch (error) {
      this.failure ??= error;
      throw error;
    }
  }

  /** Ends the pack being written (if any), so that every object added is in a pack in place. */
  async flush(): Promise<void> {
    if (this.failure) throw this.failure;
    try {
      if (this.pack) await this.closePack();
    } catch (error) {
      this.failure ??= error;
      throw error;
    }
  }

  private async openPack(): Promise<OpenPack> {
    const temp = join(this.packDir, `${TEMP_PREFIX}${randomBytes(8).toString("hex")}`);
    const file = await open(`${temp}.pack`, "wx+", 0o444);
    const head = packHeader(this.limits.entries);
    await file.write(head, 0, head.length, 0);
    this.pack = {
      temp,
      file,
      hash: createHash("sha1").update(head),
      ids: [],
      crcs: [],
      offsets: [],
      bytes: head.length,
      segment: Buffer.allocUnsafe(SEGMENT_BYTES),
      used: 0,
      spare: Buffer.allocUnsafe(SEGMENT_BYTES),
      segmentAt: head.length,
      writing: Promise.resolve(),
    };
    return this.pack;
  }

  /** Copies `bytes` into the segment (checksummed), starting the segment's write once it is full. */
  private async append(pack: OpenPack, bytes: Buffer): Promise<void> {
    pack.hash.update(bytes);
    pack.bytes += bytes.length;
    let from = 0;
    while (from < bytes.length) {
      const taken = bytes.copy(pack.segment, pack.used, from);
      pack.used += taken;
      from += taken;
      if (pack.used === pack.segment.length) await this.writeSegment(pack);
    }
  }

  /**
   * Writes the segment's used part at its place, after the write before it, and fills the other one
   * meanwhile: two segments for the whole pack, not a new one for each MiB.
   */
  private async writeSegment(pack: OpenPack): Promise<void> {
    await written(pack); // the spare is free once its write is done
    const full = pack.segment.subarray(0, pack.used);
    const at = pack.segmentAt;
    // Not awaited here (the next segment fills meanwhile), so caught at once: a rejection nobody
    // awaited yet would end the process as unhandled.
    pack.writing = pack.file.write(full, 0, full.length, at).then(
      () => undefined,
      (error: unknown) => {
        pack.writeError ??= error;
      },
    );
    pack.segmentAt += pack.used;
    [pack.segment, pack.spare] = [pack.spare, pack.segment];
    pack.used = 0;
  }

  private async closePack(): Promise<void> {
    const pack = this.pack as OpenPack;
    this.pack = undefined;
    let name: string;
    try {
      if (pack.used > 0) await this.writeSegment(pack);
      await written(pack);
      let checksum: Buffer;
      if (pack.ids.length === this.limits.entries) {
        checksum = pack.hash.digest();
      } else {
        const head = packHeader(pack.ids.length);
        await pack.file.write(head, 0, head.length, 0);
        checksum = await checksumOf(pack.file, pack.bytes);
      }
      await pack.file.write(checksum, 0, checksum.length, pack.bytes);
      await pack.file.close();
      name = join(this.packDir, `pack-${checksum.toString("hex")}`);
      await writeFile(`${pack.temp}.idx`, packIndex(pack, checksum), { mode: 0o444 });
      await rename(`${pack.temp}.pack`, `${name}.pack`);
      await rename(`${pack.temp}.idx`, `${name}.idx`);
    } catch (error) {
      await pack.file.close().catch(() => {});
      await rm(`${pack.temp}.pack`, { force: true });
      await rm(`${pack.temp}.idx`, { force: true });
      throw error;
    }
    this.onWritten(`${name}.idx`);
  }
}

/** Waits for the segment write in flight; throws what it failed with. */
async function written(pack: OpenPack): Promise<void> {
  await pack.writing;
  if (pack.writeError) throw pack.writeError;
}

function packHeader(count: number): Buffer {
  const head = Buffer.alloc(12);
  head.write("PACK", 0, "latin1");
  head.writeUInt32BE(2, 4);
  head.writeUInt32BE(count, 8);
  return head;
}

/** SHA-1 of the first `bytes` of `file`, read back in 4 MiB reads. */
async function checksumOf(file: FileHandle, bytes: number): Promise<Buffer> {
  const hash = createHash("sha1");
  const chunk = Buffer.allocUnsafe(4 * 1024 * 1024);
  for (let at = 0; at < bytes; ) {
    const { bytesRead } = await file.read(chunk, 0, Math.min(chunk.length, bytes - at), at);
    if (bytesRead === 0) throw new Error("The pack being written came back shorter than written.");
    hash.update(chunk.subarray(0, bytesRead));
    at += bytesRead;
  }
  return hash.digest();
}

/**
 * The version 2 index of a pack: 256 fan-out counts, the ids sorted, their CRC-32s and offsets, the
 * pack's checksum and its own. Offsets past 2 GiB (a pack of large files) go in the 8-byte table.
 */
function packIndex(pack: Pick<OpenPack, "ids" | "crcs" | "offsets">, packChecksum: Buffer): Buffer {
  const count = pack.ids.length;
  const order = pack.ids
    .map((_, i) => i)
    .sort((a, b) => ((pack.ids[a] as string) < (pack.ids[b] as string) ? -1 : 1));
  const large = pack.offsets.filter((offset) => offset >= 0x80000000).length;
  const index = Buffer.alloc(8 + 256 * 4 + count * 28 + large * 8 + 40);
  index.writeUInt32BE(0xff744f63, 0);
  index.writeUInt32BE(2, 4);
  const names = 8 + 256 * 4;
  const crcs = names + count * 20;
  const offsets = crcs + count * 4;
  const largeOffsets = offsets + count * 4;
  const fanOut = new Uint32Array(256);
  let largeUsed = 0;
  order.forEach((entry, at) => {
    const id = pack.ids[entry] as string;
    const offset = pack.offsets[entry] as number;
    index.write(id, names + at * 20, "hex");
    index.writeUInt32BE(pack.crcs[entry] as number, crcs + at * 4);
    if (offset < 0x80000000) {
      index.writeUInt32BE(offset, offsets + at * 4);
    } else {
      index.writeUInt32BE((0x80000000 | largeUsed) >>> 0, offsets + at * 4);
      index.writeBigUInt64BE(BigInt(offset), largeOffsets + largeUsed * 8);
      largeUsed++;
    }
    const first = Number.parseInt(id.slice(0, 2), 16);
    fanOut[first] = (fanOut[first] as number) + 1;
  });
  let total = 0;
  for (let byte = 0; byte < 256; byte++) {
    total += fanOut[byte] as number;
    index.writeUInt32BE(total, 8 + byte * 4);
  }
  const end = largeOffsets + large * 8;
  packChecksum.copy(index, end);
  createHash("sha1")
    .update(index.subarray(0, end + 20))
    .digest()
    .copy(index, end + 20);
  return index;
}
