import { lstatSync, readFileSync } from "node:fs";
import type { Ignore } from "ignore";
import { type IgnoreStack, parseIgnore } from "./ignore-rules";
import type { FolderNode } from "./scan-nodes";

/**
 * What a scan decides about ignored paths, and what it keeps of it: the workspace's `.gitignore` files
 * as last read (re-read when their stat data moves, each new reading a new generation of the rules),
 * each folder's decisions about the names it does not record (valid for one generation), and how often
 * the `ignore` package's own caches are emptied. The matching itself is `IgnoreStack`'s.
 */

/** Empty the ignore package's caches once this many paths were decided (about 2.5 MB of them). */
const FORGET_AFTER_DECISIONS = 10_000;

/** One `.gitignore` as last read: re-read when its stat data moves. */
export interface IgnoreFile {
  /** Its stat data when read (size, times, inode). */
  key: string;
  /** Its patterns. */
  rules: Ignore;
}

/** The ignore rules a snapshotter's scans share: the `.gitignore` files read, and their generation. */
export interface IgnoreState {
  /** Each folder's `.gitignore` (by the folder's path, `""` or ending in `/`) as last read. */
  ignoreFiles: Map<string, IgnoreFile>;
  /** Moves each time a `.gitignore` is read anew or goes away: decisions of an older one are stale. */
  generation: { value: number };
}

/** One scan's ignore decisions: the rules of each folder it enters, and whether each name is ignored. */
export class IgnoreDecisions {
  /** Ignore decisions made since the rules' caches were last emptied. */
  private decided = 0;

  constructor(private readonly state: IgnoreState) {}

  /** `rules` with this folder's `.gitignore` on top, re-read only when its stat data moved. */
  rulesOf(rel: string, abs: string, has: boolean, rules: IgnoreStack): IgnoreStack {
    const { ignoreFiles, generation } = this.state;
    const stat = has ? lstatSync(`${abs}/.gitignore`, { throwIfNoEntry: false }) : undefined;
    const cached = ignoreFiles.get(rel);
    if (!stat) {
      if (cached) {
        ignoreFiles.delete(rel);
        generation.value++;
      }
      return rules;
    }
    const key = `${stat.size}:${stat.mtimeMs}:${stat.ctimeMs}:${stat.ino}`;
    if (cached?.key === key) return rules.with(rel, cached.rules);
    let text = "";
    try {
      text = readFileSync(`${abs}/.gitignore`, "utf8");
    } catch {
      // Unreadable: no patterns, as git has it.
    }
    const rulesOfFile = parseIgnore(text);
    ignoreFiles.set(rel, { key, rules: rulesOfFile });
    generation.value++;
    return rules.with(rel, rulesOfFile);
  }

  /**
   * Whether what `node.children` holds was decided under the rules in force now (see `ignored`); when
   * not, its kept decisions are dropped and it is taken as decided under these.
   */
  trust(node: FolderNode): boolean {
    const trusted = node.decidedAt === this.state.generation.value;
    if (!trusted) {
      node.decisions.clear();
      node.decidedAt = this.state.generation.value;
    }
    return trusted;
  }

  /** Whether entry `name` of `node` (at `path`; a folder when `folder`) is ignored under `stack`. */
  ignored(
    node: FolderNode,
    stack: IgnoreStack,
    path: string,
    name: string,
    folder: boolean,
    trusted: boolean,
  ): boolean {
    if (trusted) {
      // Recorded under the same rules: not ignored then, nor now. Only names not recorded keep a
      // decision (a map entry a file cost 60-80 bytes, 20 MiB of a 300,000-file workspace).
      const child = node.children.get(name);
      if (child && (child.type === "folder") === folder) return false;
    }
    const key = folder ? `${name}/` : name;
    let decision = node.decisions.get(key);
    if (decision === undefined) {
      decision = stack.ignores(path, folder);
      // A name not ignored is recorded by this scan (its entry is then the decision); one that is not
      // after all (a nested repository, a file gone before its lstat) is decided again next time.
      if (decision) node.decisions.set(key, decision);
      this.decided++;
    }
    return decision;
  }

  /** Called at the end of each folder: empties the `ignore` package's caches once enough was decided. */
  forgetIfDue(stack: IgnoreStack): void {
    if (this.decided < FORGET_AFTER_DECISIONS) return;
    // Decisions are kept per folder (node.decisions): the `ignore` package's own cache of every path
    // would only grow (see `IgnoreStack.forgetPaths`). Not after every folder: its cache of the
    // parent folders' results saves a few pattern tests for each folder.
    stack.forgetPaths();
    this.decided = 0;
  }
}

/** The ignore rules in force for the entries of folder `rel`, but for its own `.gitignore`. */
export function rulesAbove(
  root: IgnoreStack,
  ignoreFiles: Map<string, IgnoreFile>,
  rel: string,
): IgnoreStack {
  let rules = root;
  let base = "";
  for (const name of rel === "" ? [] : rel.slice(0, -1).split("/")) {
    const file = ignoreFiles.get(base);
    if (file) rules = rules.with(base, file.rules);
    base = `${base + name}/`;
  }
  return rules;
}
