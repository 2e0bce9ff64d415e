import { createHash, randomUUID } from "node:crypto";
import { open, readFile, rename, rm } from "node:fs/promises";
import { pacer } from "./event-loop-pacer";
import { racyWindow } from "./racy-times";
import { emptyFolder, type FolderNode, type StatKey, storedNode } from "./scan-nodes";

/** The first line of a stat cache file: its format, so a file of another version is not misread. */
const HEADER = "pi-desk-stat-cache 1";
/** The stat cache is written in batches of about this many characters (see `save`). */
const BATCH_CHARS = 256 * 1024;

/** A stat cache as read back: the folder tree to seed the next scan with, and how many files it holds. */
export interface LoadedCache {
  /** The folder tree of the last saved scan: each file's stat data and blob id (no tree ids). */
  root: FolderNode;
  /** Files (and links) in it: the total the first scan's progress counts towards. */
  files: number;
  /** The tree id of the scan it was saved from. */
  tree: string;
  /** When that scan began (ms since the epoch). */
  startedAt: number;
}

/**
 * The last scan's stat data, kept on disk beside the snapshots as git keeps its index: for each
 * recorded file its size, mtime, ctime, inode and mode with its blob id, so a new process (a restart)
 * hashes only what moved, not the whole workspace again.
 *
 * Trusted the way git trusts its index: an entry whose stat data matches the file is that blob, unless
 * it was "racily clean" (written within the timestamps' granularity of the scan that hashed it: then it
 * is hashed again). A file the cache does not name, or whose stat data moved, is hashed as before.
 * Nothing else rests on it: the file ends with the SHA-1 of what precedes it, and a file that does not
 * check (cut short by a crash, a full disk, edited) is ignored, so the next scan hashes everything and
 * writes a sound one. It is written beside and renamed into place, so a reader never sees half a file.
 *
 * Format: a header, `T <scan start ms>`, `R <tree id>`, then one line per entry, depth first (names
 * are JSON strings, so no name can break a line), then `S <sha1>`:
 *   `D <ino> <name>` opens a folder, `U` closes it,
 *   `F <git mode> <oid> <size> <mtimeMs> <ctimeMs> <ino> <mode> <racy 0|1> <name>` is a file or link.
 */
export class StatCache {
  constructor(private readonly file: string) {}

  /**
   * Writes the stat data of `root` (the tree of a scan that began at `scanStartedAt`), yielding as it
   * goes. Files over the size limit are left out: they are compared by size and time anyway.
   */
  async save(root: FolderNode, scanStartedAt: number, tree: string): Promise<void> {
    const temp = `${this.file}.${randomUUID()}.tmp`;
    const handle = await open(temp, "wx", 0o600);
    // Written and summed in batches as the walk goes: the whole text of 300,000 entries (36 MB, and
    // as many strings again in a list) held at once was the largest thing in memory at a first
    // snapshot's end. Batches end at line ends, so the sum is the one of the whole text.
    const hash = createHash("sha1");
    let batch = `${HEADER}\nT ${scanStartedAt}\nR ${tree}\n`;
    const put = async (line: string) => {
      batch += line;
      if (batch.length < BATCH_CHARS) return;
      hash.update(batch);
      await handle.write(batch);
      batch = "";
    };
    const pace = pacer();
    const walk = async (folder: FolderNode): Promise<void> => {
      for (const [name, child] of folder.children) {
        await pace();
        if (child.type === "folder") {
          await put(`D ${child.ino} ${JSON.stringify(name)}\n`);
          await walk(child);
          await put("U\n");
        } else if (child.type === "stored") {
          const s = child;
          await put(
            `F ${child.mode} ${child.oid} ${s.size} ${s.mtimeMs} ${s.ctimeMs} ${s.ino} ${s.statMode} ${child.racy ? 1 : 0} ${JSON.stringify(name)}\n`,
          );
        }
      }
    };
    try {
      await walk(root);
      hash.update(batch);
      await handle.write(`${batch}S ${hash.digest("hex")}\n`);
      await handle.close();
      await rename(temp, this.file);
    } catch (error) {
      await handle.close().catch(() => {});
      await rm(temp, { force: true });
      throw error;
    }
  }

