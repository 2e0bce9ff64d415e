import { accessSync, constants, readFileSync } from "node:fs";
import { join } from "node:path";
import type { ResourceLimitsLayer } from "../../../shared/commands";
import type { NotLimitedCause } from "../../../shared/host-state";

/**
 * Which layer can hold a command's limits on this machine, best first. A cgroup holds the whole command
 * (every process it starts, together); `setrlimit` holds each process on its own; "none" holds nothing.
 */
export type LimitsLayer =
  | {
      kind: "cgroup-v2";
      /** The delegated cgroup the host writes under (its own, or one it was given). */
      base: string;
      /** Whether the cpu controller is there too (a weight below the host's). */
      cpu: boolean;
    }
  | {
      kind: "cgroup-v1";
      /** Where the host's own cgroup is in each controller's hierarchy; commands' cgroups go under them. */
      memory: string;
      pids: string;
      /** Absent where the cpu controller is not mounted or not writable: no lower weight then. */
      cpu?: string;
    }
  | {
      kind: "rlimit";
      /** What per-process limits leave open, in a sentence for Settings. */
      gaps: string;
    }
  | {
      kind: "none";
      /** Why nothing limits a command here, in a sentence for Settings. */
      why: string;
      /** The same, as a kind the page words in its language. */
      cause: NotLimitedCause;
    };

/** Where to look; tests give a stand-in for each. */
export interface LayerSources {
  /** /proc/self/mounts' text. */
  mounts?: string;
  /** /proc/self/cgroup's text. */
  selfCgroup?: string;
  /** The platform (default: process.platform). */
  platform?: NodeJS.Platform;
}

/** What `rlimit` leaves open, said once for Settings and the cards. */
const RLIMIT_GAPS =
  "per process only: each process's memory is limited on its own, and a command can still start many processes";

/**
 * Finds the layer that holds on this machine: cgroup v2 where the host's own cgroup is delegated to it
 * (memory and pids controllers writable below it), cgroup v1 where its memory and pids hierarchies are
 * writable (as root on a v1 machine), else per-process limits (`ulimit` in the command's shell).
 */
export function detectLimitsLayer(sources: LayerSources = {}): LimitsLayer {
  const platform = sources.platform ?? process.platform;
  if (platform === "win32")
    return { kind: "none", why: "Windows: commands are not limited (no Job Object yet).", cause: "windows" };
  // macOS has no cgroups, and its RLIMIT_AS is not enforced: nothing there would hold what it claims.
  if (platform !== "linux")
    return {
      kind: "none",
      why: "this system has no cgroups, and its per-process memory limit is not enforced.",
      cause: "no-cgroups",
    };
  const mounts = parseMounts(sources.mounts ?? readText("/proc/self/mounts"));
  const own = parseSelfCgroup(sources.selfCgroup ?? readText("/proc/self/cgroup"));
  return cgroupV2(mounts, own) ?? cgroupV1(mounts, own) ?? { kind: "rlimit", gaps: RLIMIT_GAPS };
}

/** One cgroup file system mount: where, which version, and (v1) its controllers. */
interface CgroupMount {
  dir: string;
  version: 1 | 2;
  controllers: string[];
}

function parseMounts(text: string): CgroupMount[] {
  const found: CgroupMount[] = [];
  for (const line of text.split("\n")) {
    const [, dir, type, options] = line.split(" ");
    if (!dir || (type !== "cgroup" && type !== "cgroup2")) continue;
    // Spaces in mount points are written \040 by the kernel.
    const path = dir.replaceAll("\\040", " ");
    found.push({ dir: path, version: type === "cgroup2" ? 2 : 1, controllers: (options ?? "").split(",") });
  }
  return found;
}

/** The host's own cgroup paths: "" for v2's unified line, else by controller name. */
function parseSelfCgroup(text: string): Map<string, string> {
  const paths = new Map<string, string>();
  for (const line of text.split("\n")) {
    const match = /^\d+:([^:]*):(.*)$/.exec(line);
    if (!match) continue;
    const [, controllers = "", path = ""] = match;
    if (controllers === "") paths.set("", path);
    for (const name of controllers.split(",")) if (name) paths.set(name, path);
  }
  return paths;
}

function cgroupV2(mounts: CgroupMount[], own: Map<string, string>): LimitsLayer | undefined {
  const mount = mounts.find((m) => m.version === 2);
  const path = own.get("");
  if (!mount || path === undefined) return undefined;
  const base = join(mount.dir, path);
  // Delegated means: the controllers reach this cgroup, and the host may make children and move processes.
  const controllers = readText(join(base, "cgroup.controllers")).split(/\s+/);
  if (!controllers.includes("memory") || !controllers.includes("pids")) return undefined;
  if (!writable(base) || !writable(join(base, "cgroup.subtree_control"))) return undefined;
  return { kind: "cgroup-v2", base, cpu: controllers.includes("cpu") };
}

function cgroupV1(mounts: CgroupMount[], own: Map<string, string>): LimitsLayer | undefined {
  const where = (controller: string): string | undefined => {
    const mount = mounts.find((m) => m.version === 1 && m.controllers.includes(controller));
    const path = own.get(controller);
    if (!mount || path === undefined) return undefined;
    const dir = join(mount.dir, path);
    return writable(dir) ? dir : undefined;
  };
  const memory = where("memory");
  const pids = where("pids");
  if (!memory || !pids) return undefined;
  const cpu = where("cpu");
  return { kind: "cgroup-v1", memory, pids, ...(cpu ? { cpu } : {}) };
}

/** What Settings says of the layer: "limits: cgroup v1", or "per process only: …". */
export function describeLimitsLayer(layer: LimitsLayer): string {
  switch (layer.kind) {
    case "cgroup-v2":
      return "limits: cgroup v2";
    case "cgroup-v1":
      return "limits: cgroup v1";
    case "rlimit":
      return layer.gaps;
    case "none":
      return `not limited: ${layer.why}`;
  }
}

/** The layer as the contract names it (Settings, a card's details). */
export function layerName(layer: LimitsLayer): ResourceLimitsLayer {
  return layer.kind === "rlimit" ? "process" : layer.kind;
}

/** Commands' CPU weight on cgroup v2's scale (the app has 100): the Pi Desk folder's, on v1 512 of 1,024 shares. */
export const COMMAND_CPU_WEIGHT = 50;

/** The CPU weight that holds on this layer; null where none does (no cpu controller, no cgroups). */
export function cpuWeightOf(layer: LimitsLayer): number | null {
  if (layer.kind === "cgroup-v2") return layer.cpu ? COMMAND_CPU_WEIGHT : null;
  if (layer.kind === "cgroup-v1") return layer.cpu ? COMMAND_CPU_WEIGHT : null;
  return null;
}

function writable(path: string): boolean {
  try {
    accessSync(path, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

function readText(path: string): string {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return "";
  }
}
