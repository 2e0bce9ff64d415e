import type { StoredObjects } from "./stored-objects";
import { TREE_MODE, type TreeEntry } from "./tree-objects";

/** One file that differs between two trees: a side is absent where the file was added or deleted. */
export interface RawChange {
  path: string;
  oldMode?: string;
  newMode?: string;
  oldOid?: string;
  newOid?: string;
}

/**
 * The files that differ from tree `from` to tree `to`, found as `git diff-tree -r` does (without rename
 * detection): folders whose tree ids are equal are skipped whole, so the cost follows what changed, not
 * the workspace's size. Undefined when a tree is not readable in this process (packed: ask git).
 */
export async function diffTrees(
  objects: StoredObjects,
  from: string,
  to: string,
): Promise<RawChange[] | undefined> {
  const out: RawChange[] = [];
  return (await walk(objects, from, to, "", out)) ? out : undefined;
}

async function walk(
  objects: StoredObjects,
  from: string | undefined,
  to: string | undefined,
  prefix: string,
  out: RawChange[],
): Promise<boolean> {
  const before = from === undefined ? [] : await objects.readTree(from);
  const after = to === undefined ? [] : await objects.readTree(to);
  if (!before || !after) return false;
  const old = new Map(before.map((entry) => [entry.name, entry]));
  const now = new Map(after.map((entry) => [entry.name, entry]));
  for (const name of new Set([...old.keys(), ...now.keys()])) {
    const a = old.get(name);
    const b = now.get(name);
    if (a && b && a.oid === b.oid && a.mode === b.mode) continue;
    const path = prefix + name;
    const aTree = a?.mode === TREE_MODE ? a : undefined;
    const bTree = b?.mode === TREE_MODE ? b : undefined;
    if (aTree || bTree) {
      // A folder on either side: its files are compared one by one (a file replaced by a folder is
      // the file deleted and the folder's files added, as git has it).
      if (!(await walk(objects, aTree?.oid, bTree?.oid, `${path}/`, out))) return false;
      if (a && !aTree) out.push(side(path, a, undefined));
      if (b && !bTree) out.push(side(path, undefined, b));
      continue;
    }
    out.push(side(path, a, b));
  }
  return true;
}

function side(path: string, a: TreeEntry | undefined, b: TreeEntry | undefined): RawChange {
  const change: RawChange = { path };
  if (a) {
    change.oldMode = a.mode;
    change.oldOid = a.oid;
  }
  if (b) {
    change.newMode = b.mode;
    change.newOid = b.oid;
  }
  return change;
}
