import { EMPTY_TREE } from "./loose-objects";
import type { StoredObjects } from "./stored-objects";
import { TREE_MODE, type TreeEntry } from "./tree-objects";

/** A file's new entry (its git mode and blob id), or null: the file is gone. */
export type TreeEdit = { mode: string; oid: string } | null;

/** Edits below one folder: a file's edit by name, or the edits of a sub-folder. */
type EditNode = Map<string, TreeEdit | EditNode>;

/**
 * The tree `tree` with `edits` (by path, `a/b/c.txt`) applied: files set or removed, folders made on the
 * way, a folder left empty dropped (git records no empty folders). Only the trees on the way to an edit
 * are read and written; the rest are shared with `tree`. Undefined when a tree on the way is readable by
 * git only (packed by a prune): the caller keeps `tree` as it is.
 */
export async function applyTreeEdits(
  objects: StoredObjects,
  tree: string,
  edits: ReadonlyMap<string, TreeEdit>,
): Promise<string | undefined> {
  if (edits.size === 0) return tree;
  const root: EditNode = new Map();
  for (const [path, edit] of edits) {
    const parts = path.split("/");
    let node = root;
    for (const part of parts.slice(0, -1)) {
      let next = node.get(part);
      if (!(next instanceof Map)) {
        next = new Map();
        node.set(part, next);
      }
      node = next;
    }
    node.set(parts[parts.length - 1] as string, edit);
  }
  return apply(objects, tree, root);
}

async function apply(
  objects: StoredObjects,
  tree: string | undefined,
  edits: EditNode,
): Promise<string | undefined> {
  const entries = tree === undefined ? [] : await objects.readTree(tree);
  if (!entries) return undefined;
  const byName = new Map<string, TreeEntry>(entries.map((entry) => [entry.name, entry]));
  for (const [name, edit] of edits) {
    if (edit instanceof Map) {
      const old = byName.get(name);
      const sub = await apply(objects, old?.mode === TREE_MODE ? old.oid : undefined, edit);
      if (sub === undefined) return undefined;
      if (sub === EMPTY_TREE) byName.delete(name);
      else byName.set(name, { name, mode: TREE_MODE, oid: sub });
    } else if (edit === null) byName.delete(name);
    else byName.set(name, { name, mode: edit.mode, oid: edit.oid });
  }
  return objects.writeTree([...byName.values()]);
}
