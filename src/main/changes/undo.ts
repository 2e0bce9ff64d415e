import type { FileRefusal, RevertResult } from "../../shared/changes";
import { errorMessage } from "../base/errors";
import type { ShadowRepo } from "./shadow-repo";
import type { Snapshot } from "./snapshot";
import {
  checkParents,
  deletePath,
  type PresentEntry,
  readPresent,
  type StoredEntry,
  UnsafePathError,
  writePath,
} from "./workspace-files";

/** One side of a revert: what a recorded state says a path was. */
export type RecordedEntry =
  | { type: "absent" }
  | { type: "stored"; entry: StoredEntry }
  | { type: "oversized"; size: number };

/** What to put back: the files of `changes`, from the state `from` (which they should still be in) to `to`. */
export interface RevertPlan {
  /** The state the files are expected to be in now: a command's after-state, or a restore's preview. */
  from: Snapshot;
  /** The state to bring them back to: a command's before-state. */
  to: Snapshot;
  /** The files that differ between the two (both sides of a rename). */
  paths: readonly string[];
  /** Paths to put back even though they changed since `from`. */
  undoAnyway: ReadonlySet<string>;
  /** The size limit the snapshots were taken with. */
  maxFileBytes: number;
}

/**
 * Puts the files at `plan.paths` back as `plan.to` had them. A file that no longer matches
 * `plan.from` is a conflict and is left alone unless named in `undoAnyway`; a file over the size limit
 * on either side, or one whose way from the workspace goes through a symbolic link or a file, is refused.
 * Deletions go first (deepest first), so a file that replaced a folder is gone before the folder's files
 * come back.
 */
export async function revert(
  repo: ShadowRepo,
  plan: RevertPlan,
  /** Lists a tree's files; a chain of reverts shares one that lists each tree once (see undo-chain.ts). */
  trees: (tree: string) => Promise<Map<string, StoredEntry>> = (tree) => listTree(repo, tree),
): Promise<RevertResult> {
  const workspace = repo.options.workspace;
  const [fromTree, toTree] = await Promise.all([trees(plan.from.tree), trees(plan.to.tree)]);
  const result: RevertResult = { restored: [], conflicts: [], refused: [] };
  const deletions: string[] = [];
  const writes: { path: string; entry: StoredEntry }[] = [];
  const paths = new Set(plan.paths);
  // Paths this revert deletes (unless they turn out to be conflicts): what stands in their place, a
  // link or file on the way to another path or a folder left by the files under it, will be gone.
  const goes = new Set([...paths].filter((path) => lookup(plan.to, toTree, path).type === "absent"));
  const willBeGone = (path: string) =>
    [...goes].some((gone) => path.startsWith(`${gone}/`)) || folderEmptiedBy(fromTree, path, goes);
  for (const path of [...paths].sort()) {
    const expected = lookup(plan.from, fromTree, path);
    const target = lookup(plan.to, toTree, path);
    if (expected.type === "oversized" || target.type === "oversized") {
      const size = expected.type === "oversized" ? expected.size : (target as { size: number }).size;
      result.refused.push({
        path,
        reason: `over the size limit (${size} bytes): its content was never recorded.`,
      });
      continue;
    }
    let present: PresentEntry;
    try {
      await checkParents(workspace, path);
      present = await readPresent(workspace, path, plan.maxFileBytes);
    } catch (error) {
      // A link or file on the way that this revert deletes first: nothing will stand here then. The
      // write checks the way again, and refuses if the deletion did not happen.
      if (!willBeGone(path)) {
        result.refused.push({ path, reason: errorMessage(error) });
        continue;
      }
      present = { type: "absent" };
    }
    // A folder where a file was, holding only files this revert deletes: it will be empty, and the
    // write removes an empty folder (and refuses one that still holds anything).
    if (present.type === "folder" && willBeGone(path)) present = { type: "absent" };
    if (same(present, target)) {
      result.restored.push(path); // already as it was: nothing to write
      continue;
    }
    if (!same(present, expected) && !plan.undoAnyway.has(path)) {
      result.conflicts.push({ path, reason: `changed since: ${howItDiffers(present, expected)}` });
      continue;
    }
    if (target.type === "absent") deletions.push(path);
    else writes.push({ path, entry: target.entry });
  }
  const depth = (path: string) => path.split("/").length;
  for (const path of deletions.sort((a, b) => depth(b) - depth(a))) {
    await attempt(result, path, () => deletePath(workspace, path));
  }
  for (let at = 0; at < writes.length; at += 64) {
    const batch = writes.slice(at, at + 64);
    const blobs = await repo.readBlobs(batch.map((write) => write.entry.oid));
    for (const { path, entry } of batch) {
      await attempt(result, path, () =>
        writePath(workspace, path, entry.mode, blobs.get(entry.oid) as Buffer),
      );
    }
  }
  result.restored.sort();
  return result;
}

