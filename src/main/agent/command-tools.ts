import type { ApprovalDecision, BackgroundState } from "../../shared/commands";
import type { HostTally } from "../../shared/network";
import {
  BackgroundCommands,
  type BackgroundGroup,
  type CommandRecorder,
  type CommandRequest,
  createCommandOutputTool,
  createRunCommandTool,
  createStopCommandTool,
  describeBackground,
  type HostDecisionEvent,
  MAX_BACKGROUND_COMMANDS,
  type OutputQuota,
  type ResourceLimits,
  type RunCommandOptions,
  type RunRegistry,
} from "../run-command";
import type { CommandSettings } from "./command-limits";
import type { SessionProjection } from "./session-projection";

/** What the command tools ask of their chat, read at every call (the chat exists only after the tools). */
export interface CommandToolsChat {
  /** Asks the person (through the command gate). */
  approve(request: CommandRequest, signal: AbortSignal | undefined): Promise<ApprovalDecision>;
  /** The workspace's sandbox choice now, with its allowed hosts (and what a worktree chat's git may write). */
  sandbox(): {
    enabled: boolean;
    network: boolean;
    allowedHosts: string[];
    readOnlyPaths?: readonly string[];
    writablePaths?: readonly string[];
  };
  /** A sandboxed command's proxy decided on a host: audit it, and show the command's `hosts` so far on its card. */
  hostDecision?(commandId: string, event: HostDecisionEvent, hosts: HostTally[]): void;
  /** How long a background command may run now, in seconds. */
  backgroundCapSeconds(): number;
  /** A background command ended: audit it. */
  backgroundEnded(id: string, command: string, state: BackgroundState): void;
  /**
   * The workspace's own memory and process limits per command (its settings file's `limits`), read as each
   * command starts, so a change applies from the next command; absent: the host's.
   */
  resourceLimits?(): Partial<ResourceLimits> | undefined;
  /** The running-commands registry's owner record: this conversation and its audit log. */
  runOwner(): { sessionId: string; auditFile: string } | undefined;
}

/** Where and how one chat's commands run. */
export interface CommandToolsOptions {
  settings: CommandSettings;
  workspaceRoot: string;
  outputDir: string;
  outputQuota: OutputQuota;
  hiddenPaths: string[];
  runRegistry?: RunRegistry;
  projection: SessionProjection;
  /** Records what each command changes, when the workspace's change engine is on. */
  recorder?: CommandRecorder;
  /** How many background commands the workspace's chats run together (one cap holds for them all); absent: this chat's. */
  workspaceBackground?: () => number;
  /** The workspace's background group, whose total bounds its background commands together. */
  backgroundGroup?: BackgroundGroup;
  chat: CommandToolsChat;
}

/**
 * One chat's command tools: `run_command`, with each call cancellable on its own (its AbortController,
 * chained to the turn's signal: Cancel stops that command, Stop stops them all), and the background
 * commands with their `command_output` and `stop_command`.
 */
export function createCommandTools(options: CommandToolsOptions) {
  const { projection, chat, recorder } = options;
  const controllers = new Map<string, AbortController>();
  const background = new BackgroundCommands(
    {
      onState: (id, _command, state) => projection.views.backgroundChanged(id, state),
      onOutput: (id, output) => projection.views.backgroundOutput(id, output),
      onEnd: (id, command, state, outcome) => {
        projection.views.backgroundEnded(id, state, outcome.output);
        projection.addNotice("info", `Background command \`${command}\`: ${describeBackground(state)}`, {
          id: "background-ended",
          command,
          state,
        });
        chat.backgroundEnded(id, command, state);
        // Its record ends now; the model already had its result, the card shows what it changed.
        void recorder?.ended(id).then(({ changes }) => {
          const details = projection.views.byId.get(id)?.details;
          if (details) projection.views.update(id, { details: { ...details, changes } });
        });
      },
    },
    MAX_BACKGROUND_COMMANDS,
    options.workspaceBackground,
  );
  const { networkTestHooks, resourceLimits: hostLimits, ...settings } = options.settings;
  const runOptions: RunCommandOptions = {
    ...settings,
    workspaceRoot: options.workspaceRoot,
    outputDir: options.outputDir,
    outputQuota: options.outputQuota,
    // Read at every call: the person can turn the sandbox off or on, or change its hosts, at any time.
    sandbox: () => ({ ...chat.sandbox(), ...networkTestHooks }),
    onHostDecision: (commandId, event, hosts) => chat.hostDecision?.(commandId, event, hosts),
    hiddenPaths: options.hiddenPaths,
    ...(options.backgroundGroup ? { backgroundGroup: options.backgroundGroup } : {}),
    // The workspace's limits over the host's, read as each command starts.
    resourceLimits:
      hostLimits === false ? false : () => ({ ...hostLimits, ...definedLimits(chat.resourceLimits?.()) }),
    // The record of a running command names this conversation and its audit log, so a start after a
    // crash can write down how the command ended.
    runRegistry: options.runRegistry?.withOwner(() => chat.runOwner()),
    approve: (request, signal) => chat.approve(request, signal),
    ...(recorder ? { recorder } : {}),
    background: {
      commands: background,
      capSeconds: () => chat.backgroundCapSeconds(),
      readinessMs: options.settings.backgroundReadinessMs,
    },
  };
  const runCommand = createRunCommandTool(runOptions);
  const execute = runCommand.execute.bind(runCommand);
  runCommand.execute = async (toolCallId, params, signal, onUpdate, ctx) => {
    const controller = new AbortController();
    controllers.set(toolCallId, controller);
    try {
      const combined = signal ? AbortSignal.any([signal, controller.signal]) : controller.signal;
      return await execute(toolCallId, params, combined, onUpdate, ctx);
    } finally {
      controllers.delete(toolCallId);
    }
  };
  return {
    runCommand,
    backgroundTools: [createCommandOutputTool(background), createStopCommandTool(background)],
    background,
    /** The running (or pending) calls' own controllers, by tool call id. */
    controllers,
  };
}

/** One chat's command tools and what they hold per command, as `createCommandTools` returns them. */
export type CommandTools = ReturnType<typeof createCommandTools>;

/** Only the limits a workspace set: an absent one keeps the host's. */
function definedLimits(limits: Partial<ResourceLimits> | undefined): Partial<ResourceLimits> {
  return Object.fromEntries(Object.entries(limits ?? {}).filter(([, value]) => value !== undefined));
}
