import { readdirSync, readFileSync, statSync } from "node:fs";
import { open } from "node:fs/promises";
import { join } from "node:path";
import { inflateSync } from "node:zlib";
import { type ObjectType, objectId } from "./loose-objects";
import { PACK_TYPE } from "./pack-writer";

/** One pack's index (version 2), as read from its `.idx`. */
interface PackIndex {
  /** The pack file. */
  pack: string;
  /** The whole index file. */
  index: Buffer;
  count: number;
  /** Where the sorted ids, their offsets and the 8-byte offsets start in `index`. */
  names: number;
  offsets: number;
  largeOffsets: number;
  /** Every entry's offset, sorted: an entry ends where the next begins (or at the pack's checksum). */
  starts: Float64Array;
  packBytes: number;
}

/**
 * Reads whole objects from the shadow repository's packs in this process: those `PackWriter` made, and
 * the whole ones of the packs git's `gc` made. An entry git stored as a delta is not read here (`read`
 * returns undefined and the caller asks git), nor is a pack whose index is not version 2. Each read
 * is checked against its id: a pack changed or cut under the reader gives undefined, never wrong bytes.
 *
 * The indexes are read on first use and again after `forget` (a pack written, or a `gc` that replaced
 * them). 300,000 objects take about 8 MiB of index.
 */
export class PackReader {
  private packs: PackIndex[] | undefined;

  constructor(private readonly packDir: string) {}

  /** Drops the indexes read: the next call reads the folder again. */
  forget(): void {
    this.packs = undefined;
  }

  /** A pack written since the indexes were read (by its index file): read it too, not the folder again. */
  added(indexFile: string): void {
    if (!this.packs) return; // read with the rest on first use
    const pack = loadIndex(indexFile);
    if (pack) this.packs.push(pack);
  }

  /** Whether a pack holds object `id` (whole or as a delta); only the first `among` packs read, if given. */
  has(id: string, among = Number.POSITIVE_INFINITY): boolean {
    const wanted = Buffer.from(id, "hex");
    const packs = this.indexes();
    for (let i = 0; i < Math.min(among, packs.length); i++) {
      if (find(packs[i] as PackIndex, wanted) >= 0) return true;
    }
    return false;
  }

  /** How many packs there are (read now if not yet): those `added` later come after them. */
  count(): number {
    return this.indexes().length;
  }

  /** The content of object `id` of `type`, or undefined when no pack here holds it whole. */
  async read(type: ObjectType, id: string): Promise<Buffer | undefined> {
    const wanted = Buffer.from(id, "hex");
    for (const pack of this.indexes()) {
      const at = find(pack, wanted);
      if (at < 0) continue;
      const content = await readEntry(pack, at, type).catch(() => undefined);
      if (content === NOT_WHOLE) return undefined; // a delta: git reads it
      if (content && objectId(type, content) === id) return content;
      this.forget(); // gone (a gc) or not what its index says: read the folder again next time
      return undefined;
    }
    return undefined;
  }

  private indexes(): PackIndex[] {
    if (this.packs) return this.packs;
    let names: string[];
    try {
      names = readdirSync(this.packDir);
    } catch {
      names = []; // no pack yet
    }
    this.packs = names
      .filter((name) => /^pack-[0-9a-f]{40}\.idx$/.test(name))
      .map((name) => loadIndex(join(this.packDir, name)))
      .filter((pack): pack is PackIndex => pack !== undefined);
    return this.packs;
  }
}

function loadIndex(file: string): PackIndex | undefined {
  try {
    const index = readFileSync(file);
    if (index.readUInt32BE(0) !== 0xff744f63 || index.readUInt32BE(4) !== 2) return undefined;
    const count = index.readUInt32BE(8 + 255 * 4);
    const names = 8 + 256 * 4;
    const offsets = names + count * 24;
    const pack = file.replace(/\.idx$/, ".pack");
    const found = { pack, index, count, names, offsets, largeOffsets: offsets + count * 4 };
    const starts = new Float64Array(count);
    for (let i = 0; i < count; i++) starts[i] = offsetOf(found, i);
    starts.sort();
    return { ...found, starts, packBytes: statSync(pack).size };
  } catch {
    return undefined;
  }
}

/**
 * The position of `id` among the pack's sorted ids, or -1. The first four bytes are compared as a
 * number, the rest only when they tie: a restart asks every pack about each of 30,000 trees, and a
 * native compare per step was most of that.
 */
function find(pack: PackIndex, id: Buffer): number {
  const first = id[0] as number;
  const head = id.readUInt32BE(0);
  let low = first === 0 ? 0 : pack.index.readUInt32BE(8 + (first - 1) * 4);
  let high = pack.index.readUInt32BE(8 + first * 4);
  while (low < high) {
    const mid = (low + high) >>> 1;
    const at = pack.names + mid * 20;
    const there = pack.index.readUInt32BE(at);
    const order = there !== head ? (there < head ? -1 : 1) : pack.index.compare(id, 4, 20, at + 4, at + 20);
    if (order === 0) return mid;
    if (order < 0) low = mid + 1;
    else high = mid;
  }
  return -1;
}

function offsetOf(pack: Omit<PackIndex, "starts" | "packBytes">, at: number): number {
  const small = pack.index.readUInt32BE(pack.offsets + at * 4);
  if (small < 0x80000000) return small;
  return Number(pack.index.readBigUInt64BE(pack.largeOffsets + (small & 0x7fffffff) * 8));
}

/** What `readEntry` says of an entry stored as a delta (or as another type): not read here, not a fault. */
const NOT_WHOLE = Symbol("not whole");

/**
 * Reads and inflates entry `at` of `pack`: its content, `NOT_WHOLE`, or undefined (or a throw) when the
 * pack is not what its index says.
 */
async function readEntry(
  pack: PackIndex,
  at: number,
  type: ObjectType,
): Promise<Buffer | typeof NOT_WHOLE | undefined> {
  const start = offsetOf(pack, at);
  const next = upperBound(pack.starts, start);
  const end = next < pack.starts.length ? (pack.starts[next] as number) : pack.packBytes - 20;
  const entry = Buffer.allocUnsafe(end - start);
  const file = await open(pack.pack, "r");
  try {
    const { bytesRead } = await file.read(entry, 0, entry.length, start);
    if (bytesRead !== entry.length) return undefined; // cut short
  } finally {
    await file.close();
  }
  let byte = entry[0] as number;
  if (((byte >> 4) & 7) !== PACK_TYPE[type]) return NOT_WHOLE;
  let size = byte & 15;
  let shift = 16;
  let i = 1;
  while (byte & 0x80) {
    byte = entry[i++] as number;
    size += (byte & 0x7f) * shift;
    shift *= 128;
  }
  const content = inflateSync(entry.subarray(i));
  return content.length === size ? content : undefined;
}

/** The index of the first value in sorted `values` greater than `value`. */
function upperBound(values: Float64Array, value: number): number {
  let low = 0;
  let high = values.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if ((values[mid] as number) <= value) low = mid + 1;
    else high = mid;
  }
  return low;
}
