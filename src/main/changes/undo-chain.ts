import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { createTwoFilesPatch } from "diff";
import type { RevertResult } from "../../shared/changes";
import { errorMessage } from "../base/errors";
import { changedPaths } from "./changed-paths";
import type { CommandRecord } from "./records";
import type { ShadowRepo } from "./shadow-repo";
import type { StoredObjects } from "./stored-objects";
import { listTreePaths, lookup, type RecordedEntry, revert } from "./undo";
import { checkParents, deletePath, readPresent, type StoredEntry, writePath } from "./workspace-files";

/** What undoing a chain of commands, newest first, does (or would do) to one file. */
export interface ChainFile {
  /** Relative to the workspace, `/` separators. */
  path: string;
  /** Put back to before the oldest command that changed it; left as it is (changed since); or cannot be. */
  outcome: "restored" | "kept" | "refused";
  /** For "kept": another command (of another chat) changed it after the chain's command did, else the person. */
  changedBy?: "person" | "another-chat";
  /** For "kept": from how the chain's command left it to how it is now (bounded), or a note. */
  diff?: string;
  /** For "refused": why. */
  reason?: string;
}

/** The most a kept file's diff carries: the preview is for reading, not for review of a whole file. */
const MAX_DIFF_CHARS = 64 * 1024;

/**
 * What undoing `chain` (complete records, newest first) would do to each file, without touching any:
 * the same steps as `undoChainNow` (each command's undo checks the file against its after-state), played on
 * what stands in the workspace now. A file changed since one of the chain's commands is kept from there on,
 * with who changed it: another of `others` (records outside the chain) that changed it later, else the person.
 */
export async function previewUndoChain(
  repo: ShadowRepo,
  objects: StoredObjects,
  chain: readonly CommandRecord[],
  others: readonly CommandRecord[],
  maxFileBytes: number,
  /** Records to play again after the undos, oldest first (a branch switch: the other branch's changes). */
  redo: readonly CommandRecord[] = [],
): Promise<ChainFile[]> {
  const workspace = repo.options.workspace;
  const touching = new Map<string, Step[]>(); // path -> the steps that change it, in the order they play
  for (const step of stepsOf(chain, redo)) {
    for (const path of await pathsOf(repo, objects, step.record)) {
      touching.set(path, [...(touching.get(path) ?? []), step]);
    }
  }
  const trees = treeCache(repo, [...touching.keys()]);
  const files: ChainFile[] = [];
  for (const path of [...touching.keys()].sort()) {
    let state: Standing;
    try {
      await checkParents(workspace, path);
      state = await readPresent(workspace, path, maxFileBytes);
    } catch (error) {
      files.push({ path, outcome: "refused", reason: errorMessage(error) });
      continue;
    }
    // As `revert` takes each command back: a file already as the command found it is left, one as the
    // command left it goes back, any other is a conflict (left as it stands) and the older commands go on.
    // A redo is the same step the other way: from the record's before-state to its after-state.
    let refused = false;
    let last: RecordedEntry | undefined;
    let conflict: { record: CommandRecord; after: RecordedEntry } | undefined;
    for (const { record, redo } of touching.get(path) ?? []) {
      if (!record.after) continue;
      const after = lookup(record.after, await trees(record.after.tree), path);
      const before = lookup(record.before, await trees(record.before.tree), path);
      if (after.type === "oversized" || before.type === "oversized") {
        refused = true;
        break;
      }
      const [from, to] = redo ? [before, after] : [after, before];
      last = to;
      if (sameState(state, to)) continue;
      if (sameState(state, from)) state = standing(to);
      else conflict ??= { record, after: from };
    }
    let file: ChainFile = { path, outcome: "restored" };
    if (refused) {
      file = { path, outcome: "refused", reason: "over the size limit: its content was never recorded." };
    } else if (conflict && !(last && sameState(state, last))) {
      const present = await readPresent(workspace, path, maxFileBytes).catch(() => undefined);
      const byOthers =
        present !== undefined &&
        (await changedByOthers(repo, objects, conflict.record, others, path, present, trees));
      file = {
        path,
        outcome: "kept",
        changedBy: byOthers ? "another-chat" : "person",
        diff: await diffNow(repo, path, conflict.after, maxFileBytes),
      };
    }
    files.push(file);
  }
  return files;
}

