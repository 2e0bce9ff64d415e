import { open as openFile } from "node:fs/promises";
import type { AgentSession, AgentSessionEvent } from "@earendil-works/pi-coding-agent";
import type { ApprovalDecision, CommandView, RunCommandDetails } from "../../shared/commands";
import type { FullOutputChunk } from "../../shared/desk-api";
import type { HostEvent } from "../../shared/host-events";
import type { CommandLimits, SessionState, WorkspaceInfo } from "../../shared/host-state";
import type { AuditEntry, CommandRule, RuleDraft } from "../../shared/rules";
import { ApprovalBroker } from "../approvals/approval-broker";
import { AuditLog } from "../approvals/audit-log";
import { RuleBook } from "../approvals/command-rules";
import { describeRule, ruleOffer } from "../approvals/rule-patterns";
import { auditFile, rulesFile, workspaceDataDir } from "../approvals/workspace-data";
import { buildCommandEnvironment } from "../tools/command-environment";
import { DEFAULT_TIMEOUT_LIMITS } from "../tools/command-timeout";
import { pruneFullOutputs } from "../tools/output-retention";
import { RUN_MARKER_ENV } from "../tools/process-tree";
import { type CommandRequest, createRunCommandTool, type RunCommandOptions } from "../tools/run-command";
import type { RunRegistry } from "../tools/run-registry";
import type { SandboxCheck } from "../tools/sandbox/sandbox";
import { createDeskSession, type SessionChoice } from "./agent-session-factory";
import type { DeskModels } from "./model-runtime";
import { SessionProjection } from "./session-projection";
import {
  loadWorkspaceSettings,
  saveWorkspaceSettings,
  settingsFile,
  type WorkspaceSettings,
} from "./workspace-settings";

/** The limits the host puts on commands; the person's settings, not the model's. */
export type CommandSettings = Pick<
  RunCommandOptions,
  "allowedBinaries" | "defaultTimeoutSeconds" | "maxTimeoutSeconds" | "env"
>;

/** What a workspace's session is made of. */
export interface WorkspaceSessionOptions {
  /** The open workspace. */
  workspace: WorkspaceInfo;
  /** The host's data folder (rules, audit log, full outputs per workspace). */
  dataRoot: string;
  /** The models. */
  models: DeskModels;
  /** Where host events go. */
  emit: (event: HostEvent) => void;
  /** Command limits. */
  commands?: CommandSettings;
  /** Which conversation to open; a new one by default. */
  open?: SessionChoice;
  /** Whether this machine has a working sandbox (the host checks once at start). */
  sandbox: SandboxCheck;
  /** What the sandbox hides besides the person's home: Pi's agent dir, Pi Desk's data dir. */
  hiddenPaths: string[];
  /** Where running commands are recorded for crash recovery. */
  runRegistry?: RunRegistry;
}

const FULL_OUTPUT_CHUNK_BYTES = 256 * 1024;

/**
 * One workspace's conversation with the agent, with the person between the agent and every command:
 * `run_command` asks through the approval broker (after the rules had their say), each running command
 * can be cancelled on its own, Stop ends the turn and everything in it, and every decision is audited.
 */
export class WorkspaceSession {
  private readonly broker = new ApprovalBroker();
  private readonly controllers = new Map<string, AbortController>();
  private readonly writes = new Set<Promise<void>>();
  private unsubscribe: () => void = () => {};

  private constructor(
    private readonly options: WorkspaceSessionOptions,
    private readonly session: AgentSession,
    private readonly projection: SessionProjection,
    private readonly rules: RuleBook,
    private readonly audit: AuditLog,
    private readonly baseLimits: Omit<CommandLimits, "sandbox">,
    private settings: WorkspaceSettings,
    private readonly settingsPath: string,
  ) {}

