import { createHash } from "node:crypto";
import { lstat, mkdir, mkdtemp, readdir, readFile, readlink, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { ChangeRecorder, type ChangeRecorderOptions } from "../../../src/main/changes";

/** A workspace, the engine's data folder and a folder outside both, all under one temp folder. */
export interface Scratch {
  root: string;
  workspace: string;
  dataDir: string;
  outside: string;
}

export async function makeScratch(): Promise<Scratch> {
  const root = await mkdtemp(join(tmpdir(), "pi-desk-changes-"));
  const scratch = {
    root,
    workspace: join(root, "workspace"),
    dataDir: join(root, "data", "changes"),
    outside: join(root, "outside"),
  };
  await mkdir(scratch.workspace, { recursive: true });
  await mkdir(scratch.outside, { recursive: true });
  return scratch;
}

export async function removeScratch(scratch: Scratch): Promise<void> {
  await rm(scratch.root, { recursive: true, force: true });
}

export async function openRecorder(
  scratch: Scratch,
  options: Partial<ChangeRecorderOptions> = {},
): Promise<ChangeRecorder> {
  return ChangeRecorder.open({ workspace: scratch.workspace, dataDir: scratch.dataDir, ...options });
}

/** Writes `content` at `path` under `root`, creating folders, with `mode` when given. */
export async function put(root: string, path: string, content: string | Buffer, mode = 0o644): Promise<void> {
  await mkdir(dirname(join(root, path)), { recursive: true });
  await writeFile(join(root, path), content, { mode });
  const { chmod } = await import("node:fs/promises");
  await chmod(join(root, path), mode);
}

/**
 * Every file and link under `root` (skipping the folders named in `skip`), by path: a regular file as
 * its permission bits and a hash of its bytes, a link as its target. What "byte for byte, mode for
 * mode" compares.
 */
export async function listing(root: string, skip: readonly string[] = []): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const walk = async (dir: string, prefix: string): Promise<void> => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const path = prefix ? `${prefix}/${entry.name}` : entry.name;
      if (skip.includes(path)) continue;
      const full = join(dir, entry.name);
      const stat = await lstat(full);
      if (stat.isSymbolicLink()) out[path] = `link -> ${await readlink(full)}`;
      else if (stat.isDirectory()) await walk(full, path);
      else {
        const hash = createHash("sha256")
          .update(await readFile(full))
          .digest("hex")
          .slice(0, 16);
        out[path] = `${(stat.mode & 0o777).toString(8)} ${hash}`;
      }
    }
  };
  await walk(root, "");
  return out;
}
