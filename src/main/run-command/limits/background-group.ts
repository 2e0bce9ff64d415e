import { join } from "node:path";
import type { LimitStop } from "../../../shared/commands";
import { type CgroupFiles, readCounter } from "./cgroup-files";
import type { CgroupHierarchy } from "./cgroup-places";
import type { ResourceLimits } from "./resource-limits";

/**
 * The workspace-wide total for background commands: one folder per workspace under the host's, in the
 * memory and pids hierarchies (v1) or v2's one, holding the total; each background command's own cgroup is
 * made inside it, so the kernel bounds them all together (a limit holds for a folder and all below it).
 */
export interface BackgroundGroup {
  /** The folder's name under the host's (one per workspace: the same for all its chats). */
  name: string;
  /** The total the workspace's background commands may use together, read as each one starts. */
  total(): ResourceLimits;
}

const MiB = 1024 ** 2;

/** One folder of a group, in one hierarchy. */
interface GroupFolder {
  controller: CgroupHierarchy["controller"];
  dir: string;
}

/**
 * A background command's view of its workspace's group: the parent folders its cgroup goes in, and whether
 * the group's total (not the command's own limit) is what stopped it. The kernel counts a refused fork in
 * the folder whose limit refused it (pids.events' `max`), and a charge past a limit in the folder whose
 * limit it passed (v1 memory.failcnt, v2 memory.events' `max`): counters read at the start and the end say
 * whether the total was reached meanwhile.
 */
export class GroupRun {
  private constructor(
    private readonly folders: GroupFolder[],
    private readonly total: ResourceLimits,
    private readonly files: CgroupFiles,
    private readonly before: { forks: number; memory: number },
  ) {}

  /** Makes the group's folders under the host's where missing, and writes the total (it may have changed). */
  static enter(
    hostDirs: { hierarchy: CgroupHierarchy; dir: string }[],
    group: BackgroundGroup,
    files: CgroupFiles,
  ): { run: GroupRun; parents: { hierarchy: CgroupHierarchy; dir: string }[] } {
    const total = group.total();
    const folders: GroupFolder[] = [];
    const parents = hostDirs.map(({ hierarchy, dir }) => {
      // v1's cpu hierarchy holds a weight, not a total: commands join the host's cpu folder as ever.
      if (hierarchy.controller === "cpu") return { hierarchy, dir };
      const folder = { controller: hierarchy.controller, dir: join(dir, group.name) };
      makeFolder(files, folder.dir, hierarchy.controller === "v2");
      writeTotal(folder, total, files);
      folders.push(folder);
      return { hierarchy, dir: folder.dir };
    });
    const run = new GroupRun(folders, total, files, { forks: 0, memory: 0 });
    run.before.forks = run.refusedForks();
    run.before.memory = run.memoryHits();
    return { run, parents };
  }

  /** The folders, for the host's exit to remove once their commands' cgroups are gone. */
  get dirs(): string[] {
    return this.folders.map((folder) => folder.dir);
  }

  /**
   * Which limit stopped the command, the group's total taking over where it was the total. Kernels count a
   * refused fork or an out-of-memory kill in the command's own cgroup whichever limit it was (since 6.x
   * pids.events counts an ancestor's too), so the command's own peak says which: one that never came near
   * its own limit was stopped by the total.
   */
  stopOf(
    own: LimitStop | undefined,
    peak: { processes?: number; memoryBytes?: number },
  ): LimitStop | undefined {
    const totalHit = {
      processes: this.refusedForks() > this.before.forks,
      memory: this.memoryHits() > this.before.memory,
    };
    const total = (kind: LimitStop["kind"]): LimitStop => ({
      kind,
      limit: kind === "memory" ? this.total.memoryBytes : this.total.processes,
    });
    if (own?.kind === "processes") {
      const belowOwn = peak.processes !== undefined ? peak.processes < own.limit : totalHit.processes;
      return belowOwn ? total("processes") : own;
    }
    // Kernels that count a refused fork only where the limit is.
    if (!own && totalHit.processes) return total("processes");
    if (own?.kind === "memory") {
      // Within a MiB of its own limit: its own (the kernel reclaims and kills near the limit, not at it).
      const belowOwn = peak.memoryBytes !== undefined ? peak.memoryBytes < own.limit - MiB : totalHit.memory;
      return belowOwn && totalHit.memory ? total("memory") : own;
    }
    return own;
  }

  private refusedForks(): number {
    return this.sum((folder) =>
      folder.controller === "v2" || folder.controller === "pids"
        ? readCounter(this.files, join(folder.dir, "pids.events"), "max")
        : 0,
    );
  }

  private memoryHits(): number {
    return this.sum((folder) => {
      if (folder.controller === "v2")
        return readCounter(this.files, join(folder.dir, "memory.events"), "max");
      if (folder.controller === "memory")
        return Number(this.files.read(join(folder.dir, "memory.failcnt")).trim()) || 0;
      return 0;
    });
  }

  private sum(count: (folder: GroupFolder) => number): number {
    return this.folders.reduce((total, folder) => total + count(folder), 0);
  }
}

/** Makes a folder that may be there; on v2 lets its children have the memory and pids controllers. */
function makeFolder(files: CgroupFiles, dir: string, v2: boolean): void {
  try {
    files.mkdir(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  }
  if (!v2) return;
  const enabled = files.read(join(dir, "cgroup.subtree_control")).split(/\s+/);
  const missing = ["memory", "pids"].filter((name) => !enabled.includes(name));
  if (missing.length > 0)
    files.write(join(dir, "cgroup.subtree_control"), missing.map((name) => `+${name}`).join(" "));
}

/** The total, in the folder's hierarchy's files. */
function writeTotal(folder: GroupFolder, total: ResourceLimits, files: CgroupFiles): void {
  const file = (name: string) => join(folder.dir, name);
  if (folder.controller === "v2") {
    files.write(file("memory.max"), String(total.memoryBytes));
    files.write(file("pids.max"), String(total.processes));
  } else if (folder.controller === "memory") {
    files.write(file("memory.limit_in_bytes"), String(total.memoryBytes));
  } else if (folder.controller === "pids") {
    files.write(file("pids.max"), String(total.processes));
  }
}
