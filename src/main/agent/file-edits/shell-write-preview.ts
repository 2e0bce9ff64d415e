import { readFileSync, statSync } from "node:fs";
import { dirname } from "node:path";
import type { WritePreview, WritePreviewFile } from "../../../shared/commands";
import { MAX_EDIT_BYTES } from "../../../shared/edits";
import { finalContents, type ParsedCommandLine, readShellWrites } from "../../run-command";
import { editTarget, type HiddenPaths } from "./edit-target";
import { proposedDiff } from "./proposed-diff";

/**
 * What a pending command will write, as diffs the card shows before it runs, or undefined when that is not
 * known exactly. The shell module reads the writes (`cat > f <<'EOF'`, `printf … > f`, `tee f <<'EOF'`);
 * this checks every target as an edit's would be checked and reads the files as they are. Any doubt gives
 * no preview at all, never a partial or a wrong one: a target outside the workspace, in `.git` or the
 * host's data, two spellings of one real file, a binary or oversized file, a folder that will not exist.
 */
export function shellWritePreview(
  parsed: ParsedCommandLine,
  root: string,
  hidden: HiddenPaths,
  command: string,
): WritePreview | undefined {
  try {
    const { writes, folders, stoppedAt } = readShellWrites(parsed, root);
    if (writes.length === 0) return undefined;
    const real = new Map<string, string>();
    for (const write of writes) {
      const target = editTarget(root, hidden, write.path);
      // Two names for one file (a link) would make the folded content wrong.
      const other = [...real.entries()].find(([path, abs]) => abs === target.absolute && path !== write.path);
      if (other) return undefined;
      real.set(write.path, target.absolute);
      if (!folderWillExist(dirname(target.absolute), folders)) return undefined;
    }
    const current = new Map<string, string | undefined>();
    for (const [path, abs] of real) {
      const text = currentText(abs);
      if (text === null) return undefined;
      current.set(path, text);
    }
    const files: WritePreviewFile[] = [];
    for (const [path, content] of finalContents(writes, (path) => current.get(path))) {
      if (Buffer.byteLength(content, "utf8") > MAX_EDIT_BYTES) return undefined;
      const before = current.get(path);
      const target = editTarget(root, hidden, path);
      files.push({ path: target.path, isNew: before === undefined, diff: proposedDiff(before, content) });
    }
    const then = stoppedAt === undefined ? undefined : command.slice(stoppedAt).trim();
    return { files, ...(then ? { then } : {}) };
  } catch {
    return undefined;
  }
}

/** A file's text now: undefined when there is none, null when it cannot be previewed (binary, too big, not a file). */
function currentText(path: string): string | undefined | null {
  const info = statSync(path, { throwIfNoEntry: false });
  if (!info) return undefined;
  if (!info.isFile() || info.size > MAX_EDIT_BYTES) return null;
  const bytes = readFileSync(path);
  if (bytes.includes(0)) return null;
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
}

/** Whether a folder exists, or the line makes it (`mkdir -p`) before it writes there. */
function folderWillExist(folder: string, made: readonly string[]): boolean {
  return statSync(folder, { throwIfNoEntry: false })?.isDirectory() === true || made.includes(folder);
}
