import type { ChangeSet, FileChange, FileDiff } from "../../shared/changes";
import type { ShadowRepo } from "./shadow-repo";
import type { Snapshot } from "./snapshot";

/** Git's mode of a symbolic link. */
const SYMLINK_MODE = "120000";

/**
 * The files that differ from `from` to `to`: one `git diff-tree` (raw entries for kinds and modes,
 * numstat for line counts, rename detection on), merged with the oversized files of both sides, which
 * the trees do not hold.
 */
export async function computeChangeSet(
  repo: ShadowRepo,
  from: Snapshot,
  to: Pick<Snapshot, "oversized" | "nested"> & { tree?: string },
): Promise<ChangeSet> {
  const files = new Map<string, FileChange>();
  if (from.tree !== to.tree) {
    // Without a tree for `to`, the index holds it (a scan whose tree is not written yet): the same
    // output from `diff-index --cached`, one git call fewer on the way back to the model.
    const format = ["-z", "-M", "--raw", "--numstat"];
    const args = to.tree
      ? ["diff-tree", "-r", ...format, from.tree, to.tree]
      : ["diff-index", "--cached", ...format, from.tree];
    const out = await repo.run(args);
    for (const change of parseDiffTree(out.toString("utf8"))) files.set(change.path, change);
    await addBinarySizes(repo, files);
  }
  mergeOversized(files, from, to);
  return {
    files: [...files.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)),
    nestedRepositories: to.nested,
  };
}

/** One raw `diff-tree` entry before its line counts are known. */
interface RawEntry extends FileChange {
  oldOid: string;
  newOid: string;
}

/**
 * Parses `diff-tree -z --raw --numstat`: first every raw entry (`:<old mode> <new mode> <old oid>
 * <new oid> <status>\0<path>\0`, two paths for a rename), then every numstat entry (`<added>\t<removed>\t
 * <path>\0`, or `...\t\0<old>\0<new>\0` for a rename; `-` counts for binary), in the same order.
 */
function parseDiffTree(text: string): FileChange[] {
  const tokens = text.split("\0");
  const raw: RawEntry[] = [];
  let i = 0;
  while (i < tokens.length && tokens[i]?.startsWith(":")) {
    const [oldMode, newMode, oldOid, newOid, status] = (tokens[i] as string).slice(1).split(" ");
    const letter = status?.[0] ?? "M";
    const renamed = letter === "R" || letter === "C";
    const path = tokens[renamed ? i + 2 : i + 1] ?? "";
    const entry: RawEntry = {
      kind: kindOf(letter, oldMode ?? "", newMode ?? "", oldOid ?? "", newOid ?? ""),
      path,
      added: 0,
      removed: 0,
      binary: false,
      oversized: false,
      oldOid: oldOid ?? "",
      newOid: newOid ?? "",
    };
    if (renamed) entry.oldPath = tokens[i + 1];
    if (letter !== "A") entry.oldMode = oldMode;
    if (letter !== "D") entry.newMode = newMode;
    raw.push(entry);
    i += renamed ? 3 : 2;
  }
  for (const entry of raw) {
    const counts = tokens[i]?.split("\t") ?? [];
    i += counts[2] === "" ? 3 : 1; // a rename's numstat names both paths in the next two tokens
    if (counts[0] === "-") entry.binary = true;
    else {
      entry.added = Number(counts[0] ?? 0);
      entry.removed = Number(counts[1] ?? 0);
    }
  }
  return raw;
}

function kindOf(letter: string, oldMode: string, newMode: string, oldOid: string, newOid: string) {
  if (letter === "A") return "added";
  if (letter === "D") return "deleted";
  if (letter === "R") return "renamed";
  if (letter === "T" || (oldMode === SYMLINK_MODE) !== (newMode === SYMLINK_MODE)) return "type";
  if (oldOid === newOid && oldMode !== newMode) return "mode";
  return "modified";
}

/** Sizes of binary files' two sides, from one `git cat-file --batch-check`. */
async function addBinarySizes(repo: ShadowRepo, files: Map<string, FileChange>): Promise<void> {
  const binary = [...files.values()].filter((file) => file.binary) as RawEntry[];
  const zero = /^0+$/;
  const oids = [
    ...new Set(binary.flatMap((file) => [file.oldOid, file.newOid]).filter((oid) => !zero.test(oid))),
  ];
  if (oids.length === 0) return;
  const out = await repo.run(["cat-file", "--batch-check"], { input: `${oids.join("\n")}\n` });
  const sizes = new Map<string, number>();
  for (const line of out.toString("utf8").split("\n")) {
    const [oid, type, size] = line.split(" ");
    if (oid && type === "blob") sizes.set(oid, Number(size));
  }
  for (const file of binary) {
    const oldSize = sizes.get(file.oldOid);
    const newSize = sizes.get(file.newOid);
    if (oldSize !== undefined) file.oldSize = oldSize;
    if (newSize !== undefined) file.newSize = newSize;
  }
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
