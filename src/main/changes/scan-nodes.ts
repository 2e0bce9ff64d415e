import type { Stats } from "node:fs";

/**
 * The last scan's picture of the workspace, as `WorkspaceScan` keeps it up to date and `StatCache`
 * saves it: a tree of folders holding each recorded file's stat data and blob id (as git's index
 * does), each folder's tree id (its cache-tree), and what lets the next scan skip work.
 */

/**
 * A recorded file or symbolic link as last hashed, with the stat data that says whether it moved since
 * (flat, not a nested object: one object a file fewer, about 100 bytes of 300,000 files' memory each).
 */
export interface StoredNode extends StatKey {
  type: "stored";
  /** `100644`, `100755` or `120000`. */
  mode: string;
  /** Its blob id. */
  oid: string;
  /** Hash it again next scan whatever its stat data (see `RACY_MS` in racy-times.ts). */
  racy: boolean;
}

/** A `StoredNode`, its fields always in one order (one object shape for all of them). */
export function storedNode(mode: string, oid: string, stat: StatKey, racy: boolean): StoredNode {
  return {
    type: "stored",
    mode,
    oid,
    racy,
    // Small integers as such (`| 0`): what lstat gives is a double, and V8 then boxes each field of
    // every node (16 bytes a number); an inode past 2^31 stays as it is.
    size: stat.size <= 0x7fffffff ? stat.size | 0 : stat.size,
    mtimeMs: stat.mtimeMs,
    ctimeMs: stat.ctimeMs,
    ino: stat.ino <= 0x7fffffff ? stat.ino | 0 : stat.ino,
    statMode: stat.statMode | 0,
  };
}

/** A file over the size limit: known by its stat data only. */
export interface OversizedNode {
  type: "oversized";
  size: number;
  mtimeMs: number;
}

/** A folder as last scanned. */
export interface FolderNode {
  type: "folder";
  children: Map<string, StoredNode | OversizedNode | FolderNode>;
  /** Its tree id when nothing under it changed since it was written; undefined once something did. */
  tree?: string;
  /**
   * Ignore decisions by name (`name/` for a folder) of the names not in `children` (an entry there was
   * not ignored when recorded), valid while the rules' generation is `decidedAt`.
   */
  decisions: Map<string, boolean>;
  decidedAt: number;
  /**
   * What is under it, as counted when nothing under it has changed since: undefined once a scan enters
   * it or a folder below it. A command's scan then counts and searches only the folders on the way
   * to what the watcher saw change, not all 300,000 entries of a big tree.
   */
  summary?: FolderSummary;
  /** Its inode: another folder put in its place (a move, `rm -r` then `mkdir`) is scanned whole. */
  ino: number;
  /** Names of sub-folders that are nested repositories. */
  nested: Set<string>;
  /** Whether a file in it was racy at its last scan (see `RACY_MS` in racy-times.ts): scan it again next time. */
  racy: boolean;
  /**
   * Its own mtime and ctime when its entries were last listed (NaN: list them again): while both stay
   * put its names are the same, so the next scan lstat-s what `children` holds without a readdir.
   */
  listedMtimeMs: number;
  listedCtimeMs: number;
}

/** The stat fields that tell a changed file from an unchanged one, as git's index keeps them. */
/** Counts of what is under a folder (see `FolderNode.summary`). */
export interface FolderSummary {
  /** Files and links, the oversized ones included. */
  files: number;
  /** Oversized files and nested repositories: what a snapshot lists by name. */
  listed: number;
  /** Folders with a racy file (itself included): what the next scan must enter again. */
  racy: number;
}

export interface StatKey {
  size: number;
  mtimeMs: number;
  ctimeMs: number;
  ino: number;
  /** `st_mode`: the file's type and permission bits. */
  statMode: number;
}

/**
 * The `statMode` of an entry seeded from git's index (see `seedFromGitIndex`): git keeps the kind of file,
 * not `st_mode`, so such an entry is matched by `seededMatch`, never by `sameStat`.
 */
export const SEEDED_STAT_MODE = -1;

/** An empty folder node (`ino` -1: not known), listed again at its first scan. */
export function emptyFolder(ino = -1): FolderNode {
  return {
    type: "folder",
    children: new Map(),
    decisions: new Map(),
    decidedAt: -1,
    ino,
    nested: new Set(),
    racy: false,
    listedMtimeMs: Number.NaN,
    listedCtimeMs: Number.NaN,
  };
}

/** The stat fields a `StoredNode` keeps of `stat`. */
export function keyOf(stat: Stats): StatKey {
  return {
    size: stat.size,
    mtimeMs: stat.mtimeMs,
    ctimeMs: stat.ctimeMs,
    ino: stat.ino,
    statMode: stat.mode,
  };
}

/** Whether `stat` is what `key` was taken from: unchanged, as git's index trusts it. */
export function sameStat(key: StatKey, stat: Stats): boolean {
  return (
    key.size === stat.size &&
    key.mtimeMs === stat.mtimeMs &&
    key.ctimeMs === stat.ctimeMs &&
    key.ino === stat.ino &&
    key.statMode === stat.mode
  );
}
