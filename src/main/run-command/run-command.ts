import { randomUUID } from "node:crypto";
import { statSync } from "node:fs";
import { resolve } from "node:path";
import { defineTool } from "@earendil-works/pi-coding-agent";
import type {
  ApprovalDecision,
  CommandSandboxView,
  ResourceLimitsLayer,
  RunCommandDetails,
  RunCommandProgress,
} from "../../shared/commands";
import type { HostTally, NetworkChoice } from "../../shared/network";
import type { BackgroundCommands } from "./background/background-commands";
import { DEFAULT_BACKGROUND_CAP_SECONDS } from "./background/background-commands";
import { DEFAULT_READINESS_MS, runWithHandover } from "./background/handover-run";
import { type CommandRecorder, recordChanges } from "./command-changes";
import { buildCommandEnvironment } from "./command-environment";
import { chooseNetwork, type NetworkOffer, offerNetwork, withHosts } from "./command-network";
import { type CommandFacts, notRunResult, type RunCommandResult, ranResult } from "./command-result";
import {
  checkTimeoutLimits,
  DEFAULT_TIMEOUT_LIMITS,
  resolveTimeout,
  type TimeoutLimits,
} from "./command-timeout";
import type { BackgroundGroup } from "./limits/background-group";
import { CommandLimiter } from "./limits/command-limiter";
import { type LimitsLayer, layerName } from "./limits/limits-layer";
import { type ResourceLimits, resolveResourceLimits } from "./limits/resource-limits";
import { checkOutputBudget, DEFAULT_OUTPUT_BUDGET_BYTES, type OutputSpace } from "./output/output-file";
import { applyEdit, askPerson, type Refusal } from "./persons-answer";
import { checkAllowlist } from "./policy/command-policy";
import { type RunProcessOptions, runProcess } from "./process/process-runner";
import type { RunRegistry } from "./process/run-registry";
import type { HostDecisionEvent } from "./sandbox/network/host-gate";
import { HostLedger } from "./sandbox/network/host-ledger";
import { createSandbox, type SandboxSettings, sandboxLimitHint } from "./sandbox/sandbox";
import type { ParsedCommandLine } from "./shell/parsed-line";
import { parseCommandLine } from "./shell/shell-parser";
import { describeRunCommand, parameters } from "./tool-definition";

export type { ApprovalDecision, RunCommandDetails, RunCommandProgress } from "../../shared/commands";

/** How the host sets up `run_command` for one workspace. */
export interface RunCommandOptions {
  /** Every command runs here, whatever the model asks; must be an existing folder. */
  workspaceRoot: string;
  /** Binaries commands may run (checked on the parsed command); empty or absent means unrestricted. */
  allowedBinaries?: string[];
  /** Timeout when the model gives none, in seconds (default 30). */
  defaultTimeoutSeconds?: number;
  /** The host's cap on any timeout, in seconds (default 120). */
  maxTimeoutSeconds?: number;
  /** Asks the person; called after validation and policy, before anything runs. Absent: run without asking. */
  approve?: (request: CommandRequest, signal: AbortSignal | undefined) => Promise<ApprovalDecision>;
  /** Extra variables the person chose to pass to commands. */
  env?: Record<string, string>;
  /** The commands' HOME; a private per-workspace folder when absent. */
  homeDir?: string;
  /** Where full-output files go; a private folder under the system temp dir when absent. */
  outputDir?: string;
  /** The most one command's saved full output takes on disk, in bytes (default 256 MiB); past it the middle is left out. */
  outputBudgetBytes?: number;
  /** The workspace's quota for saved outputs, which removes the oldest to make room (output-quota.ts); absent: none. */
  outputQuota?: OutputSpace;
  /**
   * Run commands in the platform's sandbox (bubblewrap, Seatbelt); absent means off. A function is read
   * at every call, so the person can turn it on or off for the workspace without a new session.
   */
  sandbox?: SandboxSettings | (() => SandboxSettings);
  /** What the sandbox hides besides the person's home (the Pi agent dir, Pi Desk's data dir). */
  hiddenPaths?: string[];
  /** The person's home as the sandbox hides it (default: os.homedir()); tests point it at a fake one. */
  personHomeDir?: string;
  /** Where running commands are recorded, so the next start can kill what a crashed host left behind. */
  runRegistry?: RunRegistry;
  /** The PATH bwrap is looked up on (default: the host's PATH); tests take bwrap away with it. */
  sandboxSearchPath?: string;
  /** Records what each command changes in the workspace (the host's change engine); absent: not recorded. */
  recorder?: CommandRecorder;
  /**
   * Told each decision of a sandboxed command's network proxy as it is made (allowed-hosts mode): a host
   * opened, closed with its bytes, or refused with the reason, and the command's tally of hosts so far
   * (what its result will list). For the audit log and the live card; `commandId` is the tool call id.
   */
  onHostDecision?: (commandId: string, event: HostDecisionEvent, hosts: HostTally[]) => void;
  /**
   * Memory and process limits for each command (limits/): over the defaults (half the machine's memory, at
   * most 8 GiB; 2,048 processes). `false`: none (tests; the bench's "off"). A function is read at every
   * call, so a limit changed in Settings applies from the next command.
   */
  resourceLimits?: Partial<ResourceLimits> | false | (() => Partial<ResourceLimits> | false | undefined);
  /** The layer that holds the limits (default: this machine's, detected once); tests give a stand-in v2 tree. */
  limitsLayer?: LimitsLayer;
  /**
   * The workspace-wide total of its background commands (limits/background-group.ts): a command started in
   * the background runs inside the group, bounded by its own limits and, with the others, by the total.
   */
  backgroundGroup?: BackgroundGroup;
  /** The chat's background commands; without it, `background: true` is refused. */
  background?: {
    /** Where started background commands go. */
    commands: BackgroundCommands;
    /** How long one may run, in seconds (default 4 hours). A function is read at every call. */
    capSeconds?: number | (() => number);
    /** How long the tool waits for one to be ready before returning (default 10 s). */
    readinessMs?: number;
  };
}

