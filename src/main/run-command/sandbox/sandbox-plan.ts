import { posix } from "node:path";
import { isInside } from "../../base/paths";

/** What a sandboxed command may do with a path and everything under it; the rest of the disk is read-only. */
export type PathAccess =
  /** Read and write: the workspace, the private temporary folder, the command's HOME. */
  | "read-write"
  /** Readable again inside a hidden folder: the full-output files the model is told to read. */
  | "read-only"
  /** Not readable and not writable: the person's home, the host's data folders, daemon sockets. */
  | "hidden"
  /** Empty, writable and thrown away when the command ends (Linux `/tmp`); hidden where that cannot be done. */
  | "scratch";

/** One path rule of a sandbox. */
export interface PathRule {
  /** Absolute path with symlinks resolved: mounts and Seatbelt both act on real paths. */
  path: string;
  /** What the command may do there. */
  access: PathAccess;
  /** Whether it is a folder; a hidden file is covered by an empty file rather than an empty folder. */
  directory: boolean;
}

/** Everything a sandbox backend needs to know, free of platform details. */
export interface SandboxPlan {
  /** The workspace (real path): the command's working directory. */
  workspace: string;
  /** The rules, shallow to deep and without redundant ones: for any path, the deepest rule above it decides. */
  rules: PathRule[];
  /** Whether the command may use the whole network (allowed hosts have none: the proxy is their way out). */
  network: boolean;
  /**
   * The command's network proxy on the host's loopback, the one place it may connect to (allowed hosts under
   * Seatbelt, which has no network namespace); absent otherwise.
   */
  proxyPorts?: number[];
}

/** When two rules name the same path, the one that grants more wins: the workspace beats a hidden home it is. */
const PRECEDENCE: Record<PathAccess, number> = { "read-write": 4, "read-only": 3, scratch: 2, hidden: 1 };

/**
 * Orders rules so that applying them in turn (mounts) or reading them by depth (Seatbelt) gives each path the
 * deepest rule above it: a workspace inside the hidden home stays visible, a data folder inside the workspace
 * stays hidden. Drops "/" (hiding or replacing the root would leave nothing to run) and rules that change
 * nothing because the rule they sit in already says the same.
 */
export function orderRules(rules: readonly PathRule[]): PathRule[] {
  const byPath = new Map<string, PathRule>();
  for (const rule of rules) {
    const path = posix.normalize(rule.path).replace(/(.)\/+$/, "$1");
    if (!posix.isAbsolute(path) || path === "/") continue;
    const seen = byPath.get(path);
    if (!seen || PRECEDENCE[rule.access] > PRECEDENCE[seen.access]) byPath.set(path, { ...rule, path });
  }
  const sorted = [...byPath.values()].sort(
    (a, b) => depth(a.path) - depth(b.path) || compare(a.path, b.path),
  );
  const kept: PathRule[] = [];
  for (const rule of sorted) {
    const parent = innermostAbove(kept, rule.path);
    // Inside a folder rule of the same access it changes nothing (a hidden file in a hidden folder is gone
    // already); neither does a read-only rule under no rule at all, since the whole disk is read-only.
    if (parent?.directory && parent.access === rule.access) continue;
    if (!parent && rule.access === "read-only") continue;
    kept.push(rule);
  }
  return kept;
}

/** The deepest rule that contains `path` (itself excluded). */
export function innermostAbove(rules: readonly PathRule[], path: string): PathRule | undefined {
  let found: PathRule | undefined;
  for (const rule of rules) {
    if (isInside(rule.path, path) && rule.path !== path && (!found || depth(rule.path) > depth(found.path))) {
      found = rule;
    }
  }
  return found;
}

/** Number of path components: "/a/b" is 2. */
function depth(path: string): number {
  return path.split("/").filter(Boolean).length;
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
