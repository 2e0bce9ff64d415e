import type { CommandLimits, ResourceLimitsState } from "../../shared/host-state";
import {
  buildCommandEnvironment,
  cpuWeightOf,
  DEFAULT_TIMEOUT_LIMITS,
  defaultResourceLimits,
  describeLimitsLayer,
  layerName,
  MAX_BACKGROUND_COMMANDS,
  machineLimitsLayer,
  type ResourceLimits,
  RUN_MARKER_ENV,
  type RunCommandOptions,
  type SandboxSettings,
} from "../run-command";
import type { WorkspaceLimits } from "../storage/workspace-settings";

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
  /** The host's total for each workspace's background commands together, over the default (`backgroundTotal`). */
  backgroundTotal?: Partial<ResourceLimits>;
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

/**
 * The limits each command of a workspace runs under, as Settings shows them: the workspace's own over the
 * host's over the defaults, and the layer that holds them (none where the host turned them off).
 */
export function resourceLimitsState(
  settings: CommandSettings,
  workspace: WorkspaceLimits | undefined,
): ResourceLimitsState {
  const hostLimits = settings.resourceLimits === false ? {} : (settings.resourceLimits ?? {});
  const defaults = { ...defaultResourceLimits(), ...definedOnly(hostLimits) };
  const own = definedOnly({ memoryBytes: workspace?.memoryBytes, processes: workspace?.processes });
  if (settings.resourceLimits === false) {
    return {
      layer: "none",
      description: "not limited: this host was started with resource limits off",
      notLimited: "off",
      ...defaults,
      cpuWeight: null,
      defaults,
      fromWorkspace: { memoryBytes: false, processes: false },
    };
  }
  const layer = settings.limitsLayer ?? machineLimitsLayer();
  return {
    layer: layerName(layer),
    description: describeLimitsLayer(layer),
    ...(layer.kind === "none" ? { notLimited: layer.cause } : {}),
    ...defaults,
    ...own,
    cpuWeight: cpuWeightOf(layer),
    defaults,
    fromWorkspace: {
      memoryBytes: own.memoryBytes !== undefined,
      processes: own.processes !== undefined,
      backgroundMemoryBytes: workspace?.backgroundMemoryBytes !== undefined,
      backgroundProcesses: workspace?.backgroundProcesses !== undefined,
    },
    // Only a cgroup holds a total of several commands.
    ...(layer.kind === "cgroup-v1" || layer.kind === "cgroup-v2"
      ? { backgroundTotal: backgroundTotal(settings, workspace) }
      : {}),
  };
}

/**
 * The most a workspace's background commands may use together (all its chats'): the workspace's own total,
 * else as much memory as one command may have (so several servers share what one command could take) and
 * twice its processes.
 */
export function backgroundTotal(
  settings: CommandSettings,
  workspace: WorkspaceLimits | undefined,
): ResourceLimits {
  const hostLimits = settings.resourceLimits === false ? {} : (settings.resourceLimits ?? {});
  const perCommand = {
    ...defaultResourceLimits(),
    ...definedOnly(hostLimits),
    ...definedOnly({ memoryBytes: workspace?.memoryBytes, processes: workspace?.processes }),
  };
  return {
    memoryBytes:
      workspace?.backgroundMemoryBytes ?? settings.backgroundTotal?.memoryBytes ?? perCommand.memoryBytes,
    processes:
      workspace?.backgroundProcesses ?? settings.backgroundTotal?.processes ?? 2 * perCommand.processes,
  };
}

function definedOnly<T extends object>(limits: T): Partial<T> {
  return Object.fromEntries(Object.entries(limits).filter(([, value]) => value !== undefined)) as Partial<T>;
}
