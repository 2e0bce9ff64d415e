import { isAbsolute, relative, sep } from "node:path";

/**
 * Whether `path` is `root` itself or lies below it, compared as resolved paths (no `..`, no trailing
 * separator needed). The one containment check behind every security decision about paths (the
 * workspace's reads, the sandbox's mounts, the allowlist's binaries, the home-folder refusal): a prefix
 * test on strings alone would take `/work/app-secrets` to be inside `/work/app`.
 */
export function isInside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === "" || (rel !== ".." && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}