  /** Opens (or starts) the workspace's conversation. */
  static async open(options: WorkspaceSessionOptions): Promise<WorkspaceSession> {
    const { workspace, dataRoot } = options;
    const dataDir = workspaceDataDir(dataRoot, workspace.path);
    const rules = await RuleBook.open({ file: rulesFile(dataDir) });
    const audit = new AuditLog({ file: auditFile(dataDir) });
    const settings = options.commands ?? {};
    const settingsPath = settingsFile(dataDir);
    const workspaceSettings = await loadWorkspaceSettings(settingsPath, options.sandbox.available);
    const limits: Omit<CommandLimits, "sandbox"> = {
      allowedBinaries: settings.allowedBinaries ?? [],
      defaultTimeoutSeconds: settings.defaultTimeoutSeconds ?? DEFAULT_TIMEOUT_LIMITS.defaultSeconds,
      maxTimeoutSeconds: settings.maxTimeoutSeconds ?? DEFAULT_TIMEOUT_LIMITS.maxSeconds,
      environment: [
        ...Object.keys(buildCommandEnvironment({ workspaceRoot: workspace.path, extra: settings.env })),
        RUN_MARKER_ENV,
      ].sort(),
    };
    const outputDir = `${dataDir}/outputs`;
    await pruneFullOutputs(outputDir);
    const projection = new SessionProjection(options.emit, workspace.path, limits.maxTimeoutSeconds);
    // The tool is created before the session (Pi needs it), and asks through the session once it exists.
    let self: WorkspaceSession | undefined;
    const tool = createRunCommandTool({
      ...settings,
      workspaceRoot: workspace.path,
      outputDir,
      // Read at every call: the person can turn the sandbox off or on for the workspace at any time.
      sandbox: () => self?.settings.sandbox ?? workspaceSettings.sandbox,
      hiddenPaths: options.hiddenPaths,
      // The record of a running command names this conversation and its audit log, so a start after a
      // crash can write down how the command ended.
      runRegistry: options.runRegistry?.withOwner(() =>
        self ? { sessionId: self.session.sessionId, auditFile: auditFile(dataDir) } : undefined,
      ),
      approve: (request, signal) => {
        if (!self) throw new Error("The session is not ready yet.");
        return self.approve(request, signal);
      },
    });
    const execute = tool.execute.bind(tool);
    // Each command gets its own AbortController chained to the turn's signal: Cancel stops that command
    // only, Stop (the turn's signal) stops them all.
    tool.execute = async (toolCallId, params, signal, onUpdate, ctx) => {
      const controller = new AbortController();
      self?.controllers.set(toolCallId, controller);
      try {
        const combined = signal ? AbortSignal.any([signal, controller.signal]) : controller.signal;
        return await execute(toolCallId, params, combined, onUpdate, ctx);
      } finally {
        self?.controllers.delete(toolCallId);
      }
    };
    const { session } = await createDeskSession({
      workspace: workspace.path,
      models: options.models,
      runCommandTool: tool,
      open: options.open,
      hiddenPaths: options.hiddenPaths,
    });
    projection.load(session.messages);
    self = new WorkspaceSession(
      options,
      session,
      projection,
      rules,
      audit,
      limits,
      workspaceSettings,
      settingsPath,
    );
    self.unsubscribe = session.subscribe((event) => self?.onSessionEvent(event));
    return self;
  }

  /** The conversation as a client starts from. */
  state(): SessionState {
    return {
      id: this.session.sessionId,
      ...(this.session.sessionFile ? { file: this.session.sessionFile } : {}),
      running: this.projection.running,
      transcript: [...this.projection.transcript],
      commands: Object.fromEntries(this.projection.commands),
    };
  }

  /** The limits every command runs under, the sandbox included. */
  get limits(): CommandLimits {
    const { available, kind, problem } = this.options.sandbox;
    return {
      ...this.baseLimits,
      sandbox: { kind, available, ...(problem ? { problem } : {}), ...this.settings.sandbox },
    };
  }

