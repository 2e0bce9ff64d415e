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
import type { ChatEventBody } from "../../shared/host-events";
import type { CommandLimits, SessionState, StopOutcome } from "../../shared/host-state";
import type { McpCallDetails } from "../../shared/mcp";
import type { ThinkingLevel, UnavailableModel } from "../../shared/models";
import type { HostTally } from "../../shared/network";
import type { RewindResult } from "../../shared/rewind";
import type { ApprovalGate } from "../approvals/approval-gate";
import type { ChangeRecords } from "../changes";
import {
  type BackgroundCommands,
  DEFAULT_BACKGROUND_CAP_SECONDS,
  type HostDecisionEvent,
  type OutputQuota,
  type SandboxCheck,
} from "../run-command";
import type { ChangeActions } from "./change-actions";
import { ChatComposer } from "./chat-composer";
import { type CommandSettings, type FixedLimits, resourceLimitsState } from "./command-limits";
import type { CommandTools } from "./command-tools";
import { commandsForState, outputLeftOut } from "./deferred-outputs";
import { EDIT_TOOLS } from "./edit-views";
import { contextEntryIds } from "./entry-ids";
import type { FolderFiles } from "./file-finder/folder-files";
import { runHostCommand } from "./host-command";
import type { DeskMcp } from "./mcp/desk-mcp";
import { isMcpTool } from "./mcp/mcp-call-views";
import { McpServerCalls } from "./mcp/mcp-server-calls";
import type { RecordKeys } from "./record-keys";
import { branchPoints } from "./rewind/branch-tree";
import { ChatRewind } from "./rewind/chat-rewind";
import { readSavedOutput } from "./saved-output";
import type { SessionProjection } from "./session-projection";
import type { WorkspacePreferences } from "./workspace-preferences";

export type { CommandSettings } from "./command-limits";

/** The parts a workspace's session is made of, assembled by `openWorkspaceSession`. */
export interface WorkspaceSessionParts {
  /** Where host events go. */
  emit: (event: ChatEventBody) => void;
  /** Whether this machine has a working sandbox (the host checks once at start). */
  sandbox: SandboxCheck;
  /** How long a background command may run when the workspace has no choice of its own, in seconds. */
  hostBackgroundCapSeconds?: number;
  /** The workspace's change records (one per workspace, shared by its chats); absent: not recorded. */
  changes?: ChangeRecords;
  /** Pi's session, its tools already wired to this conversation. */
  session: AgentSession;
  /** The session's events projected to the views the page draws. */
  projection: SessionProjection;
  /** The person between the agent and every command, over the workspace's rules and audit log. */
  gate: ApprovalGate;
  /** What the person can do with what commands changed; absent when changes are not recorded. */
  changeActions: ChangeActions | undefined;
  /** The limits that do not change while the session lives. */
  baseLimits: FixedLimits;
  /** The host's command settings (its resource limits over the defaults). */
  commandSettings: CommandSettings;
  /** The workspace's settings, kept on disk. */
  preferences: WorkspacePreferences;
  /** The command tools and what they hold per command (controllers, background commands). */
  tools: CommandTools;
  /** The workspace's saved full outputs and their quota. */
  outputQuota: OutputQuota;
  /** The model this chat was meant to use and cannot (it is gone); absent when it has its model. */
  unavailableModel: UnavailableModel | undefined;
  /** Called once the chat is disposed (it stops following the workspace's rules). */
  onDispose?: () => void;
  /** The keys this chat's records are kept under in the workspace's shared change records. */
  recordKeys?: RecordKeys;
  /** The person's MCP servers in this chat; absent: none configured. */
  mcp?: DeskMcp;
  /** The project's folders of templates and skills left out (not trusted in Pi); absent: none. */
  projectSkipped?: string[];
  /** The chat's folder as the composer's `@` finder searches it. */
  files: FolderFiles;
  /** The chat's folder (the workspace's, or its worktree's). */
  root: string;
}

/**
 * One workspace's conversation with the agent, with the person between the agent and every command:
 * `run_command` asks through the command gate (rules, then the person, all audited), each running command
 * can be cancelled on its own, and Stop ends the turn and everything in it.
 */
