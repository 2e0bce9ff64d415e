import ignore, { type Ignore } from "ignore";

/** The patterns of one `.gitignore` file and the folder they are relative to. */
interface Level {
  /** The folder of the file, relative to the workspace, `""` or ending in `/`. */
  base: string;
  rules: Ignore;
}

/** Gitignore patterns, matched case-sensitively as git does with core.ignoreCase=false. */
export function parseIgnore(text: string | readonly string[]): Ignore {
  return ignore({ ignorecase: false }).add(text as string);
}

/**
 * What git would skip, decided as git does (the `ignore` package implements gitignore matching and is
 * tested against git's own results): the `.gitignore` files from the path's folder up to the workspace,
 * the deepest with a matching pattern deciding (a later `!pattern` re-includes), then the engine's
 * excludes (`$GIT_DIR/info/exclude` for git). A folder is matched with a trailing `/`, so `dist/`
 * patterns match folders only. The caller does not descend into an ignored folder, which is git's
 * rule that nothing under an excluded folder can be re-included.
 */
export class IgnoreStack {
  private constructor(
    private readonly levels: readonly Level[],
    private readonly excludes: Ignore,
  ) {}

  /** The rules at the workspace's root, before any `.gitignore` is read. */
  static root(excludes: Ignore): IgnoreStack {
    return new IgnoreStack([], excludes);
  }

  /** These rules with the `.gitignore` of folder `base` (relative, ending in `/`) on top. */
  with(base: string, rules: Ignore): IgnoreStack {
    return new IgnoreStack([...this.levels, { base, rules }], this.excludes);
  }

  /**
   * Drops what the `ignore` package remembers of the paths it was asked about. It keeps every path
   * (the whole path as a key, and a result object) in two caches per rule set, for as long as the set
   * lives: for the rule sets every file is checked against (the engine's excludes, the root's
   * `.gitignore`) that was about 250 bytes a file, 75 MiB of a 300,000-file workspace, and never read
   * again (the scan keeps its own decisions per folder, see `FolderNode.decisions`). The scan calls
   * this every 10,000 decisions; the parent folders' results it then asks again cost a few pattern
   * tests a folder.
   */
  forgetPaths(): void {
    for (const level of this.levels) forgetTested(level.rules);
    forgetTested(this.excludes);
  }

  /** Whether `path` (relative to the workspace; a folder when `folder`) is ignored. */
  ignores(path: string, folder: boolean): boolean {
    const subject = folder ? `${path}/` : path;
    for (let i = this.levels.length - 1; i >= 0; i--) {
      const level = this.levels[i] as Level;
      const result = level.rules.test(subject.slice(level.base.length));
      if (result.ignored) return true;
      if (result.unignored) return false;
    }
    return this.excludes.ignores(subject);
  }
}

/**
 * Empties an `ignore` instance's result caches (`_initCache`, what its own `add` calls when rules
 * change; ignore is pinned at 7.0.8, and a test checks the method is there).
 */
export function forgetTested(rules: Ignore): void {
  (rules as unknown as { _initCache?: () => void })._initCache?.();
}
