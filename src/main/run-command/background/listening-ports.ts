import { execFile } from "node:child_process";
import { readdir, readFile, readlink } from "node:fs/promises";

/**
 * The TCP ports some processes listen on, read from the OS rather than guessed from their output: on Linux
 * the sockets each process holds open (`/proc/<pid>/fd` -> `socket:[inode]`) matched against the LISTEN
 * entries of its own network namespace (`/proc/<pid>/net/tcp`, `tcp6`), so a server inside the sandbox's
 * namespace is found too; on macOS `lsof`. Sorted, each port once; empty where neither works.
 */
export async function listeningPorts(
  pids: readonly number[],
  platform: NodeJS.Platform = process.platform,
): Promise<number[]> {
  if (pids.length === 0) return [];
  const ports =
    platform === "linux" ? await linuxPorts(pids) : platform === "darwin" ? await lsofPorts(pids) : [];
  return [...new Set(ports)].sort((a, b) => a - b);
}

/** TCP state 0A is LISTEN in the kernel's table. */
const LISTEN = "0A";

async function linuxPorts(pids: readonly number[]): Promise<number[]> {
  const inodes = new Set<string>();
  // One socket table per network namespace: processes of one tree almost always share it.
  const tables = new Map<string, number>();
  for (const pid of pids) {
    const fds = await readdir(`/proc/${pid}/fd`).catch(() => [] as string[]);
    for (const fd of fds) {
      const target = await readlink(`/proc/${pid}/fd/${fd}`).catch(() => "");
      const inode = /^socket:\[(\d+)\]$/.exec(target)?.[1];
      if (inode) inodes.add(inode);
    }
    const namespace = await readlink(`/proc/${pid}/ns/net`).catch(() => `pid ${pid}`);
    if (!tables.has(namespace)) tables.set(namespace, pid);
  }
  if (inodes.size === 0) return [];
  const ports: number[] = [];
  for (const pid of tables.values()) {
    for (const table of ["tcp", "tcp6"]) {
      const text = await readFile(`/proc/${pid}/net/${table}`, "utf8").catch(() => "");
      for (const line of text.split("\n").slice(1)) {
        // sl local_address rem_address st tx:rx tr:when retrnsmt uid timeout inode
        const fields = line.trim().split(/\s+/);
        const [, local, , state] = fields;
        const inode = fields[9];
        if (state !== LISTEN || !local || !inode || !inodes.has(inode)) continue;
        const port = Number.parseInt(local.slice(local.lastIndexOf(":") + 1), 16);
        if (Number.isInteger(port) && port > 0) ports.push(port);
      }
    }
  }
  return ports;
}

function lsofPorts(pids: readonly number[]): Promise<number[]> {
  return new Promise((resolve) => {
    execFile(
      "lsof",
      ["-nP", "-a", "-p", pids.join(","), "-iTCP", "-sTCP:LISTEN", "-Fn"],
      { timeout: 2_000 },
      // lsof exits 1 when nothing matches: an empty list, not an error.
      (_error, stdout) => {
        const ports = String(stdout ?? "")
          .split("\n")
          .filter((line) => line.startsWith("n"))
          .map((line) => Number(line.slice(line.lastIndexOf(":") + 1)))
          .filter((port) => Number.isInteger(port) && port > 0);
        resolve(ports);
      },
    );
  });
}
