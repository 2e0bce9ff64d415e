import { realpathSync } from "node:fs";
import type { Api, Model } from "@earendil-works/pi-ai";
import type { AgentSession, AgentSessionEvent } from "@earendil-works/pi-coding-agent";
import type {
  BackgroundStopper,
  CommandOutputReply,
  CommandView,
  RunCommandDetails,
} from "../../shared/commands";
import type { FullOutputChunk } from "../../shared/desk-api";
import type { FileEditDetails } from "../../shared/edits";
import type { HostEvent } from "../../shared/host-events";
import type { CommandLimits, SessionState, WorkspaceInfo } from "../../shared/host-state";
import type { ThinkingLevel, UnavailableModel } from "../../shared/models";
import type { AllowedHostsSaved, HostTally } from "../../shared/network";
import { ApprovalGate } from "../approvals/approval-gate";
import { AuditLog } from "../approvals/audit-log";
import { RuleBook } from "../approvals/rule-book";
import { errorMessage } from "../base/errors";
import type { ChangeRecords } from "../changes";
import {
  type BackgroundCommands,
  DEFAULT_BACKGROUND_CAP_SECONDS,
  type HostDecisionEvent,
  OutputQuota,
  pruneFullOutputs,
  type RunRegistry,
  type SandboxCheck,
} from "../run-command";
import { auditFile, rulesFile, workspaceDataDir } from "../storage/data-folder";
import { loadWorkspaceSettings, settingsFile } from "../storage/workspace-settings";
import { createDeskSession, type SessionChoice } from "./agent-session-factory";
import { ChangeActions, REVERT_MESSAGE_TYPE } from "./change-actions";
import { commandRecorder } from "./command-changes";
import { type CommandSettings, type FixedLimits, fixedLimits } from "./command-limits";
import { createCommandTools } from "./command-tools";
import { commandsForState, outputLeftOut } from "./deferred-outputs";
import { EDIT_TOOLS } from "./edit-views";
import { createEditTools, EDITING_GUIDANCE } from "./file-edits/edit-tools";
import { shellWritePreview } from "./file-edits/shell-write-preview";
import { chatModelOf, startingModel } from "./model-choice";
import type { DeskModels } from "./model-runtime";
import { HiddenFolders } from "./read-tools/hidden-folders";
import { readSavedOutput } from "./saved-output";
import { SessionProjection } from "./session-projection";
import { WorkspacePreferences } from "./workspace-preferences";

export type { CommandSettings } from "./command-limits";

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
  /** The workspace's change records (one per workspace, shared by its chats); absent: not recorded. */
  changes?: ChangeRecords;
}

/**
 * One workspace's conversation with the agent, with the person between the agent and every command:
 * `run_command` asks through the command gate (rules, then the person, all audited), each running command
 * can be cancelled on its own, and Stop ends the turn and everything in it.
 */
export class WorkspaceSession {
  private readonly controllers: Map<string, AbortController>;
  private readonly background: BackgroundCommands;
  private readonly changeActions: ChangeActions | undefined;
  private unsubscribe: () => void = () => {};
  /** The person between the agent and every command. */
  readonly gate: ApprovalGate;
  /** The model this chat was meant to use and cannot (it is gone), until the person picks one. */
  unavailableModel: UnavailableModel | undefined;

  private constructor(
    private readonly options: WorkspaceSessionOptions,
    private readonly session: AgentSession,
    private readonly projection: SessionProjection,
    rules: RuleBook,
    audit: AuditLog,
    private readonly baseLimits: FixedLimits,
    private readonly preferences: WorkspacePreferences,
    tools: ReturnType<typeof createCommandTools>,
    private readonly outputQuota: OutputQuota,
  ) {
    this.controllers = tools.controllers;
    this.background = tools.background;
    const recorder = options.changes?.recorder;
    if (recorder) {
      this.changeActions = new ChangeActions({
        recorder,
        views: projection.views,
        edits: projection.edits,
        audit: (id, label, kind, text) => this.gate.recordRevert(id, label, kind, text),
        // Appended to the conversation now (or at the end of a turn in progress): the model reads it next.
        tell: (text, details) =>
          void session
            .sendCustomMessage({ customType: REVERT_MESSAGE_TYPE, content: text, display: false, details })
            .catch(() => {}),
      });
    }
    this.gate = new ApprovalGate({
      rules,
      audit,
      cards: projection,
      sessionId: () => session.sessionId,
      onRulesChanged: ({ rules, rulesProblem }) =>
        options.emit({ type: "rules-changed", rules, ...(rulesProblem ? { problem: rulesProblem } : {}) }),
    });
  }

