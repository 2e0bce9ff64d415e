import { DeferredBefores } from "./deferred-befores";
import { pacer } from "./event-loop-pacer";
import { folderTimesTrusted } from "./folder-times";
import { collectListed, depth, findRacy, type OversizedFile, summarize, writeTrees } from "./folder-walks";
import { FolderWatcher } from "./folder-watcher";
import { type IgnoreFile, rulesAbove } from "./ignore-decisions";
import { IgnoreStack, parseIgnore } from "./ignore-rules";
import { TooManyFilesError } from "./scan-errors";
import { emptyFolder, type FolderNode } from "./scan-nodes";
import { StatCache } from "./stat-cache";
import type { StoredObjects } from "./stored-objects";
import { type ChangeSeen, WorkspaceScan } from "./workspace-scan";

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

/** How far a first snapshot has come: files scanned so far, of the total (counted first, or known from the stat cache). */
export interface ScanProgress {
  /** Files (and links) scanned so far. */
  scanned: number;
  /** Files (and links) in the workspace, not ignored; 0 while still being counted. */
  total: number;
}

/** How often, at most, progress is told while a first scan runs. */
const PROGRESS_EVERY_MS = 250;

/**
 * Takes snapshots of the workspace into the shadow repository, in this process: no git process on a
 * command's path (one costs about 16 ms to start here, and the engine used to start five per command).
 *
 * The state of the last scan is kept in memory as a folder tree with each file's stat data and blob id
 * and each folder's tree id, as git's index and its cache-tree extension keep them. A scan (see
 * `WorkspaceScan`) lstat-s the files of the folders the watcher saw change (all of them in a full
 * scan) and hashes only those whose stat data moved; then the tree objects of the folders on the way
 * to a change are written again, the rest reused. A scan that finds nothing changed writes nothing and
 * returns the same tree.
 *
 * The stat data is kept on disk too (`StatCache`, as git keeps its index), written after each full
 * scan that found a change: the first scan of a new process starts from it and hashes only the files
 * whose stat data moved (or that were racy). Without one (the first time) the first scan hashes and
 * stores every file: that is the slow one, taken by `prepare`, and it tells its progress.
 */
export class Snapshotter {
  private root: FolderNode = emptyFolder();
  private readonly ignoreFiles = new Map<string, IgnoreFile>();
  private readonly generation = { value: 0 };
  private readonly rules: IgnoreStack;
  private readonly watcher: FolderWatcher;
  /** Whether the workspace's disk moves a folder's times when its entries change (see `folderTimesTrusted`). */
  private readonly folderTimesTrusted: boolean;
  /** Whether the in-memory state is whole (a full scan done since it was last thrown away). */
  private whole = false;
  /** The tree of the last scan. */
  current: string | undefined;
  /** Files read and hashed by the last scan (the rest were trusted by their stat data). */
  lastHashed = 0;
  private readonly cache: StatCache | undefined;
  /** Whether the cache was read (it is, once, by the first scan of this process). */
  private cacheRead = false;
  /** The tree the cache on disk holds the stat data of. */
  private savedTree: string | undefined;
  /** The last scan's start, for the cache's racy rule. */
  private lastStartedAt = 0;
  /** The last scan's snapshot. */
  private last: Snapshot | undefined;
  /** Before-states taken without a scan where the watcher is off, until their command's end. */
  readonly befores: DeferredBefores<Snapshot>;

  constructor(
    private readonly workspace: string,
    private readonly objects: StoredObjects,
    private readonly limits: SnapshotLimits,
    excludes: readonly string[],
    watchBarrierDir: string,
    options: {
      /** The stat cache's file; none: every new process hashes everything again. */
      statCacheFile?: string;
      /** Told how far a first scan has come, at most every 250 ms, and once at its end. */
      onProgress?: (progress: ScanProgress) => void;
      /** Most folders the watcher may watch (see `FolderWatcher`). */
      maxWatchedFolders?: number;
      /**
       * Where there is no stat cache: a folder tree that vouches for files' blob ids by their stat data (git's
       * index of a new worktree, see `seedFromGitIndex`), and how many files it names.
       */
      seed?: () => Promise<{ root: FolderNode; files: number } | undefined>;
    } = {},
  ) {
    this.rules = IgnoreStack.root(parseIgnore(excludes));
    this.watcher = new FolderWatcher(workspace, watchBarrierDir, options.maxWatchedFolders);
    this.folderTimesTrusted = folderTimesTrusted(workspace);
    this.cache = options.statCacheFile ? new StatCache(options.statCacheFile) : undefined;
    this.onProgress = options.onProgress;
    this.seed = options.seed;
    // Deferrable where a scan now could only be a full one (the watcher is off) and a whole state is
    // in memory to start from.
    this.befores = new DeferredBefores(objects, () =>
      this.whole && !this.watcher.watching ? this.last : undefined,
    );
  }