export class WorkspaceSession {
  private readonly session: AgentSession;
  private readonly projection: SessionProjection;
  private readonly controllers: Map<string, AbortController>;
  private readonly background: BackgroundCommands;
  private readonly changeActions: ChangeActions | undefined;
  private readonly unsubscribe: () => void;
  /** The context's figures as last told to the page. */
  private sentContext = "";
  /** The person between the agent and every command. */
  readonly gate: ApprovalGate;
  /** The chat's folder as the composer's `@` finder searches it. */
  readonly files: FolderFiles;
  /** Reconnect, sign in and out of the chat's MCP servers. */
  readonly mcpServers: McpServerCalls;
  /** The model this chat was meant to use and cannot (it is gone), until the person picks one. */
  unavailableModel: UnavailableModel | undefined;

  constructor(private readonly parts: WorkspaceSessionParts) {
    const { session, projection, tools } = parts;
    this.session = session;
    this.projection = projection;
    this.controllers = tools.controllers;
    this.background = tools.background;
    this.unavailableModel = parts.unavailableModel;
    this.gate = parts.gate;
    this.files = parts.files;
    this.mcpServers = new McpServerCalls(session, parts.mcp);
    this.changeActions = parts.changeActions;
    this.unsubscribe = session.subscribe((event) => this.onSessionEvent(event));
    const { changes, recordKeys } = parts;
    this.composer = new ChatComposer(session, projection, () => this.sendContext());
    this.rewind = new ChatRewind({
      session,
      projection,
      root: parts.root,
      ...(changes && recordKeys ? { records: { records: changes, keys: recordKeys } } : {}),
      background: tools.background,
      stopTurn: () => this.stop(),
      audit: (event, message, files) => parts.gate.recordRewind(event, message, files),
      replaced: () => {
        projection.reload(session.messages, contextEntryIds(session.sessionManager));
        this.parts.emit({ type: "session-replaced", session: this.state() });
      },
    });
  }

  /** Rewind to before one of the person's messages, and "Back to where I was". */
  readonly rewind: ChatRewind;

  /** The composer's calls: send, steer and queue, name, images, `/` commands, context and compaction. */
  readonly composer: ChatComposer;

