import type { FileChange } from "../../shared/changes";
import type { ShadowRepo } from "./shadow-repo";
import { SYMLINK_MODE } from "./workspace-files";

/**
 * The files that differ from tree `from` to tree `to` by one `git diff-tree` (raw entries for kinds and
 * modes, numstat for line counts, rename detection on, with git's similarity measure), plus one
 * `cat-file --batch-check` for the sizes of binary files. The path for what the in-process one leaves
 * to git: renames, type changes, trees git packed.
 */
export async function changesFromGit(repo: ShadowRepo, from: string, to: string): Promise<FileChange[]> {
  const out = await repo.run(["diff-tree", "-r", "-z", "-M", "--raw", "--numstat", from, to]);
  const changes = parseDiffTree(out.toString("utf8"));
  await addBinarySizes(repo, changes);
  return changes.map(({ oldOid: _old, newOid: _new, ...change }) => change);
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
function parseDiffTree(text: string): RawEntry[] {
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
async function addBinarySizes(repo: ShadowRepo, files: readonly RawEntry[]): Promise<void> {
  const binary = files.filter((file) => file.binary);
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
