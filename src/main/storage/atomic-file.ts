import { randomUUID } from "node:crypto";
import { mkdir, open, rename, rm } from "node:fs/promises";
import { dirname } from "node:path";

/**
 * Replaces `file` with `text` so a reader (or a crash) sees the old content or the new, never half of
 * either: written to a temporary file beside it, flushed, then renamed over it. Mode 0600, parent 0700.
 */
export async function writeFileAtomic(file: string, text: string): Promise<void> {
  await mkdir(dirname(file), { recursive: true, mode: 0o700 });
  const temp = `${file}.${randomUUID()}.tmp`;
  try {
    const handle = await open(temp, "wx", 0o600);
    try {
      await handle.writeFile(text, "utf8");
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, file);
  } catch (error) {
    await rm(temp, { force: true }).catch(() => {});
    throw error;
  }
}

/**
 * Runs `task` after every task queued before it for the same file in this process, so two writers
 * (two sessions on one workspace, or concurrent appends) never interleave or lose each other's change.
 * Pi's own queue, the one its edit and write tools use.
 */
export { withFileMutationQueue as withFileLock } from "@earendil-works/pi-coding-agent";
