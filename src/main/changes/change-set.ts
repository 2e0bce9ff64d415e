import type { ChangeSet, FileChange, FileDiff } from "../../shared/changes";
import { changesFromGit } from "./change-set-git";
import { changesInProcess } from "./change-set-in-process";
import type { ShadowRepo } from "./shadow-repo";
import type { Snapshot } from "./snapshot";
import type { StoredObjects } from "./stored-objects";
import { SYMLINK_MODE } from "./workspace-files";

/**
 * The files that differ from `from` to `to`, merged with the oversized files of both sides (which the
 * trees do not hold). Found in this process when it can (see `changesInProcess`: the common case of a
 * command that edits, adds or deletes, with no git process), else by one `git diff-tree -M`.
 */
export async function computeChangeSet(
  repo: ShadowRepo,
  objects: StoredObjects,
  from: Snapshot,
  to: Pick<Snapshot, "tree" | "oversized" | "nested">,
): Promise<ChangeSet> {
  const files = new Map<string, FileChange>();
  if (from.tree !== to.tree) {
    let found = await changesInProcess(objects, from.tree, to.tree);
    if (!found) {
      await objects.flushTrees(); // git reads them from disk
      found = await changesFromGit(repo, from.tree, to.tree);
    }
    for (const change of found) files.set(change.path, change);
  }
  mergeOversized(files, from, to);
  return {
    files: [...files.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)),
    nestedRepositories: to.nested,
  };
}

/** Every path a change set names: both sides of a rename. */
export function pathsOfChanges(changes: ChangeSet): string[] {
  return changes.files.flatMap((file) => (file.oldPath ? [file.oldPath, file.path] : [file.path]));
}

/** Adds (or turns into `modified`) the files over the size limit on either side. */
function mergeOversized(
  files: Map<string, FileChange>,
  from: Pick<Snapshot, "oversized">,
  to: Pick<Snapshot, "oversized">,
): void {
  const paths = new Set([...Object.keys(from.oversized), ...Object.keys(to.oversized)]);
  for (const path of paths) {
    const before = from.oversized[path];
    const after = to.oversized[path];
    if (before && after && before.size === after.size && before.mtimeMs === after.mtimeMs) continue;
    const stored = files.get(path);
    // A small file that grew past the limit shows in the trees as deleted (or the reverse as added).
    const existedBefore = before !== undefined || stored?.kind === "deleted";
    const existsAfter = after !== undefined || stored?.kind === "added";
    const change: FileChange = {
      kind: existedBefore && existsAfter ? "modified" : existsAfter ? "added" : "deleted",
      path,
      added: 0,
      removed: 0,
      binary: false,
      oversized: true,
    };
    if (before) change.oldSize = before.size;
    if (after) change.newSize = after.size;
    files.set(path, change);
  }
}

/** The one-letter code of a kind in the model's summary, as `git status --short` has it. */
const LETTER: Record<FileChange["kind"], string> = {
  added: "A",
  modified: "M",
  deleted: "D",
  renamed: "R",
  mode: "M",
  type: "T",
};

/**
 * A short line for the model: `Files changed: M src/a.ts (+3 -1), A notes.txt, D old.log`, at most
 * `max` files then `and N more`. Bounded, so a command that rewrites ten thousand files costs the
 * model one line.
 */
export function summarizeChangeSet(changes: ChangeSet, max = 20): string {
  if (changes.files.length === 0) return "Files changed: none.";
  const shown = changes.files.slice(0, max).map(describeFile);
  const more = changes.files.length - shown.length;
  return `Files changed: ${shown.join(", ")}${more > 0 ? `, and ${more} more` : ""}.`;
}

function describeFile(file: FileChange): string {
  const name = file.kind === "renamed" ? `${file.oldPath} -> ${file.path}` : file.path;
  const head = `${LETTER[file.kind]} ${name}`;
  if (file.oversized) return `${head} (over the size limit, not recorded)`;
  if (file.binary) return `${head} (binary)`;
  if (file.kind === "mode") return `${head} (mode ${file.oldMode} -> ${file.newMode})`;
  if (file.kind === "type") return `${head} (${typeName(file.oldMode)} -> ${typeName(file.newMode)})`;
  if (file.kind === "modified" || file.kind === "renamed") {
    return file.added || file.removed ? `${head} (+${file.added} -${file.removed})` : head;
  }
  return head;
}

function typeName(mode: string | undefined): string {
  return mode === SYMLINK_MODE ? "symlink" : "file";
}

/**
 * The unified diff of one file of a change set, cut at `maxBytes` (stopping git there). Oversized
 * and binary files have no text, with a note saying why.
 */
export async function diffFile(
  repo: ShadowRepo,
  from: Snapshot,
  to: Snapshot,
  file: FileChange,
  maxBytes: number,
): Promise<FileDiff> {
  if (file.oversized) {
    return { path: file.path, text: "", truncated: false, note: "Over the size limit: not recorded." };
  }
  const paths = file.oldPath ? [file.oldPath, file.path] : [file.path];
  const args = ["diff", "--no-color", "--no-ext-diff", "--no-textconv", "-M", from.tree, to.tree, "--"];
  const { out, truncated } = await repo.runCapped([...args, ...paths.map(literal)], maxBytes);
  const diff: FileDiff = { path: file.path, text: out.toString("utf8"), truncated };
  if (file.binary) diff.note = "Binary: no text diff.";
  return diff;
}

/** A pathspec that means exactly this path (no glob, no magic). */
export function literal(path: string): string {
  return `:(literal)${path}`;
}
