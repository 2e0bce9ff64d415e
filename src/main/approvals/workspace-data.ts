import { createHash, randomUUID } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { mkdir, open, rename, rm } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";

/**
 * The folder that holds one workspace's rules, audit log and saved outputs:
 * `<dataRoot>/workspaces/<first 16 hex of sha256(path)>`, created 0700. A hash rather than the path
 * itself keeps names short and free of separators; `workspace.json` inside says which folder it is for,
 * for a person browsing the data folder.
 */
export function workspaceDataDir(dataRoot: string, workspacePath: string): string {
  const path = resolve(workspacePath);
  const dir = join(dataRoot, "workspaces", createHash("sha256").update(path).digest("hex").slice(0, 16));
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const label = join(dir, "workspace.json");
  const wanted = `${JSON.stringify({ path }, null, 2)}\n`;
  if (readIfPresent(label) !== wanted) writeFileSync(label, wanted, { mode: 0o600 });
  return dir;
}

/** The workspace's "always allow / always deny" rules, in a workspace data folder. */
export function rulesFile(dir: string): string {
  return join(dir, "rules.json");
}

/** The workspace's append-only audit log (JSON lines), in a workspace data folder. */
export function auditFile(dir: string): string {
  return join(dir, "audit.jsonl");
}

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

function readIfPresent(file: string): string | undefined {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return undefined;
  }
}

/**
 * Runs `task` after every task queued before it for the same file in this process, so two writers
 * (two sessions on one workspace, or concurrent appends) never interleave or lose each other's change.
 * Pi's own queue, the one its edit and write tools use.
 */
export { withFileMutationQueue as withFileLock } from "@earendil-works/pi-coding-agent";
