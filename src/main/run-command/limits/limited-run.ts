import type { LimitStop, ResourceLimitsLayer } from "../../../shared/commands";
import type { BackgroundGroup, GroupRun } from "./background-group";
import { cgroupsAtExit } from "./cgroups-at-exit";
import type { CommandCgroup } from "./command-cgroup";
import type { ResourceLimits } from "./resource-limits";

/** How often a running command's cgroup is checked for a refused fork (a fork bomb stops within this). */
const WATCH_INTERVAL_MS = 250;

/** One command's limits while it runs (see `CommandLimiter.start`). */
export interface LimitedRun {
  /** The argv that enters the limits first, then runs `argv` (in the same process: nothing starts outside them). */
  wrap(argv: readonly string[]): string[];
  /** Calls `onStop` once when the command reaches its process limit while it runs (it is then to be killed). */
  watch(onStop: () => void): void;
  /**
   * After the command's first process exited: kills whatever is left in its cgroup, says which limit it
   * reached if any, and then (off the command's path) keeps the cgroup for the next command or removes it.
   */
  finish(): Promise<{ stop?: LimitStop }>;
  /** The cgroup's folders (none for per-process limits). */
  readonly cgroupDirs: string[];
  /** The layer holding the limits, as the contract names it. */
  readonly layer: ResourceLimitsLayer;
  /**
   * Moves the running command into its workspace's background group (it was kept running): a new cgroup
   * there with the same limits, every process moved, the old cgroup removed. Nothing where there is no
   * cgroup. Memory it already uses stays counted where it was charged (cgroup v1 moves no charges).
   */
  moveInto(group: BackgroundGroup): Promise<void>;
}

/** A command's run in a cgroup, which may move to its workspace's group while it runs ("Keep running"). */
export interface CgroupRun extends LimitedRun {
  /** The cgroup it is in now. */
  current(): CommandCgroup;
  /** It moved: from now on its limits are read in `next`, inside `group`. */
  switchTo(next: CommandCgroup, group: GroupRun): void;
}

/**
 * A command in a cgroup of its own. As its result goes out, `afterResult` keeps the cgroup for the next
 * command or removes it (told whether it is `clean`: seen empty, no limit reached), keeping at once and
 * leaving the kernel's work for later; one that moved to its workspace's group is removed.
 */
export function cgroupRun(
  layer: ResourceLimitsLayer,
  first: CommandCgroup,
  afterResult: (clean: boolean) => void,
  /** Its workspace's background group, whose total may be what stops it. */
  firstGroup?: GroupRun,
): CgroupRun {
  let timer: NodeJS.Timeout | undefined;
  let cgroup = first;
  let group = firstGroup;
  let moved = false;
  const limitStop = () => (group ? group.stopOf(cgroup.limitStop(), cgroup.peak()) : cgroup.limitStop());
  return {
    layer,
    cgroupDirs: first.dirs,
    wrap: (argv) => enterFirst(first.joinLines(), argv),
    watch(onStop) {
      timer = setInterval(() => {
        if (limitStop()?.kind !== "processes") return;
        clearInterval(timer);
        onStop();
      }, WATCH_INTERVAL_MS);
      timer.unref();
    },
    async finish() {
      clearInterval(timer);
      const ended = cgroup;
      const emptied = await ended.empty();
      // Read once nothing is left to add to the counts.
      const stop = limitStop();
      // On the exit's list until it is removed: a process ending right after its last command leaves none.
      cgroupsAtExit.add(ended);
      // Removed off the command's path: the result does not wait for the kernel to let the folders go.
      if (moved) setImmediate(() => void ended.removeWhenEmpty().then(() => cgroupsAtExit.delete(ended)));
      else afterResult(emptied && stop === undefined);
      return stop ? { stop } : {};
    },
    moveInto: async () => {},
    current: () => cgroup,
    switchTo(next, nextGroup) {
      cgroup = next;
      group = nextGroup;
      moved = true;
    },
  };
}

/**
 * Where only per-process limits hold: each process's address space (`ulimit -v`, in KiB), set in the
 * command's own shell before it runs anything, so everything it starts inherits it. There is no count
 * of a command's processes to read (RLIMIT_NPROC counts all of the person's), so no stop is reported.
 */
export function perProcessRun(limits: ResourceLimits): LimitedRun {
  const kib = Math.floor(limits.memoryBytes / 1024);
  const why = "Pi Desk could not set this command's memory limit (ulimit -v), so it did not run.";
  return {
    layer: "process",
    cgroupDirs: [],
    wrap: (argv) => enterFirst(`ulimit -v ${kib} 2>/dev/null || { echo "${why}" >&2; exit 125; }`, argv),
    watch: () => {},
    finish: async () => ({}),
    // Per-process limits hold wherever the process is: nothing to move.
    moveInto: async () => {},
  };
}

/**
 * The argv that runs `lines` first, in the process that then becomes the command: bash's own script gets
 * them in front (no extra program), any other argv runs through `sh -c 'lines; exec "$@"'`.
 */
function enterFirst(lines: string, argv: readonly string[]): string[] {
  const [program, flag, script, ...rest] = argv;
  if (program === "/bin/bash" && flag === "-c" && script !== undefined)
    return [program, flag, `${lines}\n${script}`, ...rest];
  return ["/bin/sh", "-c", `${lines}\nexec "$@"`, "sh", ...argv];
}
