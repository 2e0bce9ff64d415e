import type { composerEn } from "./composer.en";

/** 输入框的中文文案：发送、引导与排队、图片、`/` 与 `@`、上下文用量。 */
export const composerZh: typeof composerEn = {
  promptLabel: "发给智能体的消息",
  promptPlaceholder: "询问关于仓库的问题…（Enter 发送，Shift+Enter 换行）",
  send: "发送",
  steer: "插话",
  steerHint: "在智能体当前这一步之后送达（Enter）。Alt+Enter 则留到它完成后再发。",
  steerPlaceholder: "智能体正在工作：Enter 在当前这一步之后插话，Alt+Enter 排队到它完成后",
  queue: "排队",
  queueHint: "把这条消息留到智能体完成后再发（Alt+Enter）",
  queuedHeading: "等待送达智能体的消息",
  queuedMode: { steer: "这一步之后", "follow-up": "完成之后" },
  queuedRemove: (text: string) => `撤回：${text.slice(0, 60)}`,
  attachments: "图片",
  attachmentRemove: (name: string) => `移除 ${name}`,
  imageAlt: (index: number) => `图片 ${index}`,
  imagesUnavailable: (count: number) => `这条消息附带了 ${count} 张图片，无法显示。`,
  imagesNotRead: (model: string) =>
    `${model} 不能读取图片。请换一个能读图片的模型再附加，或用文字描述图片内容。`,
  imageType: (name: string) => `${name} 不是 Pi Desk 可以发送的图片：请附加 PNG、JPEG、GIF 或 WebP。`,
  imagesTooMany: (most: number) => `一条消息最多附带 ${most} 张图片。`,
  imagesTooBig: (megabytes: number) =>
    `一条消息的图片合计不能超过 ${megabytes} MB：请附加更小的图片（例如只截取屏幕的一部分）。`,
  imageUnreadable: "无法读取这张图片。请先保存为文件，再重新附加。",
  chatNamed: (name: string) => `已将这个对话命名为“${name}”。`,
  commandFailed: (reason: string) => `无法执行：${reason}`,
  nameMissing: "请给对话起个名字：/name 后面加上名字。",
  thinkingLevels: (levels: string) => `这个模型支持的思考级别：${levels}。请输入 /thinking 加其中之一。`,
  modelMissing: (names: string) => `请输入 /model 加模型名称：${names}。`,
  modelUnknown: (typed: string, names: string) => `没有名为“${typed}”的可用模型。可用模型：${names}。`,
  modelAmbiguous: (typed: string, names: string) =>
    `“${typed}”对应多个模型（${names}）：请输入更完整的名称。`,
  dropNoPath: (name: string) => `浏览器不会告知 ${name} 的位置。请输入 @ 和文件名中的几个字母来引用它。`,
  dropOutside: (name: string, folder: string) =>
    `${name} 不在这个对话的文件夹（${folder}）中，智能体的工具只能读取该文件夹内的文件。请先把它复制进来，或粘贴其中需要的内容。`,
  nothingToRewind: "还没有可以回退到的你的消息。",
  fileMenu: "文件",
  fileMenuListing: "正在列出文件夹中的文件…",
  fileMenuNone: "没有匹配的文件或文件夹",
  fileMenuFailed: (reason: string) => `无法列出文件夹中的文件：${reason}`,
  fileMenuCapped: (searched: number) =>
    `文件夹很大：只搜索了前 ${searched.toLocaleString()} 个文件和文件夹。`,
  slashMenu: "命令",
  slashNone: "没有以此开头的命令",
  slashProjectSkipped: (count: number) =>
    `此项目自带的提示模板和技能（${count} 个文件夹）未加载：此项目在 Pi 中未被信任。在 pi 中信任它（/trust）即可在这里使用。`,
  slashKind: { template: "提示模板", skill: "技能", desk: "Pi Desk" },
  contextUsed: (percent: number, used: string, window: string) => `上下文 ${percent}%（${used} / ${window}）`,
  contextUnknown: (window: string) => `上下文：尚未计数（窗口 ${window}）`,
  contextTitle: "对话占用模型上下文窗口的比例（以最近一次回答为准）",
  contextNearlyFull: "快满了：压缩一下，或新开一个对话",
  compact: "压缩",
  compacting: "正在压缩…",
  compactHint: "用一段摘要替代目前的对话，模型之后读取摘要（Pi 的压缩）",
  compactFailed: (reason: string) => `无法压缩：${reason}`,
  compacted: (reason: "manual" | "threshold" | "overflow" | "stored", tokensBefore: number) =>
    `${reason === "manual" ? "已压缩" : reason === "stored" ? "之前已压缩" : "已自动压缩"}：模型改为读取这段摘要，替代之前的 ${tokensBefore} 个 token`,
  unsentBack: (count: number) => `已停止。仍在等待的 ${count} 条消息没有发送，已放回输入框。`,
};
