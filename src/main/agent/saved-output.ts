import { open } from "node:fs/promises";
import type { FullOutputChunk } from "../../shared/desk-api";
import { FULL_OUTPUT_RETENTION_DAYS } from "../run-command";

/** How much of a saved output one call returns: enough for a screenful, small enough for one message. */
const CHUNK_BYTES = 256 * 1024;

/** A piece of a saved full output, from `offset`; a file removed by retention or the quota says so. */
export async function readSavedOutput(path: string, offset: number): Promise<FullOutputChunk> {
  const file = await open(path, "r").catch((error: NodeJS.ErrnoException) => {
    if (error.code !== "ENOENT") throw error;
    throw new Error(
      `The saved output ${path} is gone: saved outputs are kept for ${FULL_OUTPUT_RETENTION_DAYS} days and within the workspace's quota, the oldest removed first. Run the command again to see it.`,
    );
  });
  try {
    const { size } = await file.stat();
    const buffer = Buffer.alloc(Math.max(0, Math.min(CHUNK_BYTES, size - offset)));
    const { bytesRead } = await file.read(buffer, 0, buffer.length, offset);
    return {
      text: buffer.subarray(0, bytesRead).toString("utf8"),
      nextOffset: offset + bytesRead,
      totalBytes: size,
      path,
    };
  } finally {
    await file.close();
  }
}
