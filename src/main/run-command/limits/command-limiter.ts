import { join } from "node:path";
import { type ProcessIdentity, processIdentity } from "../../base/process-identity";
import { type BackgroundGroup, GroupRun } from "./background-group";
import { type CgroupFiles, kernelCgroupFiles } from "./cgroup-files";
import { type CgroupHierarchy, hierarchiesOf, hostGroupDir, PI_DESK_GROUP } from "./cgroup-places";
import { cgroupsAtExit, groupDirsAtExit, removeHostDirsAtExit } from "./cgroups-at-exit";
import { CommandCgroup } from "./command-cgroup";
import { type CgroupRun, cgroupRun, type LimitedRun, perProcessRun } from "./limited-run";
import { COMMAND_CPU_WEIGHT, detectLimitsLayer, type LimitsLayer, layerName } from "./limits-layer";
import type { ResourceLimits } from "./resource-limits";

export type { LimitedRun } from "./limited-run";

/** cpu.shares of the Pi Desk folder on v1: half the host's 1,024, so commands together weigh less than it. */
const V1_CPU_SHARES = (COMMAND_CPU_WEIGHT * 1024) / 100;

/** cpu.weight of the Pi Desk folder on v2: half the default 100. */
const V2_CPU_WEIGHT = COMMAND_CPU_WEIGHT;

/** How a limiter finds its layer; the defaults are this machine's. */
export interface CommandLimiterOptions {
  /** The layer (default: detected, once per process). */
  layer?: LimitsLayer;
  /** The cgroup files (default: the kernel's); v2's tests give a stand-in tree. */
  files?: CgroupFiles;
  /** The host its cgroups are named for (default: this process). */
  host?: ProcessIdentity;
}

let detected: LimitsLayer | undefined;

/** This machine's layer, detected on first use. */
export function machineLimitsLayer(): LimitsLayer {
  detected ??= detectLimitsLayer();
  return detected;
}

/**
 * Puts each command in limits of its own, through the best layer there is (limits-layer.ts): a cgroup per
 * command under a folder named for this host (so a crashed host's leftovers are known at the next start),
 * or `ulimit` in the command's own shell where only per-process limits hold.
 */
export class CommandLimiter {
  readonly layer: LimitsLayer;
  private readonly files: CgroupFiles;
  private readonly host: ProcessIdentity | undefined;
  private readonly hierarchies: CgroupHierarchy[];
  private hostDirsMade = false;
  /** The host's folders, as the first part of a spare cgroup's key (`keyFor`). */
  private place: string | undefined;

  constructor(options: CommandLimiterOptions = {}) {
    this.layer = options.layer ?? machineLimitsLayer();
    this.files = options.files ?? kernelCgroupFiles;
    this.host = options.host ?? processIdentity();
    this.hierarchies = hierarchiesOf(this.layer);
  }

  /**
   * Sets up one command's limits before it starts; undefined where nothing limits commands. Throws, with
   * the reason, when the layer is there but refused: the command must then not run unlimited.
   */
  start(limits: ResourceLimits, group?: BackgroundGroup): LimitedRun | undefined {
    if (this.layer.kind === "none") return undefined;
    if (this.layer.kind === "rlimit") return perProcessRun(limits);
    if (group) return this.startInGroup(limits, group);
    const cgroup = this.takeSpare(limits) ?? this.create(limits);
    const run = cgroupRun(layerName(this.layer), cgroup, (clean) => this.keepSpare(limits, cgroup, clean));
    return { ...run, moveInto: (group) => this.move(run, limits, group) };
  }

  /**
   * `LimitedRun.moveInto` for a command in a cgroup of its own. Where the group cannot take it (the kernel
   * refuses a total below what the group uses now), it stays where it is, under its own limits.
   */
  private async move(run: CgroupRun, limits: ResourceLimits, group: BackgroundGroup): Promise<void> {
    let entered: ReturnType<typeof GroupRun.enter>;
    let next: CommandCgroup;
    try {
      entered = GroupRun.enter(this.hostDirs(), group, this.files);
      for (const dir of entered.run.dirs) groupDirsAtExit.set(dir, this.files);
      next = CommandCgroup.create(entered.parents, limits, this.files);
    } catch {
      return;
    }
    const before = run.current();
    await before.moveMembersTo(next);
    run.switchTo(next, entered.run);
    // The one it left is not kept: its counters may hold what the command did before it moved.
    void before.removeWhenEmpty();
  }

  /**
   * A background command: its cgroup inside its workspace's group, whose total bounds all the workspace's
   * background commands together (background-group.ts). Not kept for the next command (that is rarely
   * another background one).
   */
  private startInGroup(limits: ResourceLimits, group: BackgroundGroup): LimitedRun {
    let entered: ReturnType<typeof GroupRun.enter>;
    let cgroup: CommandCgroup;
    try {
      entered = GroupRun.enter(this.hostDirs(), group, this.files);
      for (const dir of entered.run.dirs) groupDirsAtExit.set(dir, this.files);
      cgroup = CommandCgroup.create(entered.parents, limits, this.files);
    } catch (error) {
      throw new Error(
        `Could not set the resource limits of this background command or its workspace's total (${(error as Error).message}), so it did not run. ` +
          "Check that Pi Desk may still write its cgroups, or raise the workspace's total in Settings.",
      );
    }
    const remove = () => void cgroup.removeWhenEmpty().then(() => cgroupsAtExit.delete(cgroup));
    // Already in the group: "Keep running" has nothing to move.
    return cgroupRun(layerName(this.layer), cgroup, remove, entered.run);
  }