/**
 * Undoes `chain` (complete records, newest first), one command after the other as the card's undo does:
 * a file changed since a command is a conflict for that command, and stays as it stands.
 */
export async function undoChainNow(
  repo: ShadowRepo,
  objects: StoredObjects,
  chain: readonly CommandRecord[],
  maxFileBytes: number,
  /** Records to play again after the undos, oldest first: each from its before-state to its after-state. */
  redo: readonly CommandRecord[] = [],
): Promise<RevertResult[]> {
  const results: RevertResult[] = [];
  const steps = stepsOf(chain, redo);
  const paths = new Set<string>();
  for (const { record } of steps) for (const path of await pathsOf(repo, objects, record)) paths.add(path);
  const trees = treeCache(repo, [...paths]);
  for (const { record, redo: again } of steps) {
    if (!record.after) continue;
    results.push(
      await revert(
        repo,
        {
          from: again ? record.before : record.after,
          to: again ? record.after : record.before,
          paths: await pathsOf(repo, objects, record),
          undoAnyway: new Set(),
          maxFileBytes,
        },
        trees,
      ),
    );
  }
  return results;
}

/**
 * Writes into `target` (another folder of the same repository: a fork's new worktree) each path the chain's
 * records (oldest first) changed, as the oldest of them found it: the files as they were before the chain.
 * The chain's own folder is not touched. A path over the size limit, or one whose way in `target` goes
 * through a link or a file, is refused.
 */
export async function writeBeforeChain(
  repo: ShadowRepo,
  objects: StoredObjects,
  chain: readonly CommandRecord[],
  target: string,
): Promise<RevertResult> {
  const result: RevertResult = { restored: [], conflicts: [], refused: [] };
  const oldest = new Map<string, CommandRecord>();
  for (const record of chain) {
    for (const path of await pathsOf(repo, objects, record)) if (!oldest.has(path)) oldest.set(path, record);
  }
  const trees = treeCache(repo, [...oldest.keys()]);
  const deletions: string[] = [];
  const writes: { path: string; entry: StoredEntry }[] = [];
  for (const [path, record] of oldest) {
    const before = lookup(record.before, await trees(record.before.tree), path);
    if (before.type === "oversized") {
      result.refused.push({ path, reason: `over the size limit (${before.size} bytes): never recorded.` });
    } else if (before.type === "absent") deletions.push(path);
    else writes.push({ path, entry: before.entry });
  }
  const depth = (path: string) => path.split("/").length;
  const attempt = async (path: string, task: () => Promise<void>) => {
    try {
      await task();
      result.restored.push(path);
    } catch (error) {
      result.refused.push({ path, reason: errorMessage(error) });
    }
  };
  for (const path of deletions.sort((a, b) => depth(b) - depth(a))) {
    await attempt(path, () => deletePath(target, path));
  }
  const blobs = await repo.readBlobs(writes.map((write) => write.entry.oid));
  for (const { path, entry } of writes) {
    await attempt(path, () => writePath(target, path, entry.mode, blobs.get(entry.oid) as Buffer));
  }
  result.restored.sort();
  return result;
}

/** One step of a chain: a record taken back (its after-state to its before-state), or played again. */
interface Step {
  record: CommandRecord;
  redo: boolean;
}

function stepsOf(undo: readonly CommandRecord[], redo: readonly CommandRecord[]): Step[] {
  return [
    ...undo.map((record) => ({ record, redo: false })),
    ...redo.map((record) => ({ record, redo: true })),
  ];
}

/**
 * The paths a record changed (both sides of a rename), found once per record: a preview asks for each of
 * the chain's and the others' records, the chain again, and each kept file again. Records are replaced, never
 * changed, when saved, so the record itself is the key.
 */
