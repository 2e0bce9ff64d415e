import { realpathSync } from "node:fs";
import type { AgentSession } from "@earendil-works/pi-coding-agent";
import { getAgentDir } from "@earendil-works/pi-coding-agent";
import type { ChatEventBody } from "../../shared/host-events";
import type { WorkspaceInfo } from "../../shared/host-state";
import { ApprovalGate } from "../approvals/approval-gate";
import { isInside } from "../base/paths";
import type { ChangeRecords } from "../changes";
import { DEFAULT_BACKGROUND_CAP_SECONDS, type RunRegistry, type SandboxCheck } from "../run-command";
import { createDeskSession, type SessionChoice } from "./agent-session-factory";
import { ChangeActions, REVERT_MESSAGE_TYPE } from "./change-actions";
import { commandRecorder } from "./command-changes";
import { createCommandTools } from "./command-tools";
import { contextEntryIds, writtenEntryId } from "./entry-ids";
import { createEditTools, EDITING_GUIDANCE } from "./file-edits/edit-tools";
import { shellWritePreview } from "./file-edits/shell-write-preview";
import { FolderFiles } from "./file-finder/folder-files";
import { createDeskMcp } from "./mcp/desk-mcp";
import { gateMcpTool } from "./mcp/mcp-gated-tool";
import { chatModelOf, startingModel } from "./model-choice";
import type { DeskModels } from "./model-runtime";
import { projectResources } from "./project-resources";
import { HiddenFolders } from "./read-tools/hidden-folders";
import { realExisting } from "./read-tools/pi-paths";
import { skillFolders } from "./read-tools/skill-folders";
import { RecordKeys } from "./record-keys";
import { takeRecovered } from "./rewind/rewind-journal";
import { SessionProjection } from "./session-projection";
import type { WorkspaceParts } from "./workspace-parts";
import { WorkspaceSession } from "./workspace-session";

/** What the chat says of a rewind a dead host left half-done (the page words it from the notice's kind). */
const RECOVERED = {
  finished:
    "Pi Desk stopped in the middle of a rewind of this chat; it finished it at its start: the files were put back and the conversation stands before your message.",
  "rolled-back":
    "Pi Desk stopped in the middle of a rewind of this chat; it rolled it back at its start: the files and the conversation are as they were before the rewind.",
} as const;

const SWITCH_RECOVERED = {
  finished:
    "Pi Desk stopped in the middle of a switch to another branch of this chat; it finished it at its start: the files and the conversation are the other branch's.",
  "rolled-back":
    "Pi Desk stopped in the middle of a switch to another branch of this chat; it rolled it back at its start: the files and the conversation are as they were before the switch.",
} as const;

const BACK_RECOVERED = {
  finished:
    "Pi Desk stopped in the middle of going back to where you were in this chat; it finished it at its start: the files and the conversation are as they were before the rewind.",
  "rolled-back":
    "Pi Desk stopped in the middle of going back to where you were in this chat; it rolled it back at its start: the chat is still rewound, and Back to where I was is still offered.",
} as const;

/** What one chat of a workspace is made of. */
export interface WorkspaceSessionOptions {
  /** The chat's workspace. */
  workspace: WorkspaceInfo;
  /** What every chat of the workspace shares: rules, audit log, settings, saved outputs, change records. */
  parts: WorkspaceParts;
  /** The models. */
  models: DeskModels;
  /** Where the chat's events go. */
  emit: (event: ChatEventBody) => void;
  /** Which conversation to open; a new one by default. */
  open?: SessionChoice;
  /** Whether this machine has a working sandbox (the host checks once at start). */
  sandbox: SandboxCheck;
  /** What the sandbox hides besides the person's home: Pi's agent dir, Pi Desk's data dir. */
  hiddenPaths: string[];
  /** Opens a page in the person's browser (an MCP server's sign-in page); absent where the shell cannot. */
  openExternal?: (url: string) => void;
  /** Called after the person signed in to one of the chat's MCP servers (the other chats may use it too). */
  mcpSignedIn?: (server: string) => void;
  /** Where running commands are recorded for crash recovery. */
  runRegistry?: RunRegistry;
  /**
   * The chat's own folder when it is not the workspace's (a git worktree), with its own change records
   * (absent: not recorded); commands, edits, read tools, the sandbox and undo all work there.
   */
  folder?: {
    path: string;
    changes?: ChangeRecords;
    /** What the sandbox lets its commands read and write besides the folder (its git), read at each command. */
    sandboxPaths?: () => { readOnlyPaths: string[]; writablePaths: string[] };
  };
}