  /** The saved tree, or undefined when there is none or it does not check (then it is rebuilt). */
  async load(): Promise<LoadedCache | undefined> {
    const text = await readFile(this.file, "utf8").catch(() => undefined);
    if (text === undefined) return undefined;
    const sumAt = text.lastIndexOf("S ", text.length - 2);
    if (sumAt < 0 || !text.endsWith("\n")) return undefined;
    const body = text.slice(0, sumAt);
    if (sha1(body) !== text.slice(sumAt + 2, -1) || !body.startsWith(`${HEADER}\n`)) return undefined;
    try {
      return await parse(body);
    } catch {
      return undefined; // checks but does not parse (a bug of an earlier version): rebuilt
    }
  }

  /** Removes the cache (the next scan of a new process hashes everything). */
  async remove(): Promise<void> {
    await rm(this.file, { force: true });
  }
}

async function parse(body: string): Promise<LoadedCache> {
  const lines = body.split("\n");
  const root = emptyFolder();
  const stack: FolderNode[] = [root];
  const pace = pacer();
  let startedAt = Number.NaN;
  let tree = "";
  let files = 0;
  for (let index = 1; index < lines.length; index++) {
    if (index % 512 === 0) await pace();
    const line = lines[index] as string;
    if (line === "") continue;
    const top = stack[stack.length - 1] as FolderNode;
    const kind = line[0];
    if (kind === "T") startedAt = Number(line.slice(2));
    else if (kind === "R") tree = line.slice(2);
    else if (kind === "U") {
      if (stack.length === 1) throw new Error("unbalanced");
      stack.pop();
    } else if (kind === "D") {
      const space = line.indexOf(" ", 2);
      const folder = emptyFolder(Number(line.slice(2, space)));
      top.children.set(jsonName(line.slice(space + 1)), folder);
      stack.push(folder);
    } else if (kind === "F") {
      const fields = line.split(" ", 9);
      let nameAt = 9;
      for (const field of fields) nameAt += field.length;
      const name = jsonName(line.slice(nameAt));
      const [, mode, oid, size, mtimeMs, ctimeMs, ino, statMode, racy] = fields as string[];
      const stat: StatKey = {
        size: Number(size),
        mtimeMs: Number(mtimeMs),
        ctimeMs: Number(ctimeMs),
        ino: Number(ino),
        statMode: Number(statMode),
      };
      const numbers = stat.size + stat.mtimeMs + stat.ctimeMs + stat.ino + stat.statMode;
      if (!/^[0-9a-f]{40}$/.test(oid as string) || Number.isNaN(numbers)) throw new Error("bad entry");
      // git's rule as well as the flag: an entry written as late as the scan that saved it is racy
      // (the same window as the scan's, see racy-times.ts).
      const late = Math.max(stat.mtimeMs, stat.ctimeMs) >= startedAt - racyWindow(stat.mtimeMs);
      top.children.set(name, storedNode(mode as string, oid as string, stat, racy === "1" || late));
      if (racy === "1" || late) top.racy = true;
      files++;
    } else throw new Error("unknown line");
  }
  if (stack.length !== 1 || Number.isNaN(startedAt) || !/^[0-9a-f]{40}$/.test(tree))
    throw new Error("unbalanced");
  return { root, files, tree, startedAt };
}

/**
 * A name as `save` wrote it, a JSON string. Most names need no unescaping (JSON.stringify escapes
 * with a backslash, nothing else): those are taken as they are, a restart parses 300,000 of them.
 */
function jsonName(text: string): string {
  if (text.length < 2 || !text.startsWith('"') || !text.endsWith('"')) throw new Error("bad name");
  return text.includes("\\") ? (JSON.parse(text) as string) : text.slice(1, -1);
}

function sha1(text: string): string {
  return createHash("sha1").update(text).digest("hex");
}
