import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll } from "vitest";

/** Linux runs the real bubblewrap; other platforms have their own tests (Seatbelt as text). */
export const onLinux = process.platform === "linux";

const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

/**
 * A fresh folder outside /tmp, removed when the test file ends. The sandbox lays an empty tmpfs over /tmp,
 * so a folder there is invisible to commands anyway: files that must be provably hidden or provably
 * unchanged live on the real disk instead (/var/tmp, the Filesystem Hierarchy Standard's disk-backed temp).
 */
export function makeOutsideDir(prefix: string): string {
  const base = existsSync("/var/tmp") ? "/var/tmp" : tmpdir();
  const dir = mkdtempSync(join(base, `pi-desk-${prefix}-`));
  made.push(dir);
  return dir;
}