/**
 * Opens (or starts) one conversation in a workspace: its own book of session rules over the workspace's
 * rules, the command and edit tools wired to the chat's gate and the workspace's change recorder, and Pi's
 * session created with them.
 */
export async function openWorkspaceSession(options: WorkspaceSessionOptions): Promise<WorkspaceSession> {
  const { parts } = options;
  // The chat's folder: the workspace's, or its own worktree's (the workspace's rules and settings still hold).
  const workspace = options.folder ? { ...options.workspace, path: options.folder.path } : options.workspace;
  const rules = parts.rules.forChat();
  const { audit, preferences, outputQuota, outputDir, limits } = parts;
  const settings = parts.commands;
  const projection = new SessionProjection(
    options.emit,
    workspace.path,
    limits.maxTimeoutSeconds,
    (request) => options.models.failures.of(request),
    (message) => (agent ? writtenEntryId(agent.sessionManager, message) : undefined),
  );
  // The tools are created before the session (Pi needs them), and ask through the session once it exists.
  let self: WorkspaceSession | undefined;
  let agent: AgentSession | undefined;
  const changes = options.folder ? options.folder.changes : parts.changes;
  const root = realpathSync(workspace.path);
  // A hidden folder that holds the chat's whole folder (a worktree in Pi Desk's data) hides nothing the tools,
  // kept to the folder, may reach; the sandbox still hides it all but the folder (commands get the whole list).
  const toolHiddenPaths = options.hiddenPaths.filter((path) => !isInside(realExisting(path), root));
  const hidden = new HiddenFolders(toolHiddenPaths);
  // The chat's records in the workspace's shared ones, under its Pi session id (known once the session is).
  let sessionId = "";
  const keys = changes ? new RecordKeys(() => sessionId, changes) : undefined;
  const recorder =
    changes && keys
      ? commandRecorder(changes, keys, (id) => projection.commands.get(id)?.command)
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
    // One cap for the workspace's background commands, whichever chat started them.
    workspaceBackground: () => parts.background.running(),
    backgroundGroup: parts.background.group,
    chat: {
      approve: (request, signal) => {
        if (!self) throw new Error("The session is not ready yet.");
        // Known writes are shown as diffs before the command runs (none when not known exactly).
        const writePreview = shellWritePreview(request.parsed, root, hidden, request.command);
        if (writePreview) projection.updateCommand(request.toolCallId, { writePreview });
        return self.gate.approveCommand(request, signal);
      },
      sandbox: () => {
        const folder = options.folder?.sandboxPaths?.();
        // The session's skills, read-only: Pi tells the model to read them, and a skill may name a script there.
        const skills = agent
          ? skillFolders(agent.resourceLoader.getSkills().skills, options.hiddenPaths)
          : [];
        return {
          ...preferences.sandbox(),
          ...folder,
          readOnlyPaths: [...(folder?.readOnlyPaths ?? []), ...skills],
        };
      },
      // The workspace's own limits over the host's, read as each command starts (settings.json's "limits").
      resourceLimits: () => preferences.value.limits,
      backgroundCapSeconds: () => self?.backgroundCapSeconds ?? DEFAULT_BACKGROUND_CAP_SECONDS,
      backgroundEnded: (id, command, state) => self?.gate.recordBackgroundEnd(id, command, state),
      hostDecision: (id, event, hosts) => self?.hostDecision(id, event, hosts),
      runOwner: () => (self ? { sessionId: self.agent.sessionId, auditFile: parts.auditFile } : undefined),
    },
  });
  const leaveBackground = parts.background.join(tools.background);
  // A new chat starts with the workspace's last pick; a reopened one keeps its own model (Pi restores it
  // from the session file), and either says so when that model is gone.
  const isNew = (options.open?.kind ?? "new") === "new";
  const start = isNew ? startingModel(options.models, preferences.value.model) : {};
  const editTools = createEditTools({
    root,
    hidden,
    approve: (request, signal) => {
      if (!self) throw new Error("The session is not ready yet.");
      return self.gate.approveEdit(request, signal);
    },
    ...(recorder ? { recorder } : {}),
  });
  // The person's MCP servers: each call waits at the chat's gate like a command (mcp/mcp-gated-tool.ts).
  const mcp = createDeskMcp({
    agentDir: getAgentDir(),
    workspace: workspace.path,
    trustFolder: options.workspace.path,
    off: preferences.value.mcpServersOff ?? [],
    // Taken when the chat starts: Pi's tools and their declarations are set up once per session.
    scripts: preferences.value.scripts === true,
    scriptsSetting: () => preferences.value.scripts === true,
    ...(options.openExternal ? { openExternal: options.openExternal } : {}),
    ...(options.mcpSignedIn ? { signedIn: options.mcpSignedIn } : {}),
    onChange: () => {
      if (self) options.emit({ type: "mcp-servers-changed", mcp: mcp.state() });
    },
    wrapTool: (tool) =>
      gateMcpTool(tool, {
        approve: (request, signal) => {
          if (!self) throw new Error("The session is not ready yet.");
          return self.gate.approveMcpCall(request, signal);
        },
        controllers: tools.controllers,
        update: (id, patch) => projection.updateMcpCall(id, patch),
        ...(recorder ? { recorder } : {}),
        isLocal: (server) => mcp.state().servers.find((one) => one.name === server)?.transport === "stdio",
      }),
  });
  // The project's templates and skills where the workspace is trusted in Pi (a worktree by its workspace's trust).
  const project = projectResources(getAgentDir(), workspace.path, options.workspace.path);
  const { session, modelFallbackMessage } = await createDeskSession({
    workspace: workspace.path,
    models: options.models,
    runCommandTool: tools.runCommand,
    backgroundTools: tools.backgroundTools,
    editTools,
    appendSystemPrompt: [EDITING_GUIDANCE],
    open: options.open,
    hiddenPaths: toolHiddenPaths,
    ...(mcp.configured ? { mcp } : {}),
    projectResources: project,
    ...(start.model ? { model: start.model } : {}),
    ...(isNew && preferences.value.thinkingLevel ? { thinkingLevel: preferences.value.thinkingLevel } : {}),
  });
  sessionId = session.sessionId;
  agent = session;
  projection.load(session.messages, contextEntryIds(session.sessionManager));
  // A reopened chat's commands and edits whose records were pruned since: say so rather than offer undo.
  if (keys) projection.markDropped((id) => keys.has(id));
  // A rewind of this chat that a dead host left half-done was finished or rolled back at the start: say which.
  const recovered = changes ? await takeRecovered(changes.dataDir, session.sessionId) : undefined;
  if (recovered?.outcome) {
    const { outcome, kind } = recovered;
    const words = kind === "switch" ? SWITCH_RECOVERED : kind === "back" ? BACK_RECOVERED : RECOVERED;
    projection.addNotice("info", words[outcome], {
      id: "rewind-recovered",
      outcome,
      ...(kind ? { kind } : {}),
    });
  }
  const gate = new ApprovalGate({
    rules,
    audit,
    cards: projection,
    sessionId: () => session.sessionId,
    onRulesChanged: ({ rules, rulesProblem }) =>
      options.emit({ type: "rules-changed", rules, ...(rulesProblem ? { problem: rulesProblem } : {}) }),
  });
  // A workspace rule saved through another chat: this chat's page shows it too (it is in force already).
  const stopFollowingRules = rules.onWorkspaceChange(() => {
    const { rules: now, rulesProblem } = gate.ruleState();
    options.emit({ type: "rules-changed", rules: now, ...(rulesProblem ? { problem: rulesProblem } : {}) });
  });
  const changeActions = changes?.recorder
    ? new ChangeActions({
        recorder: changes.recorder,
        keys: keys as RecordKeys,
        views: projection.views,
        edits: projection.edits,
        mcpCalls: projection.mcpCalls,
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
    ...(settings.backgroundCapSeconds !== undefined
      ? { hostBackgroundCapSeconds: settings.backgroundCapSeconds }
      : {}),
    onDispose: () => {
      stopFollowingRules();
      leaveBackground();
    },
    ...(mcp.worthShowing ? { mcp } : {}),
    ...(project.skipped.length > 0 ? { projectSkipped: project.skipped } : {}),
    ...(keys ? { recordKeys: keys } : {}),
    ...(changes ? { changes } : {}),
    root,
    session,
    projection,
    gate,
    changeActions,
    baseLimits: limits,
    commandSettings: settings,
    preferences,
    tools,
    outputQuota,
    files: new FolderFiles(root, hidden),
    unavailableModel: start.unavailable ?? (modelFallbackMessage ? chatModelOf(session) : undefined),
  });
  return self;
}
