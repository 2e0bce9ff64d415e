import type { CommandRecord } from "./records";
import type { ShadowRepo } from "./shadow-repo";
import type { Snapshot } from "./snapshot";
import type { StoredObjects } from "./stored-objects";
import { diffTrees } from "./tree-diff";

/**
 * The paths a command changed (both sides of a rename, as two paths), for what takes it back: an undo
 * needs paths, not kinds, line counts or renames. So no blob is read and git's rename detection (one
 * `diff-tree -M` per command, most of a rewind's time) never runs: the trees are walked in this process,
 * or by one `git diff-tree --no-renames --name-only` where it cannot read them. Files over the size limit
 * on either side count when their size or time differs, as in the change set.
 */
export async function changedPaths(
  repo: ShadowRepo,
  objects: StoredObjects,
  record: CommandRecord,
): Promise<string[]> {
  const { before, after } = record;
  if (!after) return [];
  const paths = new Set<string>();
  if (before.tree !== after.tree) {
    const raw = await diffTrees(objects, before.tree, after.tree);
    if (raw) for (const change of raw) paths.add(change.path);
    else for (const path of await pathsFromGit(repo, objects, before.tree, after.tree)) paths.add(path);
  }
  for (const path of oversizedChanged(before, after)) paths.add(path);
  return [...paths].sort();
}

async function pathsFromGit(repo: ShadowRepo, objects: StoredObjects, from: string, to: string) {
  await objects.flushTrees(); // git reads them from disk
  const out = await repo.run(["diff-tree", "-r", "-z", "--no-renames", "--name-only", from, to]);
  return out.toString("utf8").split("\0").filter(Boolean);
}

function oversizedChanged(from: Pick<Snapshot, "oversized">, to: Pick<Snapshot, "oversized">): string[] {
  return [...new Set([...Object.keys(from.oversized), ...Object.keys(to.oversized)])].filter((path) => {
    const before = from.oversized[path];
    const after = to.oversized[path];
    return !(before && after && before.size === after.size && before.mtimeMs === after.mtimeMs);
  });
}
