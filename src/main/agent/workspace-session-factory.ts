import { realpathSync } from "node:fs";
import type { HostEvent } from "../../shared/host-events";
import type { WorkspaceInfo } from "../../shared/host-state";
import { ApprovalGate } from "../approvals/approval-gate";
import { AuditLog } from "../approvals/audit-log";
import { RuleBook } from "../approvals/rule-book";
import type { ChangeRecords } from "../changes";
import {
  DEFAULT_BACKGROUND_CAP_SECONDS,
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
import { type CommandSettings, fixedLimits } from "./command-limits";
import { createCommandTools } from "./command-tools";
import { createEditTools, EDITING_GUIDANCE } from "./file-edits/edit-tools";
import { shellWritePreview } from "./file-edits/shell-write-preview";
import { chatModelOf, startingModel } from "./model-choice";
import type { DeskModels } from "./model-runtime";
import { HiddenFolders } from "./read-tools/hidden-folders";
import { SessionProjection } from "./session-projection";
import { WorkspacePreferences } from "./workspace-preferences";
import { WorkspaceSession } from "./workspace-session";

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
 * Opens (or starts) the workspace's conversation: the workspace's rules, audit log, settings and output
 * quota read from its data folder, the command and edit tools wired to the session's gate and the change
 * recorder, and Pi's session created with them.
 */
export async function openWorkspaceSession(options: WorkspaceSessionOptions): Promise<WorkspaceSession> {
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
    (request) => options.models.failures.of(request),
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
      runOwner: () => (self ? { sessionId: self.agent.sessionId, auditFile: auditFile(dataDir) } : undefined),
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
  const gate = new ApprovalGate({
    rules,
    audit,
    cards: projection,
    sessionId: () => session.sessionId,
    onRulesChanged: ({ rules, rulesProblem }) =>
      options.emit({ type: "rules-changed", rules, ...(rulesProblem ? { problem: rulesProblem } : {}) }),
  });
  const changeActions = changes?.recorder
    ? new ChangeActions({
        recorder: changes.recorder,
        views: projection.views,
        edits: projection.edits,
        audit: (id, label, kind, text) => gate.recordRevert(id, label, kind, text),
        // Appended to the conversation now (or at the end of a turn in progress): the model reads it next.
        tell: (text, details) =>
          void session
            .sendCustomMessage({ customType: REVERT_MESSAGE_TYPE, content: text, display: false, details })
            .catch(() => {}),
      })
    : undefined;
  self = new WorkspaceSession({
    emit: options.emit,
    sandbox: options.sandbox,
    ...(options.commands?.backgroundCapSeconds !== undefined
      ? { hostBackgroundCapSeconds: options.commands.backgroundCapSeconds }
      : {}),
    ...(changes ? { changes } : {}),
    session,
    projection,
    gate,
    changeActions,
    baseLimits: limits,
    preferences,
    tools,
    outputQuota,
    unavailableModel: start.unavailable ?? (modelFallbackMessage ? chatModelOf(session) : undefined),
  });
  return self;
}
