import type { CgroupFiles } from "./cgroup-files";
import type { CommandCgroup } from "./command-cgroup";

// What a host removes of its cgroups as it exits normally: the commands' (kept, or whose removal was still
// to come), the workspaces' background groups, then its own folders. What a crash leaves, the next start reaps.

/** Host folders to remove when this process exits normally (what a crash leaves, the next start reaps). */
const hostDirsAtExit = new Map<string, CgroupFiles>();

/** Workspaces' background groups (background-group.ts), removed at exit before the host's folders. */
export const groupDirsAtExit = new Map<string, CgroupFiles>();

/** Cgroups no command is in: ended commands' whose removal is still to come (it runs after the result), and ones made ahead. */
export const cgroupsAtExit = new Set<CommandCgroup>();

/** Registers the host's own folders, and the exit's removal of everything, on first use. */
export function removeHostDirsAtExit(dirs: string[], files: CgroupFiles): void {
  if (hostDirsAtExit.size === 0)
    process.once("exit", () => {
      for (const cgroup of cgroupsAtExit) cgroup.remove();
      cgroupsAtExit.clear();
      // Workspaces' groups once their commands' cgroups are gone, before the host's folders they are in.
      for (const [dir, dirFiles] of groupDirsAtExit) removeAtExitNow(dirFiles, dir);
      groupDirsAtExit.clear();
      for (const [dir, dirFiles] of hostDirsAtExit) removeAtExitNow(dirFiles, dir);
      hostDirsAtExit.clear();
    });
  for (const dir of dirs) hostDirsAtExit.set(dir, files);
}

/** How long the exit waits, in all, for the kernel to let a folder go whose child was just removed. */
const EXIT_REMOVE_MAX_MS = 200;

/**
 * Removes a folder as the process exits (nothing async runs then). A child removed just before is taken
 * offline by the kernel a moment later, and until then the parent's removal fails with EBUSY: it is tried
 * again, sleeping a millisecond at a time. What stays is removed at the next start (cgroup-reaper.ts).
 */
function removeAtExitNow(files: CgroupFiles, dir: string): void {
  const giveUpAt = performance.now() + EXIT_REMOVE_MAX_MS;
  for (;;) {
    try {
      files.rmdir(dir);
      return;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== "EBUSY" || performance.now() > giveUpAt) return;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1);
    }
  }
}
