import { randomUUID } from "node:crypto";
import type { Stats } from "node:fs";
import { lstat, mkdir, open, readFile, readlink, rename, rm, rmdir, symlink, unlink } from "node:fs/promises";
import { dirname, join } from "node:path";
import { objectId } from "./loose-objects";

/** Git's mode of a symbolic link, an executable file and a plain file. */
export const SYMLINK_MODE = "120000";
const EXECUTABLE_MODE = "100755";
const FILE_MODE = "100644";

/** A file as git records it: its mode and the id of its content. */
export interface StoredEntry {
  /** `100644`, `100755` or `120000`. */
  mode: string;
  /** The blob id of its content (a symbolic link's target for a link). */
  oid: string;
}

/** What stands at a path of the workspace now. */
export type PresentEntry =
  | { type: "absent" }
  | { type: "stored"; entry: StoredEntry; stat: Stats }
  | { type: "folder" }
  | { type: "other"; stat: Stats };

/** A path that may not be written: the reason, for the person. */
export class UnsafePathError extends Error {
  override name = "UnsafePathError";
}

/**
 * Checks every folder on the way from the workspace to `path`, with lstat: none may be a symbolic link
 * (a link would carry the write out of the workspace, or somewhere the workspace does not own) and none
 * a file. Missing folders are fine: they will be created. Throws `UnsafePathError` saying which one.
 */
export async function checkParents(workspace: string, path: string): Promise<void> {
  const parts = path.split("/");
  // `.git` in any case: on a case-insensitive disk `.GIT` is the workspace's own repository.
  if (parts.some((part) => part === "" || part === "." || part === ".." || part.toLowerCase() === ".git")) {
    throw new UnsafePathError(`"${path}" is not a plain path inside the workspace.`);
  }
  let at = workspace;
  for (const part of parts.slice(0, -1)) {
    at = join(at, part);
    const stat = await lstat(at).catch(() => undefined);
    if (!stat) return;
    if (stat.isSymbolicLink()) {
      throw new UnsafePathError(
        `its folder "${relativeTo(workspace, at)}" is now a symbolic link; nothing is written through links.`,
      );
    }
    if (!stat.isDirectory()) {
      throw new UnsafePathError(`"${relativeTo(workspace, at)}" is now a file where a folder is needed.`);
    }
  }
}

/** What stands at `path` now, hashed as git would for a regular file or link up to `maxBytes`. */
export async function readPresent(workspace: string, path: string, maxBytes: number): Promise<PresentEntry> {
  const file = join(workspace, path);
  const stat = await lstat(file).catch(() => undefined);
  if (!stat) return { type: "absent" };
  if (stat.isDirectory()) return { type: "folder" };
  if (stat.isSymbolicLink()) {
    const target = await readlink(file, { encoding: "buffer" });
    return { type: "stored", entry: { mode: SYMLINK_MODE, oid: blobId(target) }, stat };
  }
  if (!stat.isFile() || stat.size > maxBytes) return { type: "other", stat };
  const mode = stat.mode & 0o100 ? EXECUTABLE_MODE : FILE_MODE;
  return { type: "stored", entry: { mode, oid: blobId(await readFile(file)) }, stat };
}

/** Git's id of a blob with `content` (SHA-1, the shadow repository's object format). */
export function blobId(content: Buffer): string {
  return objectId("blob", content);
}

/**
 * Deletes the file or link at `path` (never what a link points to). A folder is not removed: the
 * caller's plan only deletes what the recorded state had as a file or link.
 */
export async function deletePath(workspace: string, path: string): Promise<void> {
  await checkParents(workspace, path);
  const file = join(workspace, path);
  const stat = await lstat(file).catch(() => undefined);
  if (!stat) return;
  if (stat.isDirectory()) throw new UnsafePathError(`"${path}" is a folder now; it was left alone.`);
  await unlink(file);
}

/**
 * Writes `content` at `path` as `mode` says: a regular file (with the exec bit as recorded, other
 * permission bits kept from the file it replaces) or a symbolic link (the content is its target). The
 * new file is made beside the old one and renamed over it, so a reader never sees half of it and a link
 * standing there is replaced, not followed. Missing folders are created, each checked first.
 */
export async function writePath(
  workspace: string,
  path: string,
  mode: string,
  content: Buffer,
): Promise<void> {
  await makeFolders(workspace, path);
  const file = join(workspace, path);
  const existing = await lstat(file).catch(() => undefined);
  if (existing?.isDirectory()) {
    // An empty folder where the file was (left by the command) goes; one with files is someone's.
    await rmdir(file).catch(() => {
      throw new UnsafePathError(`"${path}" is a folder with files in it now; it was left alone.`);
    });
  }
  const temp = join(dirname(file), `.pi-desk-undo-${randomUUID()}`);
  try {
    if (mode === SYMLINK_MODE) {
      await symlink(content, temp);
    } else {
      const base = existing?.isFile() ? existing.mode & 0o666 : 0o644;
      const permissions = mode === EXECUTABLE_MODE ? base | ((base & 0o444) >> 2) : base;
      const handle = await open(temp, "wx", permissions);
      try {
        await handle.writeFile(content);
        await handle.chmod(permissions); // the umask narrowed open()'s mode; set it exactly
      } finally {
        await handle.close();
      }
    }
    await rename(temp, file);
  } catch (error) {
    await rm(temp, { force: true }).catch(() => {});
    throw error;
  }
}

async function makeFolders(workspace: string, path: string): Promise<void> {
  await checkParents(workspace, path);
  let at = workspace;
  for (const part of path.split("/").slice(0, -1)) {
    at = join(at, part);
    // mkdir does not follow a link at `at` (EEXIST), and checkParents refused links already.
    await mkdir(at).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== "EEXIST") throw error;
    });
    const stat = await lstat(at);
    if (!stat.isDirectory()) throw new UnsafePathError(`"${relativeTo(workspace, at)}" is not a folder.`);
  }
}

function relativeTo(workspace: string, path: string): string {
  return path.slice(workspace.length + 1);
}
