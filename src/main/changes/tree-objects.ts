/** Git's mode of a folder (a tree) inside a tree. */
export const TREE_MODE = "40000";

/** One entry of a git tree object. */
export interface TreeEntry {
  /** The file or folder name (one path part). */
  name: string;
  /** `100644`, `100755`, `120000` (a symbolic link) or `40000` (a folder). */
  mode: string;
  /** The blob's or sub-tree's id. */
  oid: string;
}

/**
 * A tree object's content: entries in git's order (by name as bytes, a folder's name compared as if it
 * ended in `/`), each `<mode> <name>\0<20-byte id>`. Any other order and git would read the tree but
 * compute other ids for the same folders than `write-tree` does, and diffs would see changes that are not.
 */
export function encodeTree(entries: readonly TreeEntry[]): Buffer {
  const keyed = entries.map((entry) => ({
    entry,
    key: Buffer.from(entry.mode === TREE_MODE ? `${entry.name}/` : entry.name),
  }));
  keyed.sort((a, b) => Buffer.compare(a.key, b.key));
  const parts: Buffer[] = [];
  for (const { entry } of keyed) {
    parts.push(Buffer.from(`${entry.mode} ${entry.name}\0`), Buffer.from(entry.oid, "hex"));
  }
  return Buffer.concat(parts);
}

/** The entries of a tree object's content (see `encodeTree`). */
export function decodeTree(content: Buffer): TreeEntry[] {
  const entries: TreeEntry[] = [];
  let at = 0;
  while (at < content.length) {
    const space = content.indexOf(0x20, at);
    const nul = content.indexOf(0, space);
    entries.push({
      mode: content.subarray(at, space).toString("latin1"),
      name: content.subarray(space + 1, nul).toString("utf8"),
      oid: content.subarray(nul + 1, nul + 21).toString("hex"),
    });
    at = nul + 21;
  }
  return entries;
}
