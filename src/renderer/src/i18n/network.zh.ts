import type { HostEntryProblem } from "../../../shared/host-text";
import type { networkEn } from "./network.en";
import { hostProblemZh } from "./refusals.zh";

/** 按名称访问网络的中文文案：卡片上的选择、已访问的主机、设置中的允许主机。 */
export const networkZh: typeof networkEn = {
  choiceLabel: "此命令的网络",
  off: "关闭：不能访问网络",
  hosts: (count: number) => (count === 0 ? "仅允许的主机（尚未列出）" : `仅允许的主机（${count} 个）`),
  full: "允许此命令访问网络",
  fullWarning: "整个网络：互联网上的任何主机，以及你的局域网。",
  noHostRules:
    "主机规则需要沙箱（Linux 上的 bubblewrap，macOS 上的 Seatbelt）：在沙箱之外，此命令和你运行的任何程序一样能访问整个网络。",
  asked: "智能体请求访问这些主机：",
  grant: "仅允许此命令",
  granted: "已允许此命令",
  addToWorkspace: "加入工作区",
  added: "已加入工作区",
  addFailed: (reason: string) => `未加入工作区：${reason}`,
  seenLabel: "主机",
  reached: "已访问",
  refused: "已拒绝",
  connections: (count: number) => `${count.toLocaleString()} 个连接`,
  bytes: (up: string, down: string) => `上传 ${up}，下载 ${down}`,
  allowForWorkspace: "允许此工作区访问",
  allowedForWorkspace: "已允许此工作区访问，从下一条命令起生效",
  refusal: {
    "not-allowed": "不在允许的主机中",
    "private-address": "解析到本机或局域网地址",
    "by-address": "IP 地址：主机只能按名称允许",
    malformed: "无法读取的请求",
    "too-many": "同时打开的连接过多",
    unreachable: "无法连接",
    ended: "命令已结束",
  },
  settingsTitle: "允许的主机",
  settingsHint:
    "沙箱中的命令可以通过 Pi Desk 的代理按名称访问这些主机，其他主机一律不行。写确切的名称（registry.npmjs.org）或子域名（*.githubusercontent.com），可加 :端口。允许的主机仍能收到你的数据：允许 github.com 就允许推送到那里的任何仓库。",
  settingsNeedsSandbox:
    "主机规则需要沙箱（Linux 上的 bubblewrap，macOS 上的 Seatbelt）；沙箱关闭时，命令能访问整个网络。",
  notSaved: (reason: string) => `未保存：${reason}`,
  entryProblems: (problems: readonly HostEntryProblem[]) => {
    const sentences = problems.map(hostProblemZh);
    if (sentences.includes("")) return "";
    return `${sentences.join("")}请修正或删除后重试。`;
  },
  settingsNone: "无：除非你为某条命令允许，沙箱中的命令不能访问网络。",
  addPlaceholder: "registry.npmjs.org",
  addLabel: "要允许的主机",
  add: "添加",
  remove: (host: string) => `移除 ${host}`,
  presets: "添加预设：",
};
