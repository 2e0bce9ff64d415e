import { join } from "node:path";
import type { ProcessIdentity } from "../../base/process-identity";
import type { LimitsLayer } from "./limits-layer";

/** The folder every Pi Desk host keeps its commands' cgroups in, under its own cgroup. */
export const PI_DESK_GROUP = "pi-desk";

/** One hierarchy a command's cgroup has a folder in: v2's single one, or one v1 controller's. */
export interface CgroupHierarchy {
  /** "v2", or the v1 controller the hierarchy is for. */
  controller: "v2" | "memory" | "pids" | "cpu";
  /** The host's own cgroup in it (the Pi Desk folder goes under it). */
  base: string;
}

/** The layer's hierarchies: one for v2, memory, pids (and cpu where there) for v1; none for the others. */
export function hierarchiesOf(layer: LimitsLayer): CgroupHierarchy[] {
  if (layer.kind === "cgroup-v2") return [{ controller: "v2", base: layer.base }];
  if (layer.kind !== "cgroup-v1") return [];
  const found: CgroupHierarchy[] = [
    { controller: "memory", base: layer.memory },
    { controller: "pids", base: layer.pids },
  ];
  if (layer.cpu) found.push({ controller: "cpu", base: layer.cpu });
  return found;
}

/** The folder of one host's commands in a hierarchy: named for the host, so the next start knows it is dead. */
export function hostGroupDir(hierarchy: CgroupHierarchy, host: ProcessIdentity): string {
  return join(hierarchy.base, PI_DESK_GROUP, hostGroupName(host));
}

/** `<pid>-<start time in hex>`: the start time may hold spaces and colons elsewhere than Linux. */
export function hostGroupName(host: ProcessIdentity): string {
  return `${host.pid}-${Buffer.from(host.startTime).toString("hex")}`;
}

/** The host a host folder's name names; undefined for a name no host wrote. */
export function hostOfGroupName(name: string): ProcessIdentity | undefined {
  const match = /^(\d+)-([0-9a-f]*)$/.exec(name);
  if (!match) return undefined;
  return { pid: Number(match[1]), startTime: Buffer.from(match[2] ?? "", "hex").toString() };
}