/** A command waiting for the person's decision. */
export interface CommandRequest {
  /** Unique per request; a decision names it. */
  id: string;
  /** The agent's tool call this command belongs to. */
  toolCallId: string;
  /** The command exactly as the model asked for it. */
  command: string;
  /** Where it will run: the workspace. */
  cwd: string;
  /** The effective timeout in seconds. */
  timeoutSeconds: number;
  /** The timeout the model asked for, when it was lowered to the cap. */
  requestedTimeoutSeconds?: number;
  /** The host's cap, the most an edited timeout may ask. */
  maxTimeoutSeconds: number;
  /** The command as the shell parser reads it: every command it would run, and the risky constructs. */
  parsed: ParsedCommandLine;
  /** Whether it will run sandboxed, and with the full network (the person may still allow the network for it). */
  sandbox: CommandSandboxView;
  /** The network choice for the card (sandboxed only): the default mode, the workspace's hosts, the agent's asks. */
  network: NetworkOffer;
  /** Whether it is to run in the background (the person may switch it before approving). */
  background: boolean;
  /** How long a background command may run, in seconds: what the card says of it. */
  backgroundCapSeconds: number;
}

/**
 * The agent's one way to run shell commands. The host enforces the boundary, never the model: the working
 * directory is pinned, the timeout is validated and capped, binaries are checked against the allowlist on
 * the parsed command, the environment is built from an allowlist, the person approves, and timeout and
 * cancel kill the whole process tree.
 */
