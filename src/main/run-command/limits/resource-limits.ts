import { totalmem } from "node:os";
import { MIN_RESOURCE_LIMITS as SMALLEST } from "../../../shared/commands";

export type { LimitStop } from "../../../shared/commands";

/** What one command may use at most, whatever layer enforces it (see limits-layer.ts). */
export interface ResourceLimits {
  /** Memory of the whole command (every process it starts), in bytes. */
  memoryBytes: number;
  /** Processes and threads the command may have at once. */
  processes: number;
}

/** The most the default memory limit is, however large the machine: 8 GiB. */
export const MAX_DEFAULT_MEMORY_BYTES = 8 * 1024 ** 3;

/** Processes and threads a command may have at once unless the workspace says otherwise. */
export const DEFAULT_PROCESS_LIMIT = 2_048;

/** The smallest limits a person may set: below them even `git status` may not run. */
export const MIN_RESOURCE_LIMITS: ResourceLimits = SMALLEST;

/** The defaults: half of the machine's memory (at most 8 GiB), 2,048 processes. */
export function defaultResourceLimits(machineMemoryBytes: number = totalmem()): ResourceLimits {
  return {
    memoryBytes: Math.min(Math.floor(machineMemoryBytes / 2), MAX_DEFAULT_MEMORY_BYTES),
    processes: DEFAULT_PROCESS_LIMIT,
  };
}

/** What is wrong with limits a person or a settings file gave, as a sentence; undefined when they may be used. */
export function checkResourceLimits(limits: Partial<ResourceLimits>): string | undefined {
  const { memoryBytes, processes } = limits;
  if (
    memoryBytes !== undefined &&
    !(Number.isSafeInteger(memoryBytes) && memoryBytes >= MIN_RESOURCE_LIMITS.memoryBytes)
  )
    return `A command's memory limit must be a whole number of bytes, at least ${MIN_RESOURCE_LIMITS.memoryBytes} (16 MiB); got ${memoryBytes}. Set 16 MiB or more, or leave it empty for the default.`;
  if (
    processes !== undefined &&
    !(Number.isSafeInteger(processes) && processes >= MIN_RESOURCE_LIMITS.processes)
  )
    return `A command's process limit must be a whole number, at least ${MIN_RESOURCE_LIMITS.processes}; got ${processes}. Set ${MIN_RESOURCE_LIMITS.processes} or more, or leave it empty for the default.`;
  return undefined;
}

/** The limits that hold: the defaults with what was given over them. Throws on a limit `checkResourceLimits` refuses. */
export function resolveResourceLimits(given: Partial<ResourceLimits> | undefined): ResourceLimits {
  const problem = given ? checkResourceLimits(given) : undefined;
  if (problem) throw new Error(problem);
  return { ...defaultResourceLimits(), ...definedOnly(given ?? {}) };
}

function definedOnly(limits: Partial<ResourceLimits>): Partial<ResourceLimits> {
  return Object.fromEntries(Object.entries(limits).filter(([, v]) => v !== undefined));
}
