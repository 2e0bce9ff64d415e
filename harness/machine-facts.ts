import { readFileSync } from "node:fs";
import { cpus } from "node:os";

/*
 * What a bench's result says of the machine it ran on: figures on this shared 2-core machine move by a
 * third with the load, so every result carries the load before and after. No imports beyond node:, so the
 * benches load it directly on Node 22.
 */

/** The load average now, as `/proc/loadavg` has it (1, 5 and 15 minutes, runnable/all tasks, last pid). */
export const loadavg = (): string => readFileSync("/proc/loadavg", "utf8").trim();

/** The `machine` block of a UI bench's result. */
export interface MachineFacts {
  /** Cores. */
  cpus: number;
  /** The load average when the bench started. */
  loadavgBefore: string;
  /** The load average when it ended. */
  loadavgAfter: string;
  /** The Node running the bench. */
  node: string;
  /** The Chromium it drove. */
  chromium: string;
  /** Whether Chromium ran without a window. */
  headless: boolean;
}

/** The machine now, for a bench that started at `loadavgBefore` and drove `chromium`. */
export function machineFacts(run: {
  loadavgBefore: string;
  chromium: string;
  headless: boolean;
}): MachineFacts {
  return {
    cpus: cpus().length,
    loadavgBefore: run.loadavgBefore,
    loadavgAfter: loadavg(),
    node: process.version,
    chromium: run.chromium,
    headless: run.headless,
  };
}
