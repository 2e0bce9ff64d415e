import type { FileChange } from "../../shared/changes";
import { countLines, isBinary } from "./line-counts";
import type { StoredObjects } from "./stored-objects";
import { diffTrees, type RawChange } from "./tree-diff";
import { SYMLINK_MODE } from "./workspace-files";

/**
 * The files that differ from tree `from` to tree `to`, with kinds, modes, line counts and binary sizes
 * as `git diff-tree -M --raw --numstat` gives them, computed in this process from the trees and blobs
 * it wrote (or reads loose). Undefined for what it leaves to git:
 * - files both deleted and added: one may be a rename, which git finds by content similarity;
 * - a file turned into a link or the reverse (git's `T`);
 * - trees git packed, and diffs too large to count lines of here quickly.
 */
export async function changesInProcess(
  objects: StoredObjects,
  from: string,
  to: string,
): Promise<FileChange[] | undefined> {
  const raw = await diffTrees(objects, from, to);
  if (!raw) return undefined;
  if (raw.some((change) => !change.newOid) && raw.some((change) => !change.oldOid)) return undefined;
  if (raw.some(isTypeChange)) return undefined;
  const blobs = await objects.readBlobs(
    raw.flatMap((change) => [change.oldOid ?? [], change.newOid ?? []].flat()),
  );
  const files: FileChange[] = [];
  for (const change of raw) {
    const old = change.oldOid === undefined ? undefined : blobs.get(change.oldOid);
    const now = change.newOid === undefined ? undefined : blobs.get(change.newOid);
    const file: FileChange = {
      kind: !change.oldOid
        ? "added"
        : !change.newOid
          ? "deleted"
          : change.oldOid === change.newOid
            ? "mode"
            : "modified",
      path: change.path,
      added: 0,
      removed: 0,
      binary: (old !== undefined && isBinary(old)) || (now !== undefined && isBinary(now)),
      oversized: false,
    };
    if (change.oldMode) file.oldMode = change.oldMode;
    if (change.newMode) file.newMode = change.newMode;
    if (file.binary) {
      if (old) file.oldSize = old.length;
      if (now) file.newSize = now.length;
    } else if (file.kind !== "mode") {
      const counts = countLines(old, now);
      if (!counts) return undefined;
      file.added = counts.added;
      file.removed = counts.removed;
    }
    files.push(file);
  }
  return files;
}

function isTypeChange(change: RawChange): boolean {
  return (
    change.oldMode !== undefined &&
    change.newMode !== undefined &&
    (change.oldMode === SYMLINK_MODE) !== (change.newMode === SYMLINK_MODE)
  );
}
