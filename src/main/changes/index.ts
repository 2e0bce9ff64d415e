/**
 * The change engine: what each approved command did to the workspace's files, and taking it back.
 * The only import path into this folder.
 *
 * How a caller wires it (one `ChangeRecorder` per workspace, per data folder):
 *   const changes = await ChangeRecorder.open({ workspace, dataDir: join(workspaceDataDir, "changes") });
 *   void changes.prepare();                      // the first snapshot, while the person reads
 *   await changes.before(toolCallId);            // just before the approved command starts
 *   ...run it...
 *   const after = await changes.after(toolCallId); // its change set, the model's summary, overlaps
 *   await changes.undo(toolCallId, undoAnyway);  // from the card; conflicts come back to confirm
 *   const preview = await changes.previewRestore(toolCallId); await changes.restore(preview.previewId);
 *   await changes.prune(budgetBytes);            // now and then; usage() for the Settings page
 *   (or `ChangeRecords.open`, which does the first snapshot and the budget: history on top of the copy)
 *
 * Decisions:
 * - A shadow git repository (GIT_DIR in the data folder, GIT_WORK_TREE the workspace) records; the
 *   workspace's own `.git` is never read or written, and workspaces without git work the same.
 * - No git process on a command's path: a git process costs 15-30 ms to start here, and `before` +
 *   `after` must cost under 20 ms on a small workspace. The engine scans, hashes and writes blobs and
 *   trees in git's own format in this process (`Snapshotter`, `LooseObjects`), keeps the last scan's
 *   state in memory like git's index, and computes change sets from the trees (`changesInProcess`).
 *   git itself runs for what is rare or off the path: renames and type changes, diffs, undo, prune.
 * - A process's first scan (every file, the first time) writes packs, not a file per object
 *   (`PackWriter`, read back by `PackReader`): creating 300,000 files cost more than all the rest.
 * - A watcher (inotify) tells which folders changed, so a scan of 20,000 files reads a few folders,
 *   not 20,000 stat entries; whenever it cannot vouch for what it saw, the scan is a full one, and a
 *   full scan also runs while idle after each command (see `FolderWatcher`). Where the watcher is off
 *   (inotify's limit, not Linux), `before` takes no scan: the one scan of `after` dates what it finds
 *   by timestamps, and what predates the command joins its before-state (see `DeferredBefores.defer`).
 * - A git worktree's records (`gitCheckout`) borrow the repository's objects (an alternates entry) and its
 *   first snapshot takes each file whose stat data matches git's index as the blob git wrote it from
 *   (`seedFromGitIndex`): a new worktree chat is ready without reading or storing its checkout again.
 * - What git would skip is skipped: the workspace's `.gitignore` files, plus `DEFAULT_EXCLUDES`
 *   (matched by the `ignore` package, which follows git's rules; a test compares the trees with git's).
 * - Files over the size limit (16 MiB) are listed by size and time, never stored, diffed or undone.
 * - Nested repositories (a folder with its own `.git`) are not recorded, only named: their own git
 *   holds their history, and storing their files here could not undo their commits anyway.
 * - Undo writes only inside the workspace: every folder on the way is lstat-ed (a link or a file there
 *   refuses that path), links are replaced, never followed, and files are written beside and renamed.
 * - Concurrent commands share one workspace: a change set holds whatever changed during its window;
 *   `overlapping` names the other commands so the card can say so.
 */
export type {
  ChangeSet,
  CommandWindow,
  FileChange,
  FileChangeKind,
  FileDiff,
  FileRefusal,
  RestorePreview,
  RevertResult,
} from "../../shared/changes";
export { ChangeRecorder } from "./change-recorder";
export { ChangeRecords, type ChangeRecordsOptions } from "./change-records";
export { DEFAULT_EXCLUDES, DEFAULT_MAX_FILE_BYTES, DEFAULT_MAX_FILES } from "./defaults";
export type { GitCheckout } from "./git-index-seed";
export type { PruneResult } from "./prune";
export type {
  AfterResult,
  BeforeResult,
  ChangeRecorderOptions,
  NotRecorded,
  RecorderState,
} from "./recorder-types";
export type { ChainFile } from "./undo-chain";