/** Whether `folder` held recorded files in `tree` and this revert deletes every one of them. */
function folderEmptiedBy(tree: Map<string, StoredEntry>, folder: string, goes: ReadonlySet<string>): boolean {
  const inside = [...tree.keys()].filter((path) => path.startsWith(`${folder}/`));
  return inside.length > 0 && inside.every((path) => goes.has(path));
}

async function attempt(result: RevertResult, path: string, task: () => Promise<void>): Promise<void> {
  try {
    await task();
    result.restored.push(path);
  } catch (error) {
    const reason =
      error instanceof UnsafePathError ? error.message : `could not be written: ${errorMessage(error)}`;
    result.refused.push({ path, reason } satisfies FileRefusal);
  }
}

/** Every file of `tree`, by path: `git ls-tree -r -z` (`<mode> <type> <oid>\t<path>\0`). */
export async function listTree(repo: ShadowRepo, tree: string): Promise<Map<string, StoredEntry>> {
  return entriesOf(await repo.run(["ls-tree", "-r", "-z", tree]));
}

/** How many paths one `ls-tree` names (a command line stays far below the system's limit). */
const PATHS_PER_LISTING = 1000;

/**
 * The files of `tree` at `paths` or under them (a path that is a folder there lists its files), taken as
 * literal names: a chain of undos over a big tree reads only what it changed, not the whole tree each time.
 */
export async function listTreePaths(
  repo: ShadowRepo,
  tree: string,
  paths: readonly string[],
): Promise<Map<string, StoredEntry>> {
  const entries = new Map<string, StoredEntry>();
  for (let at = 0; at < paths.length; at += PATHS_PER_LISTING) {
    const some = paths.slice(at, at + PATHS_PER_LISTING);
    const out = await repo.run(["--literal-pathspecs", "ls-tree", "-r", "-z", tree, "--", ...some]);
    for (const [path, entry] of entriesOf(out)) entries.set(path, entry);
  }
  return entries;
}

function entriesOf(listing: Buffer): Map<string, StoredEntry> {
  const entries = new Map<string, StoredEntry>();
  const out = listing.toString("utf8");
  for (const line of out.split("\0")) {
    const tab = line.indexOf("\t");
    if (tab < 0) continue;
    const [mode, , oid] = line.slice(0, tab).split(" ");
    if (mode && oid) entries.set(line.slice(tab + 1), { mode, oid });
  }
  return entries;
}

/** What `snapshot` (whose files `tree` lists) says `path` was. */
export function lookup(snapshot: Snapshot, tree: Map<string, StoredEntry>, path: string): RecordedEntry {
  const oversized = snapshot.oversized[path];
  if (oversized) return { type: "oversized", size: oversized.size };
  const entry = tree.get(path);
  return entry ? { type: "stored", entry } : { type: "absent" };
}

/** Whether what stands at a path now is what a recorded state says. */
export function same(present: PresentEntry, recorded: RecordedEntry): boolean {
  if (recorded.type === "absent") return present.type === "absent";
  if (recorded.type !== "stored" || present.type !== "stored") return false;
  return present.entry.mode === recorded.entry.mode && present.entry.oid === recorded.entry.oid;
}

function howItDiffers(present: PresentEntry, expected: RecordedEntry): string {
  if (present.type === "absent") return "deleted.";
  if (present.type === "folder") return "a folder stands there now.";
  if (present.type === "other") return "it is now a special file or over the size limit.";
  if (expected.type === "absent") return "created again.";
  if (expected.type === "stored" && present.entry.oid === expected.entry.oid) return "its mode changed.";
  return "its content changed.";
}