  private readonly onProgress: ((progress: ScanProgress) => void) | undefined;
  private readonly seed: (() => Promise<{ root: FolderNode; files: number } | undefined>) | undefined;

  /** The folder watcher, for what it says about its limit (see `FolderWatcher.limit`). */
  get folderWatcher(): FolderWatcher {
    return this.watcher;
  }

  /**
   * Scans the workspace and returns its snapshot; stops at `deadline` (ms since the epoch), if given.
   * Only the folders the watcher saw change are read, unless `full` or the watcher cannot vouch for
   * what it saw (see `FolderWatcher`).
   */
  async scan(deadline?: number, full = false): Promise<Snapshot> {
    const startedAt = Date.now();
    const first = !this.cacheRead;
    let total = first ? await this.seedFromCache() : undefined;
    await this.watcher.settle();
    // Taken before reading: what changes during the scan is an event for the next one.
    const report = this.watcher.take();
    let told = 0;
    const progress =
      first && this.onProgress
        ? (files: number) => {
            if (performance.now() - told < PROGRESS_EVERY_MS) return;
            told = performance.now();
            this.onProgress?.({ scanned: files, total: Math.max(total ?? 0, files) });
          }
        : undefined;
    const env = {
      workspace: this.workspace,
      maxFileBytes: this.limits.maxFileBytes,
      objects: this.objects,
      ignoreFiles: this.ignoreFiles,
      generation: this.generation,
      watcher: this.watcher,
      first,
      // The idle full scan reads every folder's entries again, and every scan does on a disk whose
      // folder times cannot be trusted to move (see `WorkspaceScan.listingKept`).
      relist: full || !this.folderTimesTrusted,
      ...(this.befores.size > 0 ? { onChange: (change: ChangeSeen) => this.befores.date(change) } : {}),
    };
    if (first && total === undefined && this.onProgress) {
      // No cache: count first (readdir only, no lstat of a file), so progress has a total to go by.
      this.onProgress({ scanned: 0, total: 0 });
      const count = new WorkspaceScan(env, startedAt, deadline);
      count.limitFiles(0);
      await count.folder(emptyFolder(), "", this.rules, true);
      total = count.files;
    }
    const scan = new WorkspaceScan(
      { ...env, ...(progress ? { onProgress: progress } : {}) },
      startedAt,
      deadline,
    );
    const whole = full || !this.whole || report.incomplete || !this.watcher.watching;
    // A full scan stops storing once it passes the limit and only counts the rest; a narrowed one
    // cannot count the whole workspace, so the count below decides for it.
    if (whole) scan.limitFiles(this.limits.maxFiles);
    let tree: string;
    // A process's first scan stores every file not known from the stat cache (all of them the first
    // time): into packs, not a file each (see `PackWriter`), its trees too.
    if (first) this.objects.startPacking();
    try {
      if (whole) {
        await scan.folder(this.root, "", this.rules, true);
        if (scan.overLimit) throw new TooManyFilesError(this.limits.maxFiles, scan.files);
        this.whole = true;
      } else {
        await this.scanChanged(scan, report.dirty);
      }
      tree = await writeTrees(this.root, this.objects, pacer());
      if (first) {
        await this.objects.flushTrees();
        await this.objects.endPacking();
      }
    } catch (error) {
      // A scan stopped half way has updated some folders and not their parents' tree ids: start over.
      this.reset();
      await this.objects.endPacking().catch(() => {}); // a full disk: the scan's error says enough
      throw error;
    }
    const pace = pacer();
    const found = { files: (await summarize(this.root, pace)).files, oversized: {}, nested: [] };
    await collectListed(this.root, "", found, pace);
    if (found.files > this.limits.maxFiles) {
      this.reset();
      throw new TooManyFilesError(this.limits.maxFiles, found.files);
    }
    this.current = tree;
    this.last = {
      tree,
      startedAt,
      endedAt: Date.now(),
      oversized: found.oversized,
      nested: found.nested.sort(),
    };
    this.lastHashed = scan.hashed;
    this.lastStartedAt = startedAt;
    if (first) this.onProgress?.({ scanned: found.files, total: found.files });
    // After the first scan and the idle full scan (`full`) only, not each command's (a full one too
    // where the watcher is off: writing the cache of 300,000 files costs about a second). What the
    // others changed is saved by the next of those or by `saveCache` at close; a cache left older is
    // only slower, never wrong (a file changed since has other stat data, and is hashed again).
    if (whole && (first || full)) await this.saveCache();
    return { ...this.last, endedAt: Date.now() };
  }

