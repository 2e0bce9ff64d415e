import type { resourcesEn } from "./resources.en";

/** 每条命令资源上限的中文文案：设置中的一节，以及卡片上的说明。 */
export const resourcesZh: typeof resourcesEn = {
  heading: "每条命令的内存与进程",
  layer: {
    "cgroup-v2": "上限：cgroup v2。每条命令连同它启动的一切一起受限。",
    "cgroup-v1": "上限：cgroup v1。每条命令连同它启动的一切一起受限。",
    process: "仅限单个进程：每个进程的内存各自受限，一条命令仍可启动许多进程。",
    none: (why: string) => `不受限制：${why}`,
  },
  notLimited: {
    off: "本主机启动时关闭了资源上限。",
    windows: "Windows：命令不受限制（尚无 Job Object）。",
    "no-cgroups": "本系统没有 cgroups，且单个进程的内存上限不会被强制执行。",
  },
  memory: "每条命令的内存（MiB）",
  processes: "每条命令的进程和线程数",
  defaultHint: (value: string) => `默认：${value}。留空即使用默认值。`,
  cpu: "CPU",
  cpuWeight: (weight: number) => `所有命令合计的 CPU 权重为 ${weight}，应用为 100：繁忙的命令不会拖垮窗口。`,
  cpuNone: "此处没有 CPU 权重：繁忙的命令与应用像普通程序一样争用 CPU。",
  backgroundTotal: (memory: string, processes: string) =>
    `本工作区的后台命令合计：内存最多 ${memory}，进程最多 ${processes} 个。`,
  backgroundMemory: "后台命令合计：内存（MiB）",
  backgroundProcesses: "后台命令合计：进程和线程数",
  stoppedAtLimit: "因资源上限而停止",
  save: "保存上限",
  saved: "已保存：从下一条命令起生效。",
  tooSmallMemory: "内存至少填 16 MiB，或留空使用默认值。",
  tooFewProcesses: "进程数至少填 16，或留空使用默认值。",
  notWhole: "请填整数，或留空使用默认值。",
  failed: (reason: string) => `上限未更改：${reason}`,
  cardLayer: {
    "cgroup-v2": "上限：cgroup v2",
    "cgroup-v1": "上限：cgroup v1",
    process: "上限：仅限单个进程",
    none: "不受限制",
  },
};