  /** Turns the sandbox on or off for the workspace (kept on disk); it applies from the next command. */
  async setSandbox(enabled: boolean, network: boolean): Promise<void> {
    if (enabled && !this.options.sandbox.available) {
      throw new Error(
        `The sandbox cannot run on this machine: ${this.options.sandbox.problem ?? "it is not available"}`,
      );
    }
    const next: WorkspaceSettings = { ...this.settings, sandbox: { enabled, network } };
    await saveWorkspaceSettings(this.settingsPath, next);
    this.settings = next;
  }

  /** The rules in force, and why the workspace's rules file could not be read when it could not. */
  ruleState(): { rules: CommandRule[]; rulesProblem?: string } {
    const problem = this.rules.problem();
    return { rules: this.rules.list(), ...(problem ? { rulesProblem: problem } : {}) };
  }

  /** The underlying Pi session (model and thinking level changes). */
  get agent(): AgentSession {
    return this.session;
  }

  /** Sends the person's message; the answer streams as events. */
  prompt(text: string): void {
    if (this.projection.running || this.session.isStreaming) {
      throw new Error("The agent is still working on the last message: wait for it, or press Stop.");
    }
    this.session.prompt(text).catch((error: unknown) => {
      const message = error instanceof Error ? error.message : String(error);
      this.options.emit({
        type: "transcript-add",
        item: {
          kind: "notice",
          id: `e${Date.now()}`,
          level: "error",
          text: `${message} Configure a model in settings.`,
        },
      });
    });
  }

  /** Stops the turn: pending approvals are cancelled, running commands killed. */
  async stop(): Promise<void> {
    this.broker.cancelAll();
    await this.session.abort();
  }

  /** Delivers the person's decision on a pending command, with an optional rule for next time. */
  async decide(approvalId: string, decision: ApprovalDecision, rule?: RuleDraft): Promise<void> {
    const commandId = this.broker.commandOf(approvalId);
    const command = this.projection.commands.get(commandId);
    if (rule) await this.addRule(rule);
    await this.record(commandId, decision.kind === "approve" ? "approved" : "denied", "person", {
      command:
        decision.kind === "approve" ? (decision.command ?? command?.command ?? "") : (command?.command ?? ""),
      ...(decision.kind === "deny" && decision.reason ? { reason: decision.reason } : {}),
      ...(decision.kind === "approve" && (decision.command || decision.timeoutSeconds)
        ? { edited: true }
        : {}),
    });
    // Answered: the card stops offering a decision at once, before the command starts.
    this.projection.updateCommand(commandId, { decidedBy: "person", approvalId: undefined });
    this.broker.decide(approvalId, decision);
  }

  /** Cancels one command, pending or running, and nothing else. */
  cancelCommand(commandId: string): void {
    const controller = this.controllers.get(commandId);
    if (!controller) {
      throw new Error(`Command "${commandId}" is not pending or running, so there is nothing to cancel.`);
    }
    controller.abort();
  }

  /** A piece of a command's saved full output. */
  async readFullOutput(commandId: string, offset = 0): Promise<FullOutputChunk> {
    const path = this.projection.commands.get(commandId)?.details?.fullOutputPath;
    if (!path) throw new Error(`Command "${commandId}" has no saved full output: all of it is in its card.`);
    const file = await openFile(path, "r");
    try {
      const { size } = await file.stat();
      const buffer = Buffer.alloc(Math.max(0, Math.min(FULL_OUTPUT_CHUNK_BYTES, size - offset)));
      const { bytesRead } = await file.read(buffer, 0, buffer.length, offset);
      return {
        text: buffer.subarray(0, bytesRead).toString("utf8"),
        nextOffset: offset + bytesRead,
        totalBytes: size,
        path,
      };
    } finally {
      await file.close();
    }
  }

  /** Makes a rule. */
  addRule(draft: RuleDraft): Promise<CommandRule> {
    return this.changingRules(() => this.rules.add(draft));
  }

  /** Changes a rule. */
  updateRule(id: string, draft: RuleDraft): Promise<CommandRule> {
    return this.changingRules(() => this.rules.update(id, draft));
  }

  /** Removes a rule. */
  removeRule(id: string): Promise<void> {
    return this.changingRules(() => this.rules.remove(id));
  }

