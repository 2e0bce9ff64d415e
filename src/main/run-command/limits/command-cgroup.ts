import { randomBytes } from "node:crypto";
import { join } from "node:path";
import type { LimitStop } from "../../../shared/commands";
import { type CgroupFiles, readCounter, readPids } from "./cgroup-files";
import type { CgroupHierarchy } from "./cgroup-places";
import type { ResourceLimits } from "./resource-limits";

/** How long emptying a cgroup keeps killing what is in it (a fork bomb refills free slots) before giving up. */
const EMPTY_MAX_MS = 5_000;

/** How long removing a just-emptied cgroup retries while the kernel still counts exiting processes in it. */
const REMOVE_MAX_MS = 2_000;

/** One folder of a command's cgroup, in one hierarchy. */
interface Folder {
  controller: CgroupHierarchy["controller"];
  dir: string;
  /** The host's own folder, shared by its commands (v1 cpu: the weight is the whole folder's): never removed here. */
  shared?: boolean;
}

/**
 * One command's cgroup: a folder in each hierarchy of the layer (v2: one; v1: memory and pids, and it joins its host's cpu folder), with
 * its limits written before anything runs in it. The command's first process moves itself in (`joinLines`)
 * before it runs anything, so every process it starts is born inside.
 */
export class CommandCgroup {
  private constructor(
    private readonly folders: Folder[],
    private readonly limits: ResourceLimits,
    private readonly files: CgroupFiles,
    /** Folders it joins without owning them (see `Folder.shared`). */
    private readonly shared: Folder[] = [],
  ) {}

  /** Makes the cgroup under each host folder and writes its limits; throws with the kernel's reason when it cannot. */
  static create(
    hostDirs: { hierarchy: CgroupHierarchy; dir: string }[],
    limits: ResourceLimits,
    files: CgroupFiles,
  ): CommandCgroup {
    const name = `c-${randomBytes(6).toString("hex")}`;
    const folders: Folder[] = [];
    const shared: Folder[] = [];
    const made = new CommandCgroup(folders, limits, files, shared);
    try {
      for (const { hierarchy, dir } of hostDirs) {
        // v1's cpu hierarchy holds no limit of the command's own: joining the host's folder (whose parent
        // weighs less than the host) is enough, and spares a folder made and removed per command.
        if (hierarchy.controller === "cpu") {
          shared.push({ controller: "cpu", dir, shared: true });
          continue;
        }
        const folder = { controller: hierarchy.controller, dir: join(dir, name) };
        files.mkdir(folder.dir);
        folders.push(folder);
        writeLimits(folder, limits, files);
      }
    } catch (error) {
      made.remove();
      throw error;
    }
    return made;
  }

  /** Where it is (one folder per hierarchy), for the run's record and the tests. */
  get dirs(): string[] {
    return this.folders.map((folder) => folder.dir);
  }

  /**
   * Shell lines that move the shell running them into the cgroup, or end it with code 125 and a sentence
   * when that fails (nothing of the command ran then). Builtins only: no process is started outside it.
   *
   * On v1 the shell moves its own thread (`0` into `tasks`): the kernel then takes no machine-wide lock,
   * where a write to `cgroup.procs` takes `cgroup_threadgroup_rwsem` for writing and waits for an RCU grace
   * period (1-3 ms on this 2-core machine, more under load: most of what the limits cost a small command).
   * The shell is single-threaded (bash, dash), so its thread is the whole process, and every process it
   * starts afterwards is born inside. v2 moves whole processes only (`cgroup.procs`).
   */
  joinLines(): string {
    const moves = [...this.folders, ...this.shared]
      .map((f) =>
        f.controller === "v2"
          ? `echo $$ >${shellQuote(join(f.dir, "cgroup.procs"))}`
          : `echo 0 >${shellQuote(join(f.dir, "tasks"))}`,
      )
      .join(" && ");
    const why =
      "Pi Desk could not move this command into its cgroup (its resource limits), so it did not run. " +
      "Run it again; if this repeats, restart Pi Desk.";
    return `{ ${moves}; } 2>/dev/null || { echo ${shellQuote(why)} >&2; exit 125; }`;
  }

  /**
   * The limit the command reached so far: memory when the kernel killed one of its processes for it (its
   * OOM kill count), processes when a fork was refused at the limit (pids.events' `max`).
   */
  limitStop(): LimitStop | undefined {
    for (const { controller, dir } of this.folders) {
      const oomKills =
        controller === "v2"
          ? readCounter(this.files, join(dir, "memory.events"), "oom_kill")
          : controller === "memory"
            ? readCounter(this.files, join(dir, "memory.oom_control"), "oom_kill")
            : 0;
      if (oomKills > 0) return { kind: "memory", limit: this.limits.memoryBytes };
    }
    for (const { controller, dir } of this.folders) {
      if (controller !== "v2" && controller !== "pids") continue;
      if (readCounter(this.files, join(dir, "pids.events"), "max") > 0)
        return { kind: "processes", limit: this.limits.processes };
    }
    return undefined;
  }