  /** Opens (or starts) the workspace's conversation. */
  static async open(options: WorkspaceSessionOptions): Promise<WorkspaceSession> {
    const { workspace, dataRoot } = options;
    const dataDir = workspaceDataDir(dataRoot, workspace.path);
    const rules = await RuleBook.open({ file: rulesFile(dataDir) });
    const audit = new AuditLog({ file: auditFile(dataDir) });
    const settings = options.commands ?? {};
    const settingsPath = settingsFile(dataDir);
    const workspaceSettings = await loadWorkspaceSettings(settingsPath, options.sandbox.available);
    const preferences = new WorkspacePreferences(workspaceSettings, settingsPath);
    const limits = fixedLimits(workspace.path, settings);
    const outputDir = `${dataDir}/outputs`;
    await pruneFullOutputs(outputDir);
    const outputQuota = await OutputQuota.open({
      dir: outputDir,
      quotaBytes: settings.outputQuotaBytes,
      budgetBytes: settings.outputBudgetBytes,
      onChange: (savedOutputs) => options.emit({ type: "saved-outputs", savedOutputs }),
    });
    const projection = new SessionProjection(
      options.emit,
      workspace.path,
      limits.maxTimeoutSeconds,
      (since) => options.models.failures.since(since),
    );
    // The tools are created before the session (Pi needs them), and ask through the session once it exists.
    let self: WorkspaceSession | undefined;
    const changes = options.changes;
    const root = realpathSync(workspace.path);
    const hidden = new HiddenFolders(options.hiddenPaths);
    const recorder = changes
      ? commandRecorder(changes, (id) => projection.commands.get(id)?.command)
      : undefined;
    const tools = createCommandTools({
      settings,
      workspaceRoot: workspace.path,
      outputDir,
      outputQuota,
      hiddenPaths: options.hiddenPaths,
      runRegistry: options.runRegistry,
      projection,
      ...(recorder ? { recorder } : {}),
      chat: {
        approve: (request, signal) => {
          if (!self) throw new Error("The session is not ready yet.");
          // Known writes are shown as diffs before the command runs (none when not known exactly).
          const writePreview = shellWritePreview(request.parsed, root, hidden, request.command);
          if (writePreview) projection.updateCommand(request.toolCallId, { writePreview });
          return self.gate.approveCommand(request, signal);
        },
        sandbox: () => preferences.sandbox(),
        backgroundCapSeconds: () => self?.backgroundCapSeconds ?? DEFAULT_BACKGROUND_CAP_SECONDS,
        backgroundEnded: (id, command, state) => self?.gate.recordBackgroundEnd(id, command, state),
        hostDecision: (id, event, hosts) => self?.hostDecision(id, event, hosts),
        runOwner: () =>
          self ? { sessionId: self.session.sessionId, auditFile: auditFile(dataDir) } : undefined,
      },
    });
    // A new chat starts with the workspace's last pick; a reopened one keeps its own model (Pi restores it
    // from the session file), and either says so when that model is gone.
    const isNew = (options.open?.kind ?? "new") === "new";
    const start = isNew ? startingModel(options.models, workspaceSettings.model) : {};
    const editTools = createEditTools({
      root,
      hidden,
      approve: (request, signal) => {
        if (!self) throw new Error("The session is not ready yet.");
        return self.gate.approveEdit(request, signal);
      },
      ...(recorder ? { recorder } : {}),
    });
    const { session, modelFallbackMessage } = await createDeskSession({
      workspace: workspace.path,
      models: options.models,
      runCommandTool: tools.runCommand,
      backgroundTools: tools.backgroundTools,
      editTools,
      appendSystemPrompt: [EDITING_GUIDANCE],
      open: options.open,
      hiddenPaths: options.hiddenPaths,
      ...(start.model ? { model: start.model } : {}),
      ...(isNew && workspaceSettings.thinkingLevel ? { thinkingLevel: workspaceSettings.thinkingLevel } : {}),
    });
    projection.load(session.messages);
    // A reopened chat's commands and edits whose records were pruned since: say so rather than offer undo.
    if (changes) projection.markDropped((id) => changes.has(id));
    self = new WorkspaceSession(
      options,
      session,
      projection,
      rules,
      audit,
      limits,
      preferences,
      tools,
      outputQuota,
    );
    self.unsubscribe = session.subscribe((event) => self?.onSessionEvent(event));
    self.unavailableModel = start.unavailable ?? (modelFallbackMessage ? chatModelOf(session) : undefined);
    return self;
  }