  /** Runs a change to the rules and tells the UI how they are after it, failed or not (the file may have turned unreadable). */
  private async changingRules<T>(change: () => Promise<T>): Promise<T> {
    try {
      return await change();
    } finally {
      const { rules, rulesProblem } = this.ruleState();
      this.options.emit({ type: "rules-changed", rules, ...(rulesProblem ? { problem: rulesProblem } : {}) });
    }
  }

  /** The workspace's audit log, newest first. */
  history(query?: string, limit?: number): Promise<AuditEntry[]> {
    return this.audit.read({ query, limit });
  }

  /** Ends the session: every command's tree is killed, pending approvals cancelled, Pi's session disposed. */
  async dispose(): Promise<void> {
    for (const controller of this.controllers.values()) controller.abort();
    this.broker.cancelAll();
    // Still subscribed while the turn ends: the killed commands' ends reach the audit log and Pi's session
    // file (the host no longer passes this session's events to the UI once another replaced it).
    await this.session.abort().catch(() => {});
    this.unsubscribe();
    await Promise.allSettled([...this.writes]);
    this.session.dispose();
  }

  /** The tool's approval hook: rules first, then the person. */
  private async approve(request: CommandRequest, signal: AbortSignal | undefined): Promise<ApprovalDecision> {
    const id = request.toolCallId;
    const offer = ruleOffer(request.parsed);
    const why = this.projection.reasonFor();
    this.projection.updateCommand(id, {
      command: request.command,
      timeoutSeconds: request.timeoutSeconds,
      sandbox: request.sandbox,
      parts: request.parsed.commands.map(({ name, text, start, end }) => ({ name, text, start, end })),
      risks: request.parsed.risks.map(({ kind, text, start, end, note }) => ({
        kind,
        text,
        start,
        end,
        note,
      })),
      ...(offer ? { ruleOffer: offer } : {}),
      ...(why ? { why } : {}),
    });
    const ruled = this.rules.decide(request.parsed);
    if (ruled) {
      const rule = describeRule(ruled.rule);
      const event = ruled.effect === "allow" ? "approved" : "denied";
      await this.record(id, event, "rule", { command: request.command, rule });
      this.projection.updateCommand(id, { decidedBy: "rule", rule });
      return ruled.effect === "allow"
        ? { kind: "approve" }
        : { kind: "deny", reason: `A rule denies it: ${rule}.` };
    }
    const { approvalId, outcome } = this.broker.wait(id, signal);
    this.projection.updateCommand(id, { approvalId });
    const answer = await outcome;
    if (answer.kind === "cancelled") {
      await this.record(id, "cancelled", "stop", { command: request.command });
      return { kind: "deny", reason: "The turn was stopped before the user decided." };
    }
    return answer;
  }

  private onSessionEvent(event: AgentSessionEvent): void {
    this.projection.apply(event);
    if (event.type === "tool_execution_end" && event.toolName === "run_command") {
      const details = event.result?.details as RunCommandDetails | undefined;
      const view = this.projection.commands.get(event.toolCallId) as CommandView | undefined;
      if (!details) return;
      const event2 = details.status === "refused" ? "refused" : "finished";
      void this.record(event.toolCallId, event2, details.status === "refused" ? "policy" : "host", {
        command: details.command ?? view?.command ?? "",
        status: details.status,
        exitCode: details.exitCode,
        ...(details.reason ? { reason: details.reason } : {}),
      });
    }
  }

  private async record(
    commandId: string,
    event: AuditEntry["event"],
    by: AuditEntry["by"],
    extra: Partial<AuditEntry> & { command: string },
  ): Promise<void> {
    const write = this.audit
      .append({ at: Date.now(), sessionId: this.session.sessionId, commandId, event, by, ...extra })
      .catch((error: unknown) => console.error(`Pi Desk: could not write the audit log: ${String(error)}`));
    this.writes.add(write);
    await write;
    this.writes.delete(write);
  }
}