const pathsByRecord = new WeakMap<CommandRecord, Promise<string[]>>();
function pathsOf(repo: ShadowRepo, objects: StoredObjects, record: CommandRecord): Promise<string[]> {
  let paths = pathsByRecord.get(record);
  if (!paths) {
    paths = changedPaths(repo, objects, record);
    pathsByRecord.set(record, paths);
    // A failure (a git process that could not run) is not kept: the next ask tries again.
    paths.catch(() => pathsByRecord.delete(record));
  }
  return paths;
}

/**
 * Lists trees once each (consecutive records share them: one command's after is most often the next's
 * before), and only at the chain's paths: a 100,000-file tree listed whole cost most of a rewind's time.
 */
function treeCache(
  repo: ShadowRepo,
  paths: readonly string[],
): (tree: string) => Promise<Map<string, StoredEntry>> {
  const lists = new Map<string, Promise<Map<string, StoredEntry>>>();
  return (tree) => {
    if (!tree) return Promise.resolve(new Map());
    let list = lists.get(tree);
    if (!list) {
      list = listTreePaths(repo, tree, paths);
      lists.set(tree, list);
    }
    return list;
  };
}

/** What stands at a path: now, or after a step of the chain played on it. */
type Standing =
  | { type: "absent" }
  | { type: "stored"; entry: StoredEntry }
  | { type: "folder" }
  | { type: "other" };

/**
 * Whether what stands is what a recorded state says. A folder where the record has nothing counts as nothing:
 * the files under it are paths of the chain of their own, and the undo removes the folder once they are gone
 * (it refuses a folder that still holds anything).
 */
function sameState(state: Standing, recorded: RecordedEntry): boolean {
  if (recorded.type === "absent") return state.type === "absent" || state.type === "folder";
  return (
    recorded.type === "stored" &&
    state.type === "stored" &&
    state.entry.mode === recorded.entry.mode &&
    state.entry.oid === recorded.entry.oid
  );
}

/** A recorded state as what would stand at its path. */
function standing(recorded: RecordedEntry): Standing {
  return recorded.type === "stored" ? { type: "stored", entry: recorded.entry } : { type: "absent" };
}

/**
 * Whether a record outside the chain, started after `record`, changed `path` and left it as it stands now
 * (one whose work the person changed again, such as what a rewind put back, does not count).
 */
async function changedByOthers(
  repo: ShadowRepo,
  objects: StoredObjects,
  record: CommandRecord,
  others: readonly CommandRecord[],
  path: string,
  present: Standing,
  trees: (tree: string) => Promise<Map<string, StoredEntry>>,
): Promise<boolean> {
  for (const other of others) {
    if (!other.after || other.before.startedAt < record.before.startedAt) continue;
    if (!(await pathsOf(repo, objects, other)).includes(path)) continue;
    if (sameState(present, lookup(other.after, await trees(other.after.tree), path))) return true;
  }
  return false;
}

/** How a file differs now from how a command left it: a unified diff of text, or a note. */
async function diffNow(
  repo: ShadowRepo,
  path: string,
  left: RecordedEntry,
  maxFileBytes: number,
): Promise<string> {
  const before =
    left.type === "stored"
      ? ((await repo.readBlobs([left.entry.oid])).get(left.entry.oid) ?? Buffer.alloc(0))
      : undefined;
  const now = await readFile(join(repo.options.workspace, path)).catch(() => undefined);
  if (now && now.length > maxFileBytes) return "Over the size limit: no diff.";
  if ((before && isBinary(before)) || (now && isBinary(now))) return "Binary file: changed since.";
  const patch = createTwoFilesPatch(
    before ? `a/${path}` : "/dev/null",
    now ? `b/${path}` : "/dev/null",
    before?.toString("utf8") ?? "",
    now?.toString("utf8") ?? "",
    "",
    "",
    { context: 3 },
  );
  // The two header lines of `createTwoFilesPatch` ("====" and "Index") are not git's; drop the first.
  const text = patch.replace(/^=+\n/, "");
  return text.length > MAX_DIFF_CHARS ? `${text.slice(0, MAX_DIFF_CHARS)}\n… (cut)` : text;
}

/** git's rule: a NUL byte in the first 8,000 bytes makes a file binary. */
function isBinary(content: Buffer): boolean {
  return content.subarray(0, 8000).includes(0);
}
