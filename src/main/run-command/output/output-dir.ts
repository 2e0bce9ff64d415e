import { randomBytes } from "node:crypto";
import { mkdir, mkdtemp, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

/* Where full-output files go, and what they are called. */

let defaultOutputDir: string | undefined;

/** The caller's directory (made 0700 if missing), or one private directory per host process. */
export async function resolveOutputDir(outputDir: string | undefined): Promise<string> {
  if (outputDir !== undefined) {
    await mkdir(outputDir, { recursive: true, mode: 0o700 });
    return outputDir;
  }
  // Made again (fresh, never re-created by name) when a temp cleaner removed it during a long session.
  const current = defaultOutputDir;
  const stillThere = current !== undefined && (await stat(current).catch(() => undefined)) !== undefined;
  if (stillThere) return current;
  const made = await mkdtemp(join(tmpdir(), "pi-desk-output-"));
  defaultOutputDir = made;
  return made;
}

/** A readable name, so the path told to the model also says when and what it is. */
export function outputFileName(): string {
  const stamp = new Date().toISOString().replace(/[:.]/g, "-").replace("Z", "");
  return `run-${stamp}-${randomBytes(4).toString("hex")}.log`;
}
