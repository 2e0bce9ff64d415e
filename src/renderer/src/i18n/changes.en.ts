/** The English messages of what a command changed: its card's changes, undo and restore. */
export const changesEn = {
  summary: (files: number, added: number, removed: number) =>
    files === 0
      ? "Changed no files"
      : `Changed ${files === 1 ? "1 file" : `${files.toLocaleString()} files`} (+${added.toLocaleString()} -${removed.toLocaleString()})`,
  notRecorded: (reason: string) => `What it changed was not recorded: ${reason}`,
  kind: {
    added: "added",
    modified: "modified",
    deleted: "deleted",
    renamed: "renamed",
    mode: "mode",
    type: "type",
  },
  more: (count: number) => `and ${count.toLocaleString()} more (not listed here)`,
  binary: (sizes: string) => `binary${sizes ? `, ${sizes}` : ""}`,
  oversized: (sizes: string) => `over the size limit, not stored${sizes ? ` (${sizes})` : ""}`,
  overlap: (names: string) => `Ran at the same time as ${names}: some of these changes may be theirs.`,
  nested: (paths: string) => `Not recorded, they are repositories of their own: ${paths}`,
  showDiff: "Show diff",
  hideDiff: "Hide diff",
  loadingDiff: "Loading the diff…",
  noDiff: "No text diff.",
  diffFailed: (reason: string) => `Could not read the diff: ${reason}`,
  diffCut: "The diff is longer than the host sends; this is its start.",
  showWholeDiff: (lines: number) => `Open full diff (${lines.toLocaleString()} lines)`,
  dropped:
    "Its record was dropped to keep the records within their space budget (Settings), so it can no longer be undone.",
  undo: "Undo",
  undoHint: "Put back every file this command changed as it was before it",
  undoConfirm: (files: number) =>
    `Put back ${files === 1 ? "1 file" : `${files.toLocaleString()} files`} as they were before this command? A file changed since is left alone unless you choose otherwise.`,
  undoConfirmButton: "Undo its changes",
  undoing: "Undoing…",
  undoFailed: (reason: string) => `Could not undo: ${reason}`,
  restore: "Restore to before",
  restoreHint: "Put the whole workspace back as it was before this command",
  previewing: "Reading what would change…",
  restorePreview: (files: number) =>
    files === 0
      ? "The workspace is already as it was before this command."
      : `Restoring puts back ${files === 1 ? "1 file" : `${files.toLocaleString()} files`}:`,
  restoreConfirmButton: "Restore these files",
  restoreFailed: (reason: string) => `Could not restore: ${reason}`,
  back: "Back",
  resultHeading: { undo: "Undo", restore: "Restore" },
  restored: (files: string) => `Put back: ${files}`,
  nothingRestored: "Nothing was put back.",
  conflicts: "Changed since, left alone:",
  undoAnyway: "Undo anyway",
  refused: "Could not be put back:",
  progressCounting: "Taking the first snapshot of the workspace: counting its files…",
  progress: (scanned: number, total: number) =>
    `Taking the first snapshot of the workspace: ${scanned.toLocaleString()} of ${total.toLocaleString()} files`,
  progressNote: "Commands run meanwhile are not recorded (their cards say so) until it is done.",
  progressLabel: "First snapshot",
  watchLimitHeading: "Folder watching is off for this workspace",
  watchLimitFix: "The fix, in a terminal:",
};
