import { IgnoreStack, parseIgnore } from "./ignore-rules";
import { EMPTY_TREE } from "./loose-objects";
import type { StoredObjects } from "./stored-objects";
import { TREE_MODE, type TreeEntry } from "./tree-objects";
import { emptyFolder, type FolderNode, WorkspaceScan } from "./workspace-scan";

/** A file over the size limit, known by its size and modification time only. */
export interface OversizedFile {
  /** Size in bytes. */
  size: number;
  /** Modification time (ms since the epoch). */
  mtimeMs: number;
}

/** The workspace's state at one moment, as the shadow repository holds it. */
export interface Snapshot {
  /** The git tree of every recorded file (not the oversized ones, not nested repositories). */
  tree: string;
  /** When the scan began (ms since the epoch). */
  startedAt: number;
  /** When the tree was written. */
  endedAt: number;
  /** Files over the size limit, by path: listed as changed when size or time moves, never stored. */
  oversized: Record<string, OversizedFile>;
  /** Sub-folders with their own `.git`, by path with a trailing `/`: not recorded. */
  nested: string[];
}

/** Limits of one scan. */
export interface SnapshotLimits {
  /** A file larger than this is recorded by size and time only. */
  maxFileBytes: number;
  /** More files than this (not ignored) and recording turns off. */
  maxFiles: number;
}

/** The workspace has more files than recording handles; the engine turns itself off with this message. */
export class TooManyFilesError extends Error {
  override name = "TooManyFilesError";
}

/**
 * Takes snapshots of the workspace into the shadow repository, in this process: no git process on a
 * command's path (one costs about 16 ms to start here, and the engine used to start five per command).
 *
 * The state of the last scan is kept in memory as a folder tree with each file's stat data and blob id
 * and each folder's tree id, as git's index and its cache-tree extension keep them. A scan (see
 * `WorkspaceScan`) lstat-s every file and hashes only those whose stat data moved; then the tree
 * objects of the folders on the way to a change are written again, the rest reused. A scan that finds
 * nothing changed writes nothing and returns the same tree.
 *
 * The first scan of a process hashes every file (the stat data of an earlier process is not kept), and
 * stores what the shadow repository does not have yet: that is the slow one, taken by `prepare`.
 */
export class Snapshotter {
  private root: FolderNode = emptyFolder();
  private readonly ignoreFiles = new Map<string, { key: string; rules: ReturnType<typeof parseIgnore> }>();
  private readonly generation = { value: 0 };
  private readonly rules: IgnoreStack;
  /** The tree of the last scan. */
  current: string | undefined;

  constructor(
    private readonly workspace: string,
    private readonly objects: StoredObjects,
    private readonly limits: SnapshotLimits,
    excludes: readonly string[],
  ) {
    this.rules = IgnoreStack.root(parseIgnore(excludes));
  }

  /** Scans the workspace and returns its snapshot; stops at `deadline` (ms since the epoch), if given. */
  async scan(deadline?: number): Promise<Snapshot> {
    const startedAt = Date.now();
    const scan = new WorkspaceScan(
      {
        workspace: this.workspace,
        maxFileBytes: this.limits.maxFileBytes,
        objects: this.objects,
        ignoreFiles: this.ignoreFiles,
        generation: this.generation,
      },
      startedAt,
      deadline,
    );
    let tree: string;
    try {
      await scan.folder(this.root, "", this.rules);
      tree = this.writeTrees(this.root);
    } catch (error) {
      // A scan stopped half way has updated some folders and not their parents' tree ids: start over.
      this.root = emptyFolder();
      throw error;
    }
    const { files, oversized, nested } = scan.findings;
    if (files > this.limits.maxFiles) {
      this.root = emptyFolder();
      throw new TooManyFilesError(
        `The workspace has more than ${this.limits.maxFiles.toLocaleString("en")} files not ignored ` +
          `(${files.toLocaleString("en")} found); recording changes is off for it. Add its ` +
          "heavy folders to .gitignore to turn it on.",
      );
    }
    this.current = tree;
    return { tree, startedAt, endedAt: Date.now(), oversized, nested: nested.sort() };
  }

  /**
   * After a prune: objects of dropped records are gone, so a content seen again must be stored again.
   * The last scan's tree and everything in it are kept by the prune, so its stat data stays valid.
   */
  forgetStored(): void {
    this.objects.forgetStored();
  }

  /** The tree id of `folder`, writing the trees of folders changed since their last write. */
  private writeTrees(folder: FolderNode): string {
    if (folder.tree !== undefined) return folder.tree;
    const entries: TreeEntry[] = [];
    for (const [name, child] of folder.children) {
      if (child.type === "stored") entries.push({ name, mode: child.mode, oid: child.oid });
      else if (child.type === "folder") {
        const oid = this.writeTrees(child);
        // git records files, not folders: a folder with nothing recorded under it is not in the tree.
        if (oid !== EMPTY_TREE) entries.push({ name, mode: TREE_MODE, oid });
      }
    }
    folder.tree = this.objects.writeTree(entries);
    return folder.tree;
  }
}
