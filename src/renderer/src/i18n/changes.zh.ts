import type { changesEn } from "./changes.en";

/** The Simplified Chinese messages of what a command changed (the same keys as `changesEn`). */
export const changesZh: typeof changesEn = {
  summary: (files: number, added: number, removed: number) =>
    files === 0
      ? "未改动文件"
      : `改动了 ${files.toLocaleString()} 个文件 (+${added.toLocaleString()} -${removed.toLocaleString()})`,
  notRecorded: (reason: string) => `未记录它的改动：${reason}`,
  kind: {
    added: "新增",
    modified: "修改",
    deleted: "删除",
    renamed: "重命名",
    mode: "权限",
    type: "类型",
  },
  more: (count: number) => `还有 ${count.toLocaleString()} 个（此处未列出）`,
  binary: (sizes: string) => `二进制${sizes ? `，${sizes}` : ""}`,
  oversized: (sizes: string) => `超过大小上限，未保存${sizes ? `（${sizes}）` : ""}`,
  overlap: (names: string) => `与 ${names} 同时运行：其中一些改动可能来自它们。`,
  nested: (paths: string) => `未记录（它们是独立的仓库）：${paths}`,
  showDiff: "显示差异",
  hideDiff: "隐藏差异",
  loadingDiff: "正在读取差异…",
  noDiff: "没有文本差异。",
  diffFailed: (reason: string) => `无法读取差异：${reason}`,
  diffCut: "差异超过主机发送的上限；这里是开头部分。",
  showWholeDiff: (lines: number) => `打开完整差异（${lines.toLocaleString()} 行）`,
  dropped: "为了让记录保持在空间上限内（见设置），它的记录已被删除，因此无法再撤销。",
  undo: "撤销",
  undoHint: "把此命令改动的每个文件恢复到它运行之前",
  undoConfirm: (files: number) =>
    `把 ${files.toLocaleString()} 个文件恢复到此命令运行之前？之后又被改动的文件会保持不变，除非你另行选择。`,
  undoConfirmButton: "撤销它的改动",
  undoing: "正在撤销…",
  undoFailed: (reason: string) => `无法撤销：${reason}`,
  restore: "恢复到此前",
  restoreHint: "把整个工作区恢复到此命令运行之前",
  previewing: "正在读取将要改动的文件…",
  restorePreview: (files: number) =>
    files === 0 ? "工作区已经是此命令运行之前的状态。" : `恢复将改动 ${files.toLocaleString()} 个文件：`,
  restoreConfirmButton: "恢复这些文件",
  restoreFailed: (reason: string) => `无法恢复：${reason}`,
  back: "返回",
  resultHeading: { undo: "撤销", restore: "恢复" },
  restored: (files: string) => `已恢复：${files}`,
  nothingRestored: "没有恢复任何文件。",
  conflicts: "之后又被改动，保持不变：",
  undoAnyway: "仍然撤销",
  refused: "无法恢复：",
  progressCounting: "正在为工作区拍摄第一个快照：正在统计文件…",
  progress: (scanned: number, total: number) =>
    `正在为工作区拍摄第一个快照：${scanned.toLocaleString()} / ${total.toLocaleString()} 个文件`,
  progressNote: "完成之前运行的命令不会被记录（其卡片会注明）。",
  progressLabel: "第一个快照",
  watchLimitHeading: "此工作区的文件夹监视已关闭",
  watchLimitFix: "在终端中运行：",
};
