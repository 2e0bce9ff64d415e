import type { RefusalText } from "../../shared/host-text";

/** The host's limits on how long a command may run, in seconds. */
export interface TimeoutLimits {
  /** Used when the model gives none. */
  defaultSeconds: number;
  /** The cap: a larger request is lowered to it. */
  maxSeconds: number;
}

/** The default limits: 30 seconds unless asked, never more than 120. */
export const DEFAULT_TIMEOUT_LIMITS: TimeoutLimits = { defaultSeconds: 30, maxSeconds: 120 };

/** The effective timeout of a command, or why the requested one is refused. */
export type TimeoutDecision =
  | { ok: true; seconds: number; capped: boolean }
  | { ok: false; error: string; say: RefusalText };

/**
 * Decides a command's timeout from an untrusted request: absent means the default, a larger value than the
 * cap is lowered to it, and anything that is not a finite number above zero is refused before anything runs.
 * So there is never an unbounded command.
 */
export function resolveTimeout(requested: unknown, limits: TimeoutLimits): TimeoutDecision {
  if (requested === undefined || requested === null) {
    return { ok: true, seconds: Math.min(limits.defaultSeconds, limits.maxSeconds), capped: false };
  }
  if (typeof requested !== "number" || !Number.isFinite(requested) || requested <= 0) {
    const given = JSON.stringify(requested) ?? String(requested);
    return {
      ok: false,
      error:
        `Invalid timeout: ${given}. Give a number of seconds above 0 ` +
        `(at most ${limits.maxSeconds}), or leave it out for the default of ${limits.defaultSeconds}.`,
      say: {
        id: "invalid-timeout",
        given,
        maxSeconds: limits.maxSeconds,
        defaultSeconds: limits.defaultSeconds,
      },
    };
  }
  if (requested > limits.maxSeconds) return { ok: true, seconds: limits.maxSeconds, capped: true };
  return { ok: true, seconds: requested, capped: false };
}

/** Checks the host's own limits when the tool is created: a bad configuration fails loudly at start. */
export function checkTimeoutLimits(limits: TimeoutLimits): void {
  for (const [name, value] of Object.entries(limits)) {
    if (!Number.isFinite(value) || value <= 0) {
      throw new Error(`run_command: ${name} must be a number of seconds above 0, got ${value}.`);
    }
  }
  if (limits.defaultSeconds > limits.maxSeconds) {
    throw new Error(
      `run_command: the default timeout (${limits.defaultSeconds}s) is above the cap (${limits.maxSeconds}s).`,
    );
  }
}
