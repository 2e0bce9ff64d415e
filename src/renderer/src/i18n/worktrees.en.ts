/** The English messages of chats in their own git worktree: the new-chat choice, the review, bringing work back. */
export const worktreesEn = {
  newChat: (workspace: string) => `In a new worktree of ${workspace}`,
  newChatHint:
    "A folder of its own on a new pi-desk/ branch: the workspace sees nothing until you bring the work in.",
  notRepository: "Not a git repository: chats start here.",
  baseLabel: "Base (a branch, tag or commit)",
  openExisting: (branch: string) => `Open the worktree of ${branch}`,
  branch: (branch: string) => `Branch ${branch}`,
  bar: (branch: string) => `This chat works in its own worktree, on ${branch}.`,
  review: "Review",
  hideReview: "Hide review",
  reviewHeading: "What this chat changed",
  loading: "Reading the worktree…",
  loadFailed: (reason: string) => `The review could not be made: ${reason}`,
  refresh: "Refresh",
  nothing: "Nothing changed against the base yet.",
  against: (base: string) => `Against ${base.slice(0, 10)}`,
  commits: (count: number) => (count === 1 ? "1 commit on the branch" : `${count} commits on the branch`),
  uncommitted: (count: number) =>
    count === 0
      ? "everything committed"
      : count === 1
        ? "1 file not committed"
        : `${count} files not committed`,
  status: {
    added: "added",
    modified: "modified",
    deleted: "deleted",
    renamed: "renamed",
    copied: "copied",
    "type-changed": "type changed",
  },
  renamedFrom: (path: string) => `from ${path}`,
  binary: "binary file: brought back byte for byte",
  truncated: "The diff is too long to show whole.",
  bring: "Bring into the workspace",
  bringHint:
    "Applies the whole change to the workspace as uncommitted changes, or nothing when a file conflicts.",
  brought: (count: number) =>
    count === 1 ? "1 file brought into the workspace." : `${count} files brought into the workspace.`,
  conflictsHeading: "Nothing was applied: these files conflict with the workspace's own state",
  conflict: {
    "changed-in-workspace": "changed in the workspace",
    "exists-in-workspace": "already exists in the workspace",
    "missing-in-workspace": "missing from the workspace",
  },
  bringFailed: (detail: string) => `Nothing was applied: git refused the change. ${detail}`,
  keep: "Keep the branch",
  keepMessage: "Commit message",
  keepDefault: "Work from a Pi Desk chat",
  keepHint: "Commits what is not committed on the branch, removes the worktree and closes the chat.",
  discard: "Discard",
  discardConfirm: (branch: string, files: number, commits: number, uncommitted: number) =>
    `Discard ${branch}? Its worktree and branch are removed, and with them ${files} changed file(s), ` +
    `${commits} commit(s) and ${uncommitted} uncommitted file(s). This cannot be undone.`,
  settingsHeading: "Worktree chats",
  settingsFailed: (reason: string) => `The worktree settings were not saved: ${reason}`,
  firstLabel: "New chats start",
  firstHere: "in the workspace's folder",
  firstWorktree: "in a new worktree",
  folderLabel: "Worktrees go in",
  folderDefault: "Pi Desk's data folder",
  setupLabel: "Setup step in each new worktree (asked for like any command)",
  keepLabel: "Clean worktrees of finished chats: keep the newest",
  daysLabel: "and the rest for days:",
  save: "Save",
  keptHeading: "Left for you to decide",
  keptNone: "Cleanup left no worktree for you to decide on.",
  keptReason: {
    uncommitted: "holds uncommitted work: review it, bring it in, keep the branch or discard it",
    recent: "among the newest kept",
    unreadable: "git could not read it: look at it by hand",
  },
};