  /** The conversation as a client starts from. */
  state(): SessionState {
    return {
      id: this.session.sessionId,
      ...(this.session.sessionFile ? { file: this.session.sessionFile } : {}),
      running: this.projection.running,
      transcript: [...this.projection.transcript],
      // Long ended outputs left out: each card asks for its own when drawn (see deferred-outputs.ts).
      commands: commandsForState(this.projection.commands, this.session.sessionId),
      edits: Object.fromEntries(this.projection.edits.byId),
    };
  }

  /** The limits every command runs under, the sandbox included. */
  get limits(): CommandLimits {
    const { available, kind, problem } = this.options.sandbox;
    return {
      ...this.baseLimits,
      sandbox: {
        kind,
        available,
        ...(problem ? { problem } : {}),
        ...this.preferences.sandbox(),
      },
      backgroundCapSeconds: this.backgroundCapSeconds,
      savedOutputs: this.outputQuota.state(),
      changes: this.options.changes?.state ?? {
        state: { type: "off", reason: "This host was started not to record them (--no-changes)." },
        excludes: [],
        maxFileBytes: 0,
        usageBytes: 0,
        budgetBytes: 0,
      },
    };
  }

  /** Turns the sandbox on or off for the workspace (kept on disk); it applies from the next command. */
  async setSandbox(enabled: boolean, network: boolean): Promise<void> {
    if (enabled && !this.options.sandbox.available) {
      throw new Error(
        `The sandbox cannot run on this machine: ${this.options.sandbox.problem ?? "it is not available"}`,
      );
    }
    await this.preferences.save({ sandbox: { enabled, network } });
  }

  /** A sandboxed command's proxy decided on a host: one audit line, and the card's tally of hosts, live. */
  hostDecision(commandId: string, event: HostDecisionEvent, hosts: HostTally[]): void {
    this.gate.recordHostDecision(commandId, event);
    this.projection.updateCommand(commandId, { hosts });
  }

  /** Sets the hosts the workspace's sandboxed commands may reach (kept on disk), from the next command on. */
  setAllowedHosts(hosts: readonly string[]): Promise<AllowedHostsSaved> {
    return this.preferences.setAllowedHosts(hosts);
  }

  /** Adds hosts to the workspace's list (a card's "Allow for this workspace"); from the next command on. */
  addAllowedHosts(hosts: readonly string[]): Promise<AllowedHostsSaved> {
    return this.preferences.addAllowedHosts(hosts);
  }

  /** The underlying Pi session (its model and thinking level). */
  get agent(): AgentSession {
    return this.session;
  }

  /** Switches this chat's model, and makes it the workspace's default for new chats (kept on disk). */
  async setModel(model: Model<Api>): Promise<void> {
    await this.session.setModel(model);
    this.unavailableModel = undefined;
    await this.preferences.save({ model: { provider: model.provider, id: model.id } });
  }

  /** Sets this chat's thinking level, and makes it the workspace's default for new chats (kept on disk). */
  async setThinkingLevel(level: ThinkingLevel): Promise<void> {
    this.session.setThinkingLevel(level);
    await this.preferences.save({ thinkingLevel: level });
  }

