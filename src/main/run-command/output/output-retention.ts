import { readdir, stat, unlink } from "node:fs/promises";
import { join } from "node:path";

/** How long saved full outputs are kept: long enough to come back to, short enough not to fill a disk. */
export const FULL_OUTPUT_RETENTION_DAYS = 7;

/**
 * Deletes saved full outputs older than `maxAgeDays` from a workspace's output folder. Run when a
 * session opens; a missing folder or a file that vanished meanwhile is not an error. Returns how many
 * files it removed.
 */
export async function pruneFullOutputs(
  dir: string,
  maxAgeDays = FULL_OUTPUT_RETENTION_DAYS,
): Promise<number> {
  const names = await readdir(dir).catch(() => [] as string[]);
  const cutoff = Date.now() - maxAgeDays * 24 * 60 * 60 * 1000;
  let removed = 0;
  for (const name of names) {
    const path = join(dir, name);
    const info = await stat(path).catch(() => null);
    if (info?.isFile() && info.mtimeMs < cutoff) {
      await unlink(path).catch(() => {});
      removed += 1;
    }
  }
  return removed;
}