  /** A new cgroup with these limits; throws, saying what to do, when the kernel refuses it. */
  private create(limits: ResourceLimits): CommandCgroup {
    try {
      return CommandCgroup.create(this.hostDirs(), limits, this.files);
    } catch {
      // The host folder may have gone (removed by hand): made again once, then the kernel's answer stands.
      this.hostDirsMade = false;
      try {
        return CommandCgroup.create(this.hostDirs(), limits, this.files);
      } catch (error) {
        throw new Error(
          `Could not set this command's resource limits (${(error as Error).message}), so it did not run. ` +
            "Check that Pi Desk may still write its cgroups, or restart it.",
        );
      }
    }
  }

  /** The spare cgroup, if it is under this host's folders with exactly these limits (see `keepSpare`). */
  private takeSpare(limits: ResourceLimits): CommandCgroup | undefined {
    const taken = spare;
    spare = undefined;
    if (!taken) return undefined;
    if (taken.key === this.keyFor(limits)) {
      cgroupsAtExit.delete(taken.cgroup);
      return taken.cgroup;
    }
    // For other limits (from before a change in Settings, or another workspace's): not this command's.
    void taken.cgroup.removeWhenEmpty().then(() => cgroupsAtExit.delete(taken.cgroup));
    return undefined;
  }

  /**
   * After a command's result: keeps one empty cgroup with its limits for the next command, so that making
   * folders, writing limits and removing folders (0.6-0.8 ms of the host's CPU here, and the kernel's
   * deferred work of freeing a memory cgroup) is not paid per command. The ended command's own cgroup is
   * kept when it is empty and reached no limit (its counters, which say why a command stopped, are still
   * 0); else it goes and a new one is made. One is kept for the whole process: commands mostly follow one
   * another and keep their limits; one started while another runs, or with other limits, makes its own.
   * What the kept one holds of the last command is at most reclaimable page cache (v1 leaves it charged).
   *
   * Kept at once, as the result goes out (an assignment): an agent's next command often starts before the
   * event loop turns again. When this waited for a setImmediate, 200 back-to-back `run_command` calls made
   * 41 and 50 cgroups (folders made and limits written on a command's path); now they share one. Removing
   * and making folders still waits for that turn.
   */
  private keepSpare(limits: ResourceLimits, ended: CommandCgroup, clean: boolean): void {
    if (!spare && clean) {
      spare = { key: this.keyFor(limits), cgroup: ended };
      return;
    }
    setImmediate(() => {
      void ended.removeWhenEmpty().then(() => cgroupsAtExit.delete(ended));
      if (spare) return;
      try {
        const cgroup = CommandCgroup.create(this.hostDirs(), limits, this.files);
        spare = { key: this.keyFor(limits), cgroup };
        cgroupsAtExit.add(cgroup);
      } catch {
        // The next command makes its own, and says why if it cannot.
      }
    });
  }

  /** Commands with the same key may take the same spare cgroup: the same folders, the same limits. */
  private keyFor(limits: ResourceLimits): string {
    const host = this.host;
    this.place ??= this.hierarchies.map((h) => (host ? hostGroupDir(h, host) : h.base)).join("\n");
    return `${this.place}\n${limits.memoryBytes}/${limits.processes}`;
  }

  /** The host's folder in each hierarchy, made on first use (with the Pi Desk folder's lower CPU weight). */
  private hostDirs(): { hierarchy: CgroupHierarchy; dir: string }[] {
    if (!this.host) throw new Error("this process's identity is unknown");
    const host = this.host;
    const dirs = this.hierarchies.map((hierarchy) => ({ hierarchy, dir: hostGroupDir(hierarchy, host) }));
    if (this.hostDirsMade) return dirs;
    for (const { hierarchy, dir } of dirs) {
      const top = join(hierarchy.base, PI_DESK_GROUP);
      if (hierarchy.controller === "v2") this.enableControllers(hierarchy.base);
      if (makeDir(this.files, top)) this.weighDown(hierarchy.controller, top);
      if (hierarchy.controller === "v2") this.enableControllers(top);
      makeDir(this.files, dir);
      if (hierarchy.controller === "v2") this.enableControllers(dir);
    }
    this.hostDirsMade = true;
    removeHostDirsAtExit(
      dirs.map(({ dir }) => dir),
      this.files,
    );
    return dirs;
  }

  /** v2: a cgroup's children get a controller only once their parent enables it in cgroup.subtree_control. */
  private enableControllers(dir: string): void {
    const wanted = ["memory", "pids", ...(this.layer.kind === "cgroup-v2" && this.layer.cpu ? ["cpu"] : [])];
    const enabled = this.files.read(join(dir, "cgroup.subtree_control")).split(/\s+/);
    const missing = wanted.filter((name) => !enabled.includes(name));
    if (missing.length > 0)
      this.files.write(join(dir, "cgroup.subtree_control"), missing.map((name) => `+${name}`).join(" "));
  }

  /** Commands together weigh less than the host for the CPU, so a busy command cannot starve the app. */
  private weighDown(controller: CgroupHierarchy["controller"], top: string): void {
    try {
      if (controller === "cpu") this.files.write(join(top, "cpu.shares"), String(V1_CPU_SHARES));
      if (controller === "v2" && this.layer.kind === "cgroup-v2" && this.layer.cpu)
        this.files.write(join(top, "cpu.weight"), String(V2_CPU_WEIGHT));
    } catch {
      // A weight the kernel refuses leaves commands at the host's weight: they still have their limits.
    }
  }
}

/** The next command's cgroup, empty (`CommandLimiter.keepSpare`), with its place and limits as a key; on the exit's list. */
let spare: { key: string; cgroup: CommandCgroup } | undefined;

/** Makes a folder that may be there already; true when this call made it. */
function makeDir(files: CgroupFiles, dir: string): boolean {
  try {
    files.mkdir(dir);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
  }
}
