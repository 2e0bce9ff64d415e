import type { ArgumentEffect } from "../../../shared/rules";
import type { commandCardEn } from "./command-card.en";

/** What a prefix rule leaves out, completing "不包括…的参数". */
export function exceptZh(except: readonly ArgumentEffect[]): string {
  const runs = except.includes("runs");
  const writes = except.includes("writes");
  if (runs && writes) return "运行程序、删除或写入文件";
  return runs ? "运行程序" : "删除或写入文件";
}

/** 命令卡片与审批托盘的中文文案：状态、结果、操作与详情。 */
export const commandCardZh: typeof commandCardEn = {
  cardLabel: (command: string) => `命令：${command}`,
  trayHeading: (count: number) => `待批准（${count}）`,
  trayHint: "智能体正在等待你对这些命令的答复。j/k 或方向键切换，Enter 批准，Esc 拒绝。",
  status: {
    pending: "待批准",
    running: "运行中",
    succeeded: "成功",
    failed: "失败",
    "timed-out": "已超时",
    cancelled: "已取消",
    denied: "已拒绝",
    refused: "被拒绝执行",
    interrupted: "已中断",
    background: "后台运行",
    "limit-reached": "因资源上限停止",
  },
  limitMemory: (limit: string) =>
    `已停止：它使用的内存超过了 ${limit}。请在设置中提高内存上限，或换一种占用内存更少的方式运行。`,
  limitProcesses: (limit: string) =>
    `已停止：它的进程数达到了 ${limit} 个。请在设置中提高进程数上限，或换一种使用更少进程的方式运行。`,
  interruptedHint: "Pi Desk 在此命令结束前停止了运行，因此无法得知它的结果。",
  cwd: "运行目录",
  timeout: "超时",
  sandbox: "沙箱",
  sandboxOn: "开启，无网络",
  sandboxOnNetwork: "开启，可访问网络",
  sandboxOff: "关闭",
  allowNetwork: "允许此命令访问网络",
  localServices: "它也能访问本机自身的服务：localhost 端口上的服务器、X11 等抽象套接字。",
  seconds: (s: number) => `${s} 秒`,
  why: "原因",
  parts: "此行包含的命令",
  risks: "请仔细查看",
  decidedByRule: (rule: string) => `由规则“${rule}”允许`,
  edited: "已修改",
  checking: "等待主机发起询问…",
  answered: "已答复，等待主机执行…",
  approve: "批准",
  approveHint: "运行（Enter）",
  deny: "拒绝",
  denyHint: "不运行（Esc）",
  edit: "修改",
  editDone: "结束修改",
  alwaysAllow: "始终允许…",
  denyReason: "为什么拒绝？（可选，智能体会读到）",
  denyConfirm: "拒绝",
  back: "返回",
  editCommand: "改为运行的命令",
  editTimeout: (max: number) => `超时秒数（最多 ${max}）`,
  editEmpty: "命令不能为空。",
  editTimeoutRange: (max: number) => `超时必须是 1 到 ${max} 之间的整数秒。`,
  runEdited: "批准修改后的命令",
  ruleWhat: "哪些命令",
  ruleExact: (command: string) => `仅限“${command}”`,
  rulePrefix: (prefix: string, except: readonly ArgumentEffect[]) =>
    except.length === 0
      ? `所有以“${prefix}”开头的命令`
      : `所有以“${prefix}”开头的命令，但不包括${exceptZh(except)}的参数`,
  ruleNotApplied: (pattern: string, argument: string, effect: ArgumentEffect) =>
    `规则“${pattern}”已生效，但 ${argument} ${effect === "runs" ? "会运行另一个程序" : "会删除或写入文件"}，这不在规则范围内：这条命令由你决定。`,
  ruleScope: "有效范围",
  scopeSession: "本次对话",
  scopeWorkspace: "此工作区（保留）",
  ruleSummary: (what: string, scope: string) => `${what}将不经询问直接运行：${scope}。`,
  ruleConfirm: "批准并始终允许",
  decideFailed: (reason: string) => `你的答复未被接受：${reason}`,
  cancel: "取消运行",
  cancelling: "正在取消…",
  cancelFailed: (reason: string) => `无法取消：${reason}`,
  elapsed: (time: string) => `已运行 ${time}`,
  countdown: (time: string) => `${time} 后超时`,
  exitCode: (code: number) => `退出码 ${code}`,
  duration: (time: string) => `用时 ${time}`,
  reason: "原因",
  output: "输出",
  noOutput: "没有输出。",
  hiddenLines: (count: number) => `此处未显示之前的 ${count.toLocaleString()} 行。`,
  openFull: "打开完整输出",
  outputLoading: "正在加载输出…",
  outputFailed: (reason: string) => `输出未能加载：${reason} 滚动离开再回来即可重试。`,
  trimmed: "已截断",
  trimmedHint: "智能体只看到了输出的末尾。完整输出保存在：",
  fullOutputError: (reason: string) => `完整输出未能保存：${reason}`,
  fullOutputCut: (budget: string, dropped: string, lines: string) =>
    `输出超过了每条命令 ${budget} 的上限，文件只保留开头和结尾：中间的 ${dropped}（${lines} 行）被省略。`,
  lines: (count: number) => `${count.toLocaleString()} 行`,
  preparing: "正在准备命令…",
};
