import { join } from "node:path";
import { isProcessAlive } from "../../base/process-identity";
import { type CgroupFiles, kernelCgroupFiles, readPids } from "./cgroup-files";
import { hierarchiesOf, hostOfGroupName, PI_DESK_GROUP } from "./cgroup-places";
import { machineLimitsLayer } from "./command-limiter";
import type { LimitsLayer } from "./limits-layer";

/** How long the reaper keeps killing what is left in one command's cgroup before it gives up on it. */
const REAP_MAX_MS = 5_000;

/**
 * Kills everything still in a dead command's cgroup (its folders, as its run record names them) and
 * removes the folders. Returns how many processes it signalled. Only the folders a record names: a start
 * never kills in a cgroup whose command it has no record of (another host's registry may be serving it).
 */
export async function reapCommandCgroup(
  dirs: string[],
  files: CgroupFiles = kernelCgroupFiles,
): Promise<number> {
  const killed = new Set<number>();
  const giveUpAt = performance.now() + REAP_MAX_MS;
  for (;;) {
    const members = dirs.flatMap((dir) => readPids(files, join(dir, "cgroup.procs")));
    if (members.length === 0 || performance.now() > giveUpAt) break;
    for (const pid of members) {
      try {
        process.kill(pid, "SIGKILL");
        killed.add(pid);
      } catch {
        // gone already
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  for (const dir of dirs) await removeDir(files, dir);
  return killed.size;
}

/**
 * Removes the empty cgroup folders hosts no longer running left (commands that had ended, the host's own
 * folder). A folder with a process in it stays: the kernel refuses to remove it, and its command's record
 * (`reapCommandCgroup`) is what may kill it. A live host's folders are left alone. Returns how many went.
 */
export function sweepEmptyCgroups(options: { layer?: LimitsLayer; files?: CgroupFiles } = {}): number {
  const files = options.files ?? kernelCgroupFiles;
  let removed = 0;
  for (const { base } of hierarchiesOf(options.layer ?? machineLimitsLayer())) {
    const top = join(base, PI_DESK_GROUP);
    for (const name of files.children(top)) {
      const host = hostOfGroupName(name);
      if (!host || isProcessAlive(host)) continue;
      const hostDir = join(top, name);
      for (const child of files.children(hostDir)) {
        // A workspace's background group holds its commands' cgroups: those go first.
        const childDir = join(hostDir, child);
        for (const command of files.children(childDir))
          if (tryRemove(files, join(childDir, command))) removed++;
        if (tryRemove(files, childDir)) removed++;
      }
      if (tryRemove(files, hostDir)) removed++;
    }
  }
  return removed;
}

function tryRemove(files: CgroupFiles, dir: string): boolean {
  try {
    files.rmdir(dir);
    return true;
  } catch {
    return false;
  }
}

/** Removes a folder, retrying briefly while the kernel still counts a dying process in it (EBUSY). */
async function removeDir(files: CgroupFiles, dir: string): Promise<void> {
  for (let attempt = 0; attempt < 100; attempt++) {
    try {
      files.rmdir(dir);
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EBUSY") return;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }
}