  /** Rewinds to before the person's message `entryId`; with `text`, sends it in its place (edit and resend). */
  async rewindTo(entryId: string, text?: string): Promise<RewindResult> {
    const result = await this.rewind.rewind(entryId);
    if (text !== undefined) await this.composer.prompt(text);
    return result;
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
      ...(this.projection.queued.length > 0 ? { queued: [...this.projection.queued] } : {}),
      ...(this.composer.context ? { context: this.composer.context } : {}),
      ...(this.parts.mcp ? { mcp: this.parts.mcp.state() } : {}),
      ...(this.parts.projectSkipped ? { projectSkipped: [...this.parts.projectSkipped] } : {}),
      ...(this.projection.mcpCalls.byId.size > 0
        ? { mcpCalls: Object.fromEntries(this.projection.mcpCalls.byId) }
        : {}),
      ...(this.rewind?.rewound ? { rewound: this.rewind.rewound } : {}),
      ...this.branches(),
    };
  }

  /** Where the conversation shown branched, for the state (nothing when it never did). */
  private branches(): Pick<SessionState, "branches"> {
    const manager = this.session.sessionManager;
    const shown = new Set(contextEntryIds(manager).filter((id) => id !== undefined));
    const points = branchPoints(manager, shown);
    return points.length > 0 ? { branches: points } : {};
  }

  /** The limits every command runs under, the sandbox included. */
  get limits(): CommandLimits {
    const { available, kind, problem } = this.parts.sandbox;
    return {
      ...this.parts.baseLimits,
      sandbox: {
        kind,
        available,
        ...(problem ? { problem } : {}),
        ...this.parts.preferences.sandbox(),
      },
      backgroundCapSeconds: this.backgroundCapSeconds,
      resources: resourceLimitsState(this.parts.commandSettings, this.parts.preferences.value.limits),
      savedOutputs: this.parts.outputQuota.state(),
      changes: this.parts.changes?.state ?? {
        state: { type: "off", reason: "This host was started not to record them (--no-changes)." },
        excludes: [],
        maxFileBytes: 0,
        usageBytes: 0,
        budgetBytes: 0,
      },
    };
  }

  /** A sandboxed command's proxy decided on a host: one audit line, and the card's tally of hosts, live. */
  hostDecision(commandId: string, event: HostDecisionEvent, hosts: HostTally[]): void {
    this.gate.recordHostDecision(commandId, event);
    this.projection.updateCommand(commandId, { hosts });
  }

  /** The conversation as projected for the page (the host reads its transcript, commands and edits). */
  get view(): SessionProjection {
    return this.projection;
  }

  /** The underlying Pi session (its model and thinking level). */
  get agent(): AgentSession {
    return this.session;
  }

  /** Switches this chat's model, and makes it the workspace's default for new chats (kept on disk). */
  async setModel(model: Model<Api>): Promise<void> {
    await this.session.setModel(model);
    this.unavailableModel = undefined;
    this.sendContext();
    await this.parts.preferences.save({ model: { provider: model.provider, id: model.id } });
  }

  /** Sets this chat's thinking level, and makes it the workspace's default for new chats (kept on disk). */
  async setThinkingLevel(level: ThinkingLevel): Promise<void> {
    this.session.setThinkingLevel(level);
    await this.parts.preferences.save({ thinkingLevel: level });
  }

  /** Stops the turn: pending approvals are cancelled, running commands killed, waiting messages not sent. */
  async stop(): Promise<StopOutcome> {
    const { steering, followUp } = this.session.clearQueue();
    this.gate.cancelPending();
    await this.session.abort();
    return {
      unsent: [
        ...steering.map((text) => ({ mode: "steer" as const, text })),
        ...followUp.map((text) => ({ mode: "follow-up" as const, text })),
      ],
    };
  }

  /** Runs a command the host asks for (a worktree's setup step) as an ordinary command of this chat. */
  runHostCommand(command: string, purpose: string): Promise<void> {
    return runHostCommand(
      { tools: this.parts.tools, session: this.session, play: (event) => this.onSessionEvent(event) },
      command,
      purpose,
    );
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
      this.parts.preferences.value.backgroundCapSeconds ??
      this.parts.hostBackgroundCapSeconds ??
      DEFAULT_BACKGROUND_CAP_SECONDS
    );
  }

  /** What the person can do with what commands changed: diffs, undo, restore (throws when not recorded). */
  get changes(): ChangeActions {
    if (!this.changeActions) throw new Error("Changes are not recorded in this host.");
    return this.changeActions;
  }

  /** Commands whose change records were dropped to fit the budget: their cards stop offering undo. */
  changesDropped(keys: readonly string[]): void {
    // The records' keys, of every chat of the workspace: this chat's commands among them.
    const own = this.parts.recordKeys;
    const commandIds = own ? keys.flatMap((key) => own.commandOf(key) ?? []) : keys;
    this.projection.views.changesDropped(commandIds, true);
    this.projection.edits.changesDropped(commandIds, true);
  }

  /** One command as the host holds it now, its output whole (the state may leave it out). */
  command(commandId: string): CommandView | undefined {
    return this.projection.commands.get(commandId);
  }

  /** A command's output now, for a card whose state left it out; refused for another chat's command. */
  commandOutput(commandId: string): CommandOutputReply {
    return outputLeftOut(this.projection.commands, commandId);
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
    this.parts.onDispose?.();
    await this.gate.settled();
    await this.closeMcp();
    this.session.dispose();
  }

  /** Ends the chat's MCP servers: Pi's extension closes its connections, then any process left is ended. */
  private async closeMcp(): Promise<void> {
    if (!this.parts.mcp) return;
    await this.session.extensionRunner.emit({ type: "session_shutdown", reason: "quit" }).catch(() => {});
    await this.parts.mcp.close();
  }

  private onSessionEvent(event: AgentSessionEvent): void {
    this.projection.apply(event);
    // The fill and the cost move with each answer, and with a compaction.
    if (event.type === "message_end" || event.type === "compaction_end" || event.type === "agent_settled") {
      this.sendContext();
    }
    if (event.type === "tool_execution_end" && event.toolName === "run_command") {
      const details = event.result?.details as RunCommandDetails | undefined;
      if (details) this.gate.recordEnd(event.toolCallId, details);
    }
    if (event.type === "tool_execution_end" && EDIT_TOOLS.includes(event.toolName)) {
      const details = event.result?.details as FileEditDetails | undefined;
      if (details?.piDesk === "file-edit") this.gate.recordEditEnd(event.toolCallId, details);
    }
    if (event.type === "tool_execution_end" && isMcpTool(event.toolName)) {
      const details = event.result?.details as McpCallDetails | undefined;
      if (details?.piDesk === "mcp-call") this.gate.recordMcpEnd(event.toolCallId, details);
    }
  }

  /** Tells the page the context's figures when they changed since last told. */
  private sendContext(): void {
    const context = this.composer.context;
    const text = JSON.stringify(context ?? null);
    if (!context || text === this.sentContext) return;
    this.sentContext = text;
    this.projection.tell({ type: "context-changed", context });
  }
}
