/** The English messages of each command's resource limits: Settings' section and a card's note. */
export const resourcesEn = {
  heading: "Memory and processes per command",
  layer: {
    "cgroup-v2": "Limits: cgroup v2. Each command and everything it starts is held together.",
    "cgroup-v1": "Limits: cgroup v1. Each command and everything it starts is held together.",
    process:
      "Per process only: each process's memory is limited on its own, and a command can still start many processes.",
    none: (why: string) => `Not limited: ${why}`,
  },
  /** Why nothing limits commands, by the host's cause. */
  notLimited: {
    off: "this host was started with resource limits off.",
    windows: "Windows: commands are not limited (no Job Object yet).",
    "no-cgroups": "this system has no cgroups, and its per-process memory limit is not enforced.",
  },
  memory: "Memory per command (MiB)",
  processes: "Processes and threads per command",
  defaultHint: (value: string) => `Default: ${value}. Leave it empty for the default.`,
  cpu: "CPU",
  cpuWeight: (weight: number) =>
    `Commands together weigh ${weight} against the app's 100: a busy command cannot starve the window.`,
  cpuNone: "No CPU weight here: a busy command competes with the app as any program does.",
  backgroundTotal: (memory: string, processes: string) =>
    `The workspace's background commands together: at most ${memory} of memory and ${processes} processes.`,
  backgroundMemory: "Background commands together: memory (MiB)",
  backgroundProcesses: "Background commands together: processes and threads",
  stoppedAtLimit: "stopped at a resource limit",
  save: "Save limits",
  saved: "Saved: they hold from the next command.",
  tooSmallMemory: "Give at least 16 MiB of memory, or leave it empty for the default.",
  tooFewProcesses: "Give at least 16 processes, or leave it empty for the default.",
  notWhole: "Give a whole number, or leave it empty for the default.",
  failed: (reason: string) => `The limits were not changed: ${reason}`,
  cardLayer: {
    "cgroup-v2": "limits: cgroup v2",
    "cgroup-v1": "limits: cgroup v1",
    process: "limits: per process only",
    none: "not limited",
  },
};
