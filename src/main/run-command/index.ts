/**
 * `run_command`, the one way the agent runs a shell command, and what the rest of the host needs to set it
 * up and judge its requests. The only import path into this folder: its inner parts (shell/, policy/,
 * process/, output/, sandbox/) stay free to change.
 */

export {
  BackgroundCommands,
  DEFAULT_BACKGROUND_CAP_SECONDS,
  MAX_BACKGROUND_COMMANDS,
} from "./background/background-commands";
export {
  createCommandOutputTool,
  createStopCommandTool,
  describeBackground,
} from "./background/background-tools";
export type { CommandRecorder, RecordedChanges } from "./command-changes";
export { buildCommandEnvironment } from "./command-environment";
export { MAX_ASKED_HOSTS, type NetworkOffer } from "./command-network";
export { DEFAULT_TIMEOUT_LIMITS } from "./command-timeout";
export type { BackgroundGroup } from "./limits/background-group";
export { machineLimitsLayer } from "./limits/command-limiter";
export { cpuWeightOf, describeLimitsLayer, type LimitsLayer, layerName } from "./limits/limits-layer";
export {
  checkResourceLimits,
  DEFAULT_PROCESS_LIMIT,
  defaultResourceLimits,
  type ResourceLimits,
} from "./limits/resource-limits";
export { DEFAULT_OUTPUT_BUDGET_BYTES } from "./output/output-file";
export { DEFAULT_OUTPUT_QUOTA_BYTES, OutputQuota } from "./output/output-quota";
export { FULL_OUTPUT_RETENTION_DAYS, pruneFullOutputs } from "./output/output-retention";
export {
  ARGUMENT_TABLE_VERSION,
  type ArgumentHit,
  argumentHits,
  effectsOf,
  inArgumentTable,
} from "./policy/argument-table";
export { RUN_MARKER_ENV } from "./process/process-tree";
export { type RunRecord, RunRegistry, reapOrphanedRuns } from "./process/run-registry";
export {
  type ApprovalDecision,
  type CommandRequest,
  createRunCommandTool,
  type RunCommandDetails,
  type RunCommandOptions,
  type RunCommandProgress,
} from "./run-command";
export {
  type HostDecisionEvent,
  MAX_OPEN_CONNECTIONS,
  type ProxyProtocol,
} from "./sandbox/network/host-gate";
export {
  type AllowedHostsCheck,
  checkAllowedHosts,
  type HostPattern,
  parseHostPattern,
} from "./sandbox/network/host-pattern";
export type { SandboxCheck, SandboxSettings } from "./sandbox/sandbox";
export { checkSandbox } from "./sandbox/sandbox-check";
export { UNCHECKABLE_COMMANDS, UNWRAPPED_WRAPPERS } from "./shell/command-wrappers";
export type { ParsedCommand, ParsedCommandLine, ShellRisk } from "./shell/parsed-line";
export { MAX_COMMAND_LENGTH, parseCommandLine } from "./shell/shell-parser";
export {
  finalContents,
  type KnownWrite,
  knownShellWrites,
  readShellWrites,
  type ShellWrites,
} from "./shell/shell-writes";
