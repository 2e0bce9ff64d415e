/**
 * The change engine: what each approved command did to the workspace's files, and taking it back.
 * A shadow git repository outside the workspace records the workspace before and after each command;
 * the workspace's own `.git` is never touched. The only import path into this folder.
 */
export type {
  ChangeSet,
  CommandWindow,
  FileChange,
  FileChangeKind,
  FileDiff,
  FileRefusal,
  RevertResult,
} from "../../shared/changes";
export {
  type AfterResult,
  type BeforeResult,
  ChangeRecorder,
  type ChangeRecorderOptions,
  type RecorderState,
  type RestorePreview,
} from "./change-recorder";
export { summarizeChangeSet } from "./change-set";
export {
  DEFAULT_DIFF_MAX_BYTES,
  DEFAULT_EXCLUDES,
  DEFAULT_FIRST_SNAPSHOT_TIMEOUT_MS,
  DEFAULT_MAX_FILE_BYTES,
  DEFAULT_MAX_FILES,
} from "./defaults";
export type { PruneResult } from "./prune";
