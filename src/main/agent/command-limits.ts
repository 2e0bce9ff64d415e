import type { CommandLimits } from "../../shared/host-state";
import {
  buildCommandEnvironment,
  DEFAULT_TIMEOUT_LIMITS,
  MAX_BACKGROUND_COMMANDS,
  type ResourceLimits,
  RUN_MARKER_ENV,
  type RunCommandOptions,
  type SandboxSettings,
} from "../run-command";

/** The limits the host puts on commands; the person's settings, not the model's. */
export type CommandSettings = Pick<
  RunCommandOptions,
  | "allowedBinaries"
  | "defaultTimeoutSeconds"
  | "maxTimeoutSeconds"
  | "env"
  | "outputBudgetBytes"
  | "limitsLayer"
> & {
  /**
   * The host's memory and process limits per command, over the defaults (half the machine's memory, at most
   * 8 GiB; 2,048 processes); a workspace's own (`CommandToolsChat.resourceLimits`) go over these. `false`:
   * commands are not limited at all (tests).
   */
  resourceLimits?: Partial<ResourceLimits> | false;
  /** The most a workspace's saved outputs take together, in bytes (default 2 GiB); the oldest go first. */
  outputQuotaBytes?: number;
  /** How long a background command may run, in seconds, unless the workspace says otherwise (default 4 h). */
  backgroundCapSeconds?: number;
  /** How long `run_command` waits for a background command to be ready before returning (default 10 s). */
  backgroundReadinessMs?: number;
  /**
   * For tests only: how the network proxy resolves allowed names, and whether it may reach loopback (fake
   * upstreams on 127.0.0.2). Absent: the OS resolver, loopback and private addresses refused.
   */
  networkTestHooks?: Pick<SandboxSettings, "resolveHost" | "allowLoopbackTargets">;
};

/** The limits that hold for the whole session; the sandbox, the background cap and saved outputs change. */
export type FixedLimits = Omit<
  CommandLimits,
  "sandbox" | "backgroundCapSeconds" | "savedOutputs" | "changes"
>;

/** What the host enforces on every command of a session, as Settings shows it. */
export function fixedLimits(workspaceRoot: string, settings: CommandSettings): FixedLimits {
  return {
    allowedBinaries: settings.allowedBinaries ?? [],
    defaultTimeoutSeconds: settings.defaultTimeoutSeconds ?? DEFAULT_TIMEOUT_LIMITS.defaultSeconds,
    maxTimeoutSeconds: settings.maxTimeoutSeconds ?? DEFAULT_TIMEOUT_LIMITS.maxSeconds,
    environment: [
      ...Object.keys(buildCommandEnvironment({ workspaceRoot, extra: settings.env })),
      RUN_MARKER_ENV,
    ].sort(),
    maxBackgroundCommands: MAX_BACKGROUND_COMMANDS,
  };
}