export function createRunCommandTool(options: RunCommandOptions) {
  const workspaceRoot = checkWorkspace(options.workspaceRoot);
  const limits: TimeoutLimits = {
    defaultSeconds: options.defaultTimeoutSeconds ?? DEFAULT_TIMEOUT_LIMITS.defaultSeconds,
    maxSeconds: options.maxTimeoutSeconds ?? DEFAULT_TIMEOUT_LIMITS.maxSeconds,
  };
  checkTimeoutLimits(limits);
  const outputBudgetBytes = options.outputBudgetBytes ?? DEFAULT_OUTPUT_BUDGET_BYTES;
  checkOutputBudget(outputBudgetBytes);
  const allowedBinaries = options.allowedBinaries ?? [];
  const env = buildCommandEnvironment({ workspaceRoot, homeDir: options.homeDir, extra: options.env });
  const sandboxSettings = (): SandboxSettings | undefined =>
    typeof options.sandbox === "function" ? options.sandbox() : options.sandbox;
  const sandboxFor = (settings: SandboxSettings | undefined) =>
    settings?.enabled
      ? createSandbox({
          homeDir: options.personHomeDir,
          hiddenPaths: options.hiddenPaths,
          readOnlyPaths: settings.readOnlyPaths,
          writablePaths: settings.writablePaths,
          searchPath: options.sandboxSearchPath,
        })
      : undefined;
  const describedSandbox = sandboxSettings();
  const limiter =
    options.resourceLimits === false ? undefined : new CommandLimiter({ layer: options.limitsLayer });
  /** The layer its commands' limits are held by, for their cards. */
  const runLayer: ResourceLimitsLayer = limiter ? layerName(limiter.layer) : "none";
  /** The limits for a command starting now (in the background: in its workspace's group); undefined when commands are not limited. */
  const startLimits = (background: boolean): ReturnType<CommandLimiter["start"]> => {
    const given =
      typeof options.resourceLimits === "function" ? options.resourceLimits() : options.resourceLimits;
    if (given === false || !limiter) return undefined;
    return limiter.start(resolveResourceLimits(given), background ? options.backgroundGroup : undefined);
  };
  const backgroundCap = (): number => {
    const cap = options.background?.capSeconds;
    return (typeof cap === "function" ? cap() : cap) ?? DEFAULT_BACKGROUND_CAP_SECONDS;
  };
  /** Why a background command may not start now, in English and as a kind; undefined when it may. */
  const backgroundRefusal = (): Refusal | undefined => {
    if (!options.background)
      return {
        refusal: "Background commands are not available here; run it without background: true.",
        say: { id: "background-unavailable" },
      };
    const refusal = options.background.commands.refusal();
    return refusal ? { refusal, say: options.background.commands.refusalSay() } : undefined;
  };

  /** Validation and policy, run on the model's command and again on an edited one. Null when it may go on. */
  const check = async (command: string): Promise<{ parsed: ParsedCommandLine } | Refusal> => {
    if (command.trim() === "")
      return { refusal: "The command is empty. Give a shell command to run.", say: { id: "empty-command" } };
    const parsed = await parseCommandLine(command);
    const verdict = checkAllowlist(parsed, { allowedBinaries, workspaceRoot, pathEnv: env.PATH ?? "" });
    return verdict.allowed ? { parsed } : { refusal: verdict.reason, say: verdict.say };
  };
  /** The result of a refusal: the model reads the English sentence, the card words it from `say`. */
  const refused = (facts: CommandFacts, { refusal, say }: Refusal, text = refusal) =>
    notRunResult(facts, "refused", text, refusal, say);

  return defineTool<typeof parameters, RunCommandDetails | RunCommandProgress>({
    name: "run_command",
    label: "Run command",
    description: describeRunCommand({
      workspaceRoot,
      limits,
      allowedBinaries,
      sandbox: describedSandbox,
      recordsChanges: options.recorder !== undefined,
    }),
    promptSnippet: "Run shell commands in the workspace, with the user's approval",
    parameters,
    executionMode: "parallel",
    async execute(toolCallId, params, signal, onUpdate): Promise<RunCommandResult> {
      const timeout = resolveTimeout(params.timeout, limits);
      let facts: CommandFacts = {
        command: params.command,
        edited: false,
        cwd: workspaceRoot,
        timeoutSeconds: timeout.ok ? timeout.seconds : limits.defaultSeconds,
      };
      if (!timeout.ok) return refused(facts, { refusal: timeout.error, say: timeout.say });
      let asked = timeout.capped ? (params.timeout as number) : undefined;

      const checked = await check(params.command);
      if ("refusal" in checked) return refused(facts, checked);
      // Fail closed before asking: a command that cannot run sandboxed must not run at all.
      const settings = sandboxSettings();
      const sandboxOn = settings?.enabled === true;
      const sandbox = sandboxFor(settings);
      const noSandbox = sandbox?.unavailable();
      if (noSandbox) return refused(facts, { refusal: noSandbox, say: sandbox?.unavailableSay() });
      const offered = offerNetwork(
        settings,
        params.network,
        sandbox !== undefined && sandbox.kind !== "none",
      );
      if ("refusal" in offered)
        return notRunResult(facts, "refused", offered.refusal, offered.refusal, offered.say);
      let networkChoice: boolean | NetworkChoice | undefined;
      let background = params.background === true;
      const full = background ? backgroundRefusal() : undefined;
      if (full) return refused(facts, full);

      if (options.approve) {
        const request: CommandRequest = {
          id: randomUUID(),
          toolCallId,
          command: params.command,
          cwd: workspaceRoot,
          timeoutSeconds: facts.timeoutSeconds,
          ...(asked !== undefined ? { requestedTimeoutSeconds: asked } : {}),
          maxTimeoutSeconds: limits.maxSeconds,
          parsed: checked.parsed,
          sandbox: {
            enabled: sandboxOn,
            network: settings?.network === true,
            ...(sandboxOn && settings?.network === true ? { localServices: true } : {}),
          },
          network: offered.offer,
          background,
          backgroundCapSeconds: backgroundCap(),
        };
        const decision = await askPerson(options.approve, request, signal);
        if (decision.kind === "cancelled") {
          return notRunResult(facts, "cancelled", "Command cancelled by the user before it ran.");
        }
        if (decision.kind === "deny") {
          const why = decision.reason?.trim();
          const text = `The user denied this command; it did not run.${why ? ` Their reason: ${why}` : ""}`;
          return notRunResult(facts, "denied", text, why || undefined);
        }
        networkChoice = decision.network;
        if (decision.background !== undefined) background = decision.background;
        const edited = applyEdit(facts, decision, limits);
        if ("refusal" in edited) return refused(facts, edited);
        if (edited.facts.edited) {
          facts = edited.facts;
          asked = undefined;
          const recheck = await check(facts.command);
          if ("refusal" in recheck) {
            return refused(facts, recheck, `The user's edited command was refused: ${recheck.refusal}`);
          }
        }
      }

      // Decided only now, with the person's choice: the agent's asked hosts count only when granted.
      const ledger = new HostLedger();
      const chosen = chooseNetwork(offered.offer, networkChoice, {
        resolveHost: settings?.resolveHost,
        allowLoopbackTargets: settings?.allowLoopbackTargets,
        onDecision: (event) => {
          ledger.record(event);
          options.onHostDecision?.(toolCallId, event, ledger.list());
        },
      });
      if ("refusal" in chosen)
        return notRunResult(facts, "refused", chosen.refusal, chosen.refusal, chosen.say);
      const network = chosen.policy;

      if (background) {
        // Checked again: others may have started while the person decided.
        const refusal = backgroundRefusal();
        if (refusal) return refused(facts, refusal);
        facts = { ...facts, timeoutSeconds: backgroundCap() };
      }
      // The before-state is taken first: the card turns to running (and offers Keep running) once the
      // command really starts.
      return recordChanges(options.recorder, toolCallId, signal, async () => withHosts(ledger, await run()));
      async function run(): Promise<RunCommandResult> {
        const startedAt = performance.now();
        /** The command's limits once it started (moved into the workspace's group if it is kept running). */
        let limited: ReturnType<typeof startLimits>;
        const progress = (update: { text: string; totalBytes: number; totalLines: number }) =>
          onUpdate?.({
            content: [{ type: "text", text: update.text }],
            details: {
              status: "running",
              command: facts.command,
              timeoutSeconds: facts.timeoutSeconds,
              elapsedMs: Math.round(performance.now() - startedAt),
              totalBytes: update.totalBytes,
              totalLines: update.totalLines,
              limitsLayer: runLayer,
            },
          });
        progress({ text: "", totalBytes: 0, totalLines: 0 });
        const run: RunProcessOptions = {
          // `exec 2>&1` puts stderr on stdout's pipe, so both arrive in the order the command wrote them.
          argv: ["/bin/bash", "-c", `exec 2>&1\n${facts.command}`],
          cwd: workspaceRoot,
          env,
          timeoutMs: facts.timeoutSeconds * 1000,
          signal,
          outputDir: options.outputDir,
          outputBudgetBytes,
          outputSpace: options.outputQuota,
          onUpdate: progress,
          startLimits: () => {
            limited = startLimits(background);
            return limited;
          },
          onStart: options.runRegistry
            ? (started) =>
                (options.runRegistry as RunRegistry).add({
                  ...started,
                  command: facts.command,
                  commandId: toolCallId,
                })
            : undefined,
        };
        // Where the chat keeps background commands, every run can go there: at once when the agent asked,
        // or while it runs when the person presses "Keep running".
        if (options.background) {
          return runWithHandover({
            commands: options.background.commands,
            id: toolCallId,
            facts,
            run,
            sandbox,
            network,
            readinessMs: background ? (options.background.readinessMs ?? DEFAULT_READINESS_MS) : undefined,
            capSeconds: backgroundCap(),
            asked,
            // Kept running: from now on it counts against the workspace's total for background commands.
            onMovedToBackground: () => {
              if (limited && options.backgroundGroup) void limited.moveInto(options.backgroundGroup);
            },
          });
        }
        if (!sandbox) return ranResult(facts, await runProcess(run), { asked });
        const sandboxed = await sandbox.run(run, network);
        if ("failure" in sandboxed)
          return notRunResult(facts, "refused", sandboxed.failure, sandboxed.failure, sandboxed.say);
        return ranResult(facts, sandboxed.outcome, {
          asked,
          hint: sandboxLimitHint(sandboxed.outcome.output.text),
        });
      }
    },
  });
}

/** The workspace must exist and be a folder, or the tool cannot be created at all. */
function checkWorkspace(root: string): string {
  const full = resolve(root);
  const info = statSync(full, { throwIfNoEntry: false });
  if (!info) throw new Error(`run_command: the workspace "${full}" does not exist. Open an existing folder.`);
  if (!info.isDirectory()) throw new Error(`run_command: the workspace "${full}" is not a folder.`);
  return full;
}
