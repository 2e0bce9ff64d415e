import { realpath, stat } from "node:fs/promises";
import { homedir } from "node:os";
import { basename, isAbsolute, resolve } from "node:path";
import type { WorkspaceInfo } from "../../shared/host-state";
import { isInside } from "../base/paths";

/** A folder that may be opened as a workspace, before the host gives it an id. */
export type WorkspaceFolder = Omit<WorkspaceInfo, "id">;

/** Check that a path is an existing folder and describe it; the error says what to fix. */
export async function resolveWorkspace(path: string): Promise<WorkspaceFolder> {
  if (!isAbsolute(path)) {
    throw new Error(`The workspace must be an absolute path, got "${path}". Give the full path of a folder.`);
  }
  const full = resolve(path);
  const info = await stat(full).catch(() => null);
  if (!info) throw new Error(`The workspace folder "${full}" does not exist. Choose an existing folder.`);
  if (!info.isDirectory())
    throw new Error(`The workspace "${full}" is a file, not a folder. Choose a folder.`);
  const real = await realpath(full);
  const home = await realpath(homedir()).catch(() => homedir());
  if (isInside(real, home)) {
    // Commands may write anywhere in the workspace, even in the sandbox: here that would be ~/.bashrc,
    // ~/.ssh and every other project.
    throw new Error(
      `"${full}" holds your home folder, so commands run in it could change your shell's startup files, ` +
        "keys and other projects. Open the folder of one project (a repository) instead.",
    );
  }
  return { path: full, name: basename(full) || full };
}
