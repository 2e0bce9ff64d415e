import type { layoutEn } from "./layout.en";

/** 共享高度布局的中文文案：对话记录里的简短行、滚动区域。 */
export const layoutZh: typeof layoutEn = {
  waitingFor: "等待你处理：",
  waitingForHint: "在待批准区显示它的卡片",
  editOf: (path) => `编辑 ${path}`,
  outOfView: (above, below) =>
    [above > 0 ? `上方还有 ${above} 项` : "", below > 0 ? `下方还有 ${below} 项` : ""]
      .filter(Boolean)
      .join(" · "),
  showInPanel: "在“运行中”查看",
  backgroundEnded: (command, how) => `后台命令 ${command}：${how}。`,
  moreDetails: (count) => `另有 ${count} 条详情`,
};