  /**
   * The most processes it held at once, and the most memory it used, where the kernel keeps them (pids.peak,
   * v1 memory.max_usage_in_bytes, v2 memory.peak).
   */
  peak(): { processes?: number; memoryBytes?: number } {
    const found: { processes?: number; memoryBytes?: number } = {};
    const number = (path: string) => {
      const text = this.files.read(path).trim();
      return /^\d+$/.test(text) ? Number(text) : undefined;
    };
    for (const { controller, dir } of this.folders) {
      if (controller === "v2" || controller === "pids") found.processes = number(join(dir, "pids.peak"));
      if (controller === "v2") found.memoryBytes = number(join(dir, "memory.peak"));
      if (controller === "memory") found.memoryBytes = number(join(dir, "memory.max_usage_in_bytes"));
    }
    return Object.fromEntries(Object.entries(found).filter(([, v]) => v !== undefined));
  }

  /** The processes still in it (from the pids hierarchy on v1, which holds every process of the command). */
  members(): number[] {
    const folder = this.folders.find((f) => f.controller === "v2" || f.controller === "pids");
    return folder ? readPids(this.files, join(folder.dir, "cgroup.procs")) : [];
  }

  /**
   * Moves every process in it into `next` (a command kept running joins its workspace's group), in each
   * hierarchy, round after round while it forks meanwhile; the cpu folder stays the same.
   */
  async moveMembersTo(next: CommandCgroup): Promise<void> {
    const giveUpAt = performance.now() + EMPTY_MAX_MS;
    for (let members = this.members(); members.length > 0; members = this.members()) {
      for (const pid of members) {
        for (const folder of next.folders) {
          try {
            this.files.write(join(folder.dir, "cgroup.procs"), String(pid));
          } catch {
            // gone already, or a thread of one moved with it
          }
        }
      }
      if (performance.now() > giveUpAt) return;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }

  /**
   * Kills everything still in it: v2's cgroup.kill where the kernel has it, else SIGKILL to each member
   * until none is left (a fork bomb at its limit refills the slots of the killed, so it takes a few rounds).
   * True when it was seen empty at the end.
   */
  async empty(): Promise<boolean> {
    const v2 = this.folders.find((f) => f.controller === "v2");
    if (v2) {
      try {
        this.files.write(join(v2.dir, "cgroup.kill"), "1");
      } catch {
        // Kernels before 5.14 have no cgroup.kill: the members are killed one by one below.
      }
    }
    const giveUpAt = performance.now() + EMPTY_MAX_MS;
    for (let members = this.members(); members.length > 0; members = this.members()) {
      let signalled = 0;
      for (const pid of members) {
        try {
          process.kill(pid, "SIGKILL");
          signalled++;
        } catch {
          // gone already
        }
      }
      // Listed but none alive to signal: the kernel has not caught up yet, or a stand-in tree never will.
      if (signalled === 0 || performance.now() > giveUpAt) return false;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    return true;
  }

  /**
   * Removes its folders; true when all are gone. A folder the kernel still counts a dying process in
   * (EBUSY) is tried again for a while; what stays is removed at the next start (cgroup-reaper.ts).
   */
  async removeWhenEmpty(): Promise<boolean> {
    const giveUpAt = performance.now() + REMOVE_MAX_MS;
    while (!this.remove() && performance.now() < giveUpAt) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    return this.folders.length === 0;
  }

  /** One try at removing every folder left; true when none is left. */
  remove(): boolean {
    for (let i = this.folders.length - 1; i >= 0; i--) {
      try {
        this.files.rmdir((this.folders[i] as Folder).dir);
        this.folders.splice(i, 1);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") this.folders.splice(i, 1);
      }
    }
    return this.folders.length === 0;
  }
}

/** The limits of one folder, in its hierarchy's files. Swap is held to the memory limit too where it can be. */
function writeLimits(folder: Folder, limits: ResourceLimits, files: CgroupFiles): void {
  const file = (name: string) => join(folder.dir, name);
  switch (folder.controller) {
    case "v2":
      files.write(file("memory.max"), String(limits.memoryBytes));
      files.write(file("pids.max"), String(limits.processes));
      optional(() => files.write(file("memory.swap.max"), "0"));
      return;
    case "memory":
      files.write(file("memory.limit_in_bytes"), String(limits.memoryBytes));
      // Only where the kernel accounts swap: memory plus swap may then not pass the same limit.
      optional(() => files.write(file("memory.memsw.limit_in_bytes"), String(limits.memoryBytes)));
      return;
    case "pids":
      files.write(file("pids.max"), String(limits.processes));
      return;
  }
}

/** A write the kernel may not offer (no swap accounting): the limit it would add is simply not there. */
function optional(write: () => void): void {
  try {
    write();
  } catch {
    // not offered here
  }
}

/** Single-quoted for the shell. */
function shellQuote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}
