import { existsSync } from "node:fs";
import { CommandLimiter, machineLimitsLayer } from "../../../../src/main/run-command/limits/command-limiter";

/** Whether this machine lets the host write cgroups (v1 or v2), and why not when it does not. */
export function cgroupsWritable(): { ok: boolean; why: string } {
  const layer = machineLimitsLayer();
  if (layer.kind === "cgroup-v1" || layer.kind === "cgroup-v2") return { ok: true, why: "" };
  return {
    ok: false,
    why: `cgroups are not writable here (${layer.kind}: ${"why" in layer ? layer.why : layer.gaps}); these tests need them`,
  };
}

/** A limiter on this machine's layer. */
export function machineLimiter(): CommandLimiter {
  return new CommandLimiter();
}

/** Waits until `check` holds, for at most `ms`. */
export async function until(check: () => boolean, ms: number): Promise<void> {
  for (const end = Date.now() + ms; Date.now() < end; ) {
    if (check()) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`timed out after ${ms} ms waiting`);
}

/** Whether none of the folders is there any more. */
export const allGone = (dirs: string[]) => dirs.every((dir) => !existsSync(dir));
