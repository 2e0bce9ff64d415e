import { EMPTY_TREE } from "./loose-objects";
import type { FolderNode, FolderSummary } from "./scan-nodes";
import type { StoredObjects } from "./stored-objects";
import { TREE_MODE, type TreeEntry } from "./tree-objects";

/**
 * The walks over the last scan's folder tree that follow a scan: writing the tree objects of the
 * folders changed since their last write, counting what is under each folder, listing the oversized
 * files and nested repositories, and finding the folders with racy files. Each enters only the folders
 * whose kept tree id or counts (see `FolderNode.summary`) do not already answer it, so a command's
 * scan walks the folders on the way to what changed, not all 300,000 entries of a big tree.
 */

/** A file over the size limit, known by its size and modification time only. */
export interface OversizedFile {
  /** Size in bytes. */
  size: number;
  /** Modification time (ms since the epoch). */
  mtimeMs: number;
}

/**
 * The tree id of `folder`, writing the trees of folders changed since their last write; yields to
 * the event loop between folders once a slice is used up (a first snapshot computes one per folder).
 */
export async function writeTrees(
  folder: FolderNode,
  objects: StoredObjects,
  pace: () => Promise<void>,
): Promise<string> {
  if (folder.tree !== undefined) return folder.tree;
  await pace();
  const entries: TreeEntry[] = [];
  for (const [name, child] of folder.children) {
    if (child.type === "stored") entries.push({ name, mode: child.mode, oid: child.oid });
    else if (child.type === "folder") {
      const oid = await writeTrees(child, objects, pace);
      // git records files, not folders: a folder with nothing recorded under it is not in the tree.
      if (oid !== EMPTY_TREE) entries.push({ name, mode: TREE_MODE, oid });
    }
  }
  folder.tree = objects.writeTree(entries);
  return folder.tree;
}

/**
 * The counts under `folder`: kept where nothing under it changed, counted (and kept) where something
 * did; yields between the folders it counts once a slice is used up (all 300,000 entries of a big tree
 * after a full scan, tens of ms).
 */
export async function summarize(folder: FolderNode, pace: () => Promise<void>): Promise<FolderSummary> {
  if (folder.summary) return folder.summary;
  await pace();
  const summary: FolderSummary = { files: 0, listed: folder.nested.size, racy: folder.racy ? 1 : 0 };
  for (const child of folder.children.values()) {
    if (child.type === "folder") {
      const below = await summarize(child, pace);
      summary.files += below.files;
      summary.listed += below.listed;
      summary.racy += below.racy;
    } else {
      summary.files++;
      if (child.type === "oversized") summary.listed++;
    }
  }
  folder.summary = summary;
  return summary;
}

/** Lists the oversized files and nested repositories under `folder`, entering only folders that hold some. */
export async function collectListed(
  folder: FolderNode,
  rel: string,
  found: { oversized: Record<string, OversizedFile>; nested: string[] },
  pace: () => Promise<void>,
): Promise<void> {
  if (folder.summary?.listed === 0) return;
  await pace();
  for (const name of folder.nested) found.nested.push(`${rel + name}/`);
  for (const [name, child] of folder.children) {
    if (child.type === "folder") await collectListed(child, `${rel + name}/`, found, pace);
    else if (child.type === "oversized")
      found.oversized[rel + name] = { size: child.size, mtimeMs: child.mtimeMs };
  }
}

/** The folders with a racy file, entering only folders whose counts (if kept) say they hold one. */
export function findRacy(folder: FolderNode, rel: string, out: string[]): void {
  if (folder.summary?.racy === 0) return;
  if (folder.racy) out.push(rel);
  for (const [name, child] of folder.children) {
    if (child.type === "folder") findRacy(child, `${rel + name}/`, out);
  }
}

/** How many folders deep `rel` (`""` or ending in `/`) is: its count of `/`. */
export function depth(rel: string): number {
  let count = 0;
  for (const char of rel) if (char === "/") count++;
  return count;
}
