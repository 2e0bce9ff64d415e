import { stat } from "node:fs/promises";
import { basename, isAbsolute, resolve } from "node:path";
import type { WorkspaceInfo } from "../../shared/host-state";

/** Check that a path is an existing folder and describe it; the error says what to fix. */
export async function resolveWorkspace(path: string): Promise<WorkspaceInfo> {
  if (!isAbsolute(path)) {
    throw new Error(`The workspace must be an absolute path, got "${path}". Give the full path of a folder.`);
  }
  const full = resolve(path);
  const info = await stat(full).catch(() => null);
  if (!info) throw new Error(`The workspace folder "${full}" does not exist. Choose an existing folder.`);
  if (!info.isDirectory())
    throw new Error(`The workspace "${full}" is a file, not a folder. Choose a folder.`);
  return { path: full, name: basename(full) || full };
}
