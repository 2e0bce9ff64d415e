import {
  closeSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  rmdirSync,
  writeFileSync,
} from "node:fs";

/**
 * The file operations a cgroup tree is driven by. The kernel's by default; the tests of cgroup v2 give a
 * stand-in over a temporary folder (which, unlike cgroupfs, needs its files removed before its folder).
 */
export interface CgroupFiles {
  /** Makes one cgroup (the kernel fills it with its files). */
  mkdir(path: string): void;
  /** Writes a control file (the whole value at once, as the kernel wants it). */
  write(path: string, text: string): void;
  /** Reads a control file; "" when it is not there. */
  read(path: string): string;
  /** The child cgroups of one (its folders), [] when it is gone. */
  children(path: string): string[];
  /** Removes one empty cgroup (the kernel refuses while a process is in it: EBUSY). */
  rmdir(path: string): void;
}

/** The kernel's cgroup file systems. */
export const kernelCgroupFiles: CgroupFiles = {
  mkdir: (path) => mkdirSync(path),
  write: (path, text) => writeFileSync(path, text),
  read: (path) => {
    try {
      return readSmall(path);
    } catch {
      return "";
    }
  },
  children: (path) => {
    try {
      return readdirSync(path, { withFileTypes: true })
        .filter((entry) => entry.isDirectory())
        .map((entry) => entry.name);
    } catch {
      return [];
    }
  },
  rmdir: (path) => rmdirSync(path),
};

/** Scratch buffer for control files: a counter file is a few lines, a busy command's cgroup.procs a few KiB. */
const scratch = Buffer.alloc(64 * 1024);

/**
 * A control file's text, read into one reused buffer: three are read after every command, and
 * `readFileSync` stats each first and allocates for it (cgroupfs reports size 0, so it reads in chunks). A
 * file past the buffer (a cgroup.procs of thousands of processes) is read whole the ordinary way.
 */
function readSmall(path: string): string {
  const fd = openSync(path, "r");
  let length = 0;
  try {
    for (let got = -1; got !== 0 && length < scratch.length; length += got) {
      got = readSync(fd, scratch, length, scratch.length - length, null);
    }
  } finally {
    closeSync(fd);
  }
  return length < scratch.length ? scratch.toString("latin1", 0, length) : readFileSync(path, "latin1");
}

/** A counter of a flat-keyed file ("oom_kill 3" in memory.events, "max 12" in pids.events); 0 when absent. */
export function readCounter(files: CgroupFiles, path: string, key: string): number {
  const match = new RegExp(`^${key} (\\d+)$`, "m").exec(files.read(path));
  return match ? Number(match[1]) : 0;
}

/** The pids listed in a cgroup.procs file. */
export function readPids(files: CgroupFiles, path: string): number[] {
  return files
    .read(path)
    .split("\n")
    .filter((line) => /^\d+$/.test(line))
    .map(Number);
}
