import type { rewindEn } from "./rewind.en";

/** 回退的中文文案：消息上的操作、预览、以及返回。 */
export const rewindZh: typeof rewindEn = {
  rewind: "回退到此处",
  rewindHint: "把对话回退到这条消息之前，连同之后的命令和编辑改动过的文件",
  edit: "编辑",
  editHint: "编辑这条消息并重新发送：以新文本回退到此处",
  fork: "从此处分叉",
  forkHint: "从这条消息之前开始一个新对话，在同一个文件夹中（这个对话保持不变）",
  forkFailed: (reason: string) => `无法分叉：${reason}`,
  heading: "回退到这条消息之前",
  editHeading: "编辑并重新发送",
  loading: "正在读取回退会做什么…",
  noFiles: "这条消息之后没有命令或编辑改动过文件。",
  outcome: { restored: "恢复", kept: "保留", "not-recorded": "未记录" },
  keptBy: { person: "之后被你（或某个程序）改动过", "another-chat": "之后被另一个对话改动过" },
  showDiff: "之后的改动",
  stops: "仍在运行，将先停止：",
  backgroundTag: "后台",
  confirm: "回退",
  confirmEdit: "回退并发送",
  cancel: "取消",
  failed: (reason: string) => `无法回退：${reason}`,
  rewound: "已回退：之后的文件和消息已放在一边。",
  back: "回到之前的位置",
  backFailed: (reason: string) => `无法返回：${reason}`,
  branched: "对话在这里分支了。其他分支：",
  branchHint: "把对话切换到这个分支：它的对话，以及它的命令和编辑改动过的文件",
  branchMessages: (count: number) => `${count} 条消息`,
  switchHeading: "切换到这个分支",
  switchNoFiles: "两个分支分开之后，它们的命令和编辑都没有改动过文件。",
  confirmSwitch: "切换",
  switchFailed: (reason: string) => `无法切换：${reason}`,
  forkWhere: "分叉到：",
  forkSameFolder: "这个文件夹",
  forkWorktree: "新的工作树",
  forkWorktreeHint: "从这个对话的基础创建新的工作树，文件保持这条消息之前的样子（这个文件夹保持不变）",
  switchRecovered: {
    finished: "Pi Desk 在切换这个对话的分支时停止了；再次启动时已完成切换：文件和对话都是另一个分支的。",
    "rolled-back": "Pi Desk 在切换这个对话的分支时停止了；再次启动时已撤回切换：文件和对话都和切换之前一样。",
  },
  backRecovered: {
    finished: "Pi Desk 在返回之前的位置时停止了；再次启动时已完成返回：文件和对话都回到回退之前的样子。",
    "rolled-back":
      "Pi Desk 在返回之前的位置时停止了；再次启动时已撤回：对话仍处于回退状态，仍可“回到之前的位置”。",
  },
  recovered: {
    finished:
      "Pi Desk 在回退这个对话的过程中停止了；再次启动时已完成回退：文件已恢复，对话停在你的消息之前。",
    "rolled-back":
      "Pi Desk 在回退这个对话的过程中停止了；再次启动时已撤销这次回退：文件和对话都与回退之前一样。",
  },
};
