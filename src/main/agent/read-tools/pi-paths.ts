import { existsSync, lstatSync, realpathSync } from "node:fs";
import { homedir } from "node:os";
import { basename, dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** Pi's `UNICODE_SPACES`: typed paths may hold them where a plain space was meant. */
const UNICODE_SPACES = /[\u00A0\u2000-\u200A\u202F\u205F\u3000]/g;

/** A path as Pi's tools resolve it (`resolveToCwd` in Pi 1.6): spaces, `@` prefix, `~`, `file://`. */
export function resolveLikePi(input: string, cwd: string): string {
  let path = input.replace(UNICODE_SPACES, " ");
  if (path.startsWith("@")) path = path.slice(1);
  if (path === "~") return homedir();
  if (path.startsWith("~/")) path = join(homedir(), path.slice(2));
  if (path.startsWith("file://")) path = fileURLToPath(path);
  return resolve(cwd, path);
}

/**
 * The file Pi's `read` opens (`resolveReadPathAsync` in Pi 1.6): the path, or the first of its macOS
 * spellings that exists (narrow space before AM/PM, NFD, curly apostrophe, both).
 */
export async function readTarget(input: string, cwd: string): Promise<string> {
  const resolved = resolveLikePi(input, cwd);
  const nfd = resolved.normalize("NFD");
  const curly = (path: string) => path.replace(/'/g, "\u2019");
  const candidates = [
    resolved,
    resolved.replace(/ (AM|PM)\./gi, "\u202F$1."),
    nfd,
    curly(resolved),
    curly(nfd),
  ];
  return candidates.find((path) => existsSync(path)) ?? resolved;
}

/** The real path of `path`, or of its deepest existing folder with the rest appended. */
export function realExisting(path: string): string {
  return realPath(path, false) as string;
}

/**
 * realExisting for a path about to be written: undefined when a part of it is a symbolic link to nothing
 * (a write through it would create the link's target, wherever that is).
 */
export function realWriteTarget(path: string): string | undefined {
  return realPath(path, true);
}

function realPath(path: string, refuseDangling: boolean): string | undefined {
  try {
    return realpathSync(path);
  } catch {
    if (refuseDangling && isLink(path)) return undefined;
    const parent = dirname(path);
    if (parent === path) return path;
    const above = realPath(parent, refuseDangling);
    return above === undefined ? undefined : join(above, basename(path));
  }
}

function isLink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}