  /** Writes the stat cache if the last scan's tree is not the one it holds. */
  async saveCache(): Promise<void> {
    if (!this.cache || !this.whole || this.current === undefined || this.current === this.savedTree) return;
    const tree = this.current;
    try {
      await this.cache.save(this.root, this.lastStartedAt, tree);
      this.savedTree = tree;
    } catch {
      // A full disk or a read-only data folder: the next process hashes again, slower but right.
    }
  }

  /** Stops watching the workspace and ends the compression worker. */
  close(): void {
    this.watcher.close();
    this.objects.close();
  }

  /** Seeds the in-memory state with the stat cache (once a process); returns how many files it names. */
  private async seedFromCache(): Promise<number | undefined> {
    this.cacheRead = true;
    const loaded = await this.cache?.load();
    // A cache whose tree the shadow repository does not hold (its records were removed, or the process
    // ended before it stored the tree) may name blobs it does not hold either: not trusted.
    if (!loaded || !(await this.objects.has(loaded.tree))) {
      // No cache of its own: a new worktree's files are as git's index says where their stat data matches.
      const seeded = await this.seed?.().catch(() => undefined);
      if (!seeded) return undefined;
      this.root = seeded.root;
      return seeded.files;
    }
    // Not `whole`: the scan that follows is a full one, which trusts what has not moved.
    this.root = loaded.root;
    this.savedTree = loaded.tree;
    return loaded.files;
  }

  /**
   * Scans the folders in `dirty` and those with racy files, shallowest first, and marks the folders on
   * the way to a change as changed (their trees are written again).
   */
  private async scanChanged(scan: WorkspaceScan, dirty: Set<string>): Promise<void> {
    const racy: string[] = [];
    findRacy(this.root, "", racy);
    const folders = [...new Set([...dirty, ...racy])].sort((a, b) => depth(a) - depth(b) || (a < b ? -1 : 1));
    for (const dirtyRel of folders) {
      const rel = this.nestedParent(dirtyRel) ?? dirtyRel;
      const way = this.wayTo(rel);
      if (!way) continue; // gone, ignored or not reached: its parent's scan (if it changed) covers it
      for (const folder of way) folder.summary = undefined; // counted again: its counts may move
      const node = way[way.length - 1] as FolderNode;
      const result = await scan.folder(node, rel, rulesAbove(this.rules, this.ignoreFiles, rel), false);
      if (!result) continue;
      if (result === "nested") {
        const parent = way[way.length - 2] as FolderNode;
        const name = rel.slice(0, -1).split("/").pop() as string;
        parent.children.delete(name);
        parent.nested.add(name);
      }
      for (const folder of way) folder.tree = undefined;
    }
  }

  /**
   * The parent of `rel` when `rel` is a nested repository there: a change in it (its `.git` removed,
   * say) is for the parent's scan to judge, which enters it if it is no longer one.
   */
  private nestedParent(rel: string): string | undefined {
    if (rel === "") return undefined;
    const name = rel.slice(0, -1).split("/").pop() as string;
    const parentRel = rel.slice(0, rel.length - name.length - 1);
    const parent = this.wayTo(parentRel)?.at(-1);
    return parent?.nested.has(name) ? parentRel : undefined;
  }

  /** The folders from the root to `rel`, or undefined when `rel` is not a recorded folder. */
  private wayTo(rel: string): FolderNode[] | undefined {
    const way = [this.root];
    for (const name of rel === "" ? [] : rel.slice(0, -1).split("/")) {
      const next = (way[way.length - 1] as FolderNode).children.get(name);
      if (next?.type !== "folder") return undefined;
      way.push(next);
    }
    return way;
  }

  private reset(): void {
    // The next scan starts from nothing and finds every file new: no change can be dated from it.
    this.befores.breakAll();
    this.root = emptyFolder();
    this.whole = false;
    this.watcher.unwatch(""); // the full scan that follows watches what is there again
  }

  /**
   * After a prune: objects of dropped records are gone, so a content seen again must be stored again.
   * The last scan's tree and everything in it are kept by the prune, so its stat data stays valid.
   */
  forgetStored(): void {
    this.objects.forgetStored();
  }
}