  /** Sends the person's message; the answer streams as events. */
  prompt(text: string): void {
    if (this.projection.running || this.session.isStreaming) {
      throw new Error("The agent is still working on the last message: wait for it, or press Stop.");
    }
    this.session.prompt(text).catch((error: unknown) => {
      const message = errorMessage(error);
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
    this.gate.cancelPending();
    await this.session.abort();
  }

  /** Cancels one command, pending, running or running in the background, and nothing else. */
  async cancelCommand(commandId: string): Promise<void> {
    const controller = this.controllers.get(commandId);
    if (controller) return controller.abort();
    if (this.background.has(commandId)) {
      await this.background.stop(commandId, "person");
      return;
    }
    throw new Error(`Command "${commandId}" is not pending or running, so there is nothing to cancel.`);
  }

  /** Moves a running command to the background (the person's "Keep running"), within the cap. */
  keepRunning(commandId: string): void {
    this.background.keepRunning(commandId);
  }

  /** How long a background command may run here, in seconds: the workspace's choice, else the host's. */
  get backgroundCapSeconds(): number {
    return (
      this.preferences.value.backgroundCapSeconds ??
      this.options.commands?.backgroundCapSeconds ??
      DEFAULT_BACKGROUND_CAP_SECONDS
    );
  }

  /** Sets how long a background command may run in this workspace (kept on disk); from the next command on. */
  setBackgroundCap(seconds: number): Promise<void> {
    return this.preferences.save({ backgroundCapSeconds: seconds });
  }

  /** What the person can do with what commands changed: diffs, undo, restore (throws when not recorded). */
  get changes(): ChangeActions {
    if (!this.changeActions) throw new Error("Changes are not recorded in this host.");
    return this.changeActions;
  }

  /** Commands whose change records were dropped to fit the budget: their cards stop offering undo. */
  changesDropped(commandIds: readonly string[]): void {
    this.projection.views.changesDropped(commandIds, true);
    this.projection.edits.changesDropped(commandIds, true);
  }

  /** One command as the host holds it now, its output whole (the state may leave it out). */
  command(commandId: string): CommandView | undefined {
    return this.projection.commands.get(commandId);
  }

  /** A command's output now, for a card whose state left it out; refused for another chat's command. */
  commandOutput(sessionId: string, commandId: string): CommandOutputReply {
    return outputLeftOut(this.projection.commands, this.session.sessionId, sessionId, commandId);
  }

  /** A piece of a command's saved full output. */
  readFullOutput(commandId: string, offset = 0): Promise<FullOutputChunk> {
    const path = this.projection.commands.get(commandId)?.details?.fullOutputPath;
    if (!path) throw new Error(`Command "${commandId}" has no saved full output: all of it is in its card.`);
    return readSavedOutput(path, offset);
  }

  /**
   * Ends the session: every command's tree is killed (background ones too, told why: the app quits or the
   * chat closes), pending approvals cancelled, Pi's session disposed.
   */
  async dispose(why: Extract<BackgroundStopper, "quit" | "chat-closed"> = "chat-closed"): Promise<void> {
    for (const controller of this.controllers.values()) controller.abort();
    this.gate.cancelPending();
    await this.background.stopAll(why);
    // Still subscribed while the turn ends: the killed commands' ends reach the audit log and Pi's session
    // file (the host no longer passes this session's events to the UI once another replaced it).
    await this.session.abort().catch(() => {});
    this.unsubscribe();
    await this.gate.settled();
    this.session.dispose();
  }

  private onSessionEvent(event: AgentSessionEvent): void {
    this.projection.apply(event);
    if (event.type === "tool_execution_end" && event.toolName === "run_command") {
      const details = event.result?.details as RunCommandDetails | undefined;
      if (details) this.gate.recordEnd(event.toolCallId, details);
    }
    if (event.type === "tool_execution_end" && EDIT_TOOLS.includes(event.toolName)) {
      const details = event.result?.details as FileEditDetails | undefined;
      if (details?.piDesk === "file-edit") this.gate.recordEditEnd(event.toolCallId, details);
    }
  }
}
