import { existsSync } from "node:fs";
import { homedir } from "node:os";
import { join, resolve } from "node:path";
import type { Api, Model } from "@earendil-works/pi-ai";
import {
  type CreateAgentSessionOptions,
  type CreateAgentSessionResult,
  createAgentSession,
  DefaultResourceLoader,
  type ExtensionFactory,
  getAgentDir,
  getDocsPath,
  getExamplesPath,
  getReadmePath,
  SessionManager,
  SettingsManager,
  type ToolDefinition,
} from "@earendil-works/pi-coding-agent";
import { MCP_TOOLS_PATTERN, SCRIPT_TOOLS } from "./mcp/desk-mcp";
import type { DeskModels } from "./model-runtime";
import { skillFolders } from "./read-tools/skill-folders";
import { createWorkspaceReadTools } from "./read-tools/workspace-reads";

/**
 * The tools the agent may use: Pi's read-only tools and the host's `run_command` (plus, when the host gives
 * them, `command_output` and `stop_command` for background commands, and Pi's `edit` and `write` behind the
 * host's gate). Nothing writes without the person.
 */
export const SESSION_TOOLS = ["read", "grep", "find", "ls", "run_command"] as const;

/** Pi's variable for a session folder other than the agent dir's `sessions/` (the CLI honours it too). */
const SESSION_DIR_ENV = "PI_CODING_AGENT_SESSION_DIR";

/** Which conversation the session holds. */
export type SessionChoice =
  /** A new conversation; its file appears once the first message is written. */
  | { kind: "new" }
  /** The workspace's most recent conversation, or a new one when there is none (like `pi -c`). */
  | { kind: "continue-latest" }
  /** A past conversation of this workspace, by its session file. */
  | { kind: "open"; path: string };

/** Everything a session for one workspace is made of. */
export interface DeskSessionOptions {
  /** The workspace folder: the agent's working directory and the key of its session history. */
  workspace: string;
  /** The model runtime (real providers, or the scripted model). */
  models: DeskModels;
  /** The model to use; default `models.pick()` (the scripted model, else Pi's choice from settings). */
  model?: Model<Api>;
  /** The thinking level; default Pi's (settings, else `medium`, clamped to what the model accepts). */
  thinkingLevel?: CreateAgentSessionOptions["thinkingLevel"];
  /** The host's `run_command` tool; it must be named `run_command`. */
  runCommandTool: ToolDefinition;
  /** The host's `command_output` and `stop_command`, for background commands (absent: none). */
  backgroundTools?: readonly ToolDefinition[];
  /** Pi's `edit` and `write` behind the host's gate (absent: the agent cannot edit files but by commands). */
  editTools?: readonly ToolDefinition[];
  /** Which conversation; default a new one. */
  open?: SessionChoice;
  /** Folders the read-only tools may not look into even inside the workspace (the host's data, Pi's agent dir). */
  hiddenPaths?: readonly string[];
  /**
   * Read the workspace's own `.pi/` settings, extensions and skills. Default false: a repository
   * could otherwise run code in the host, or change settings, just by being opened.
   */
  trustProject?: boolean;
  /**
   * Load extensions from the agent dir (and, when trusted, the workspace). Default false: extensions run
   * in the host with full access, outside the approval of every command.
   */
  loadExtensions?: boolean;
  /** Extensions the host itself supplies; they load whatever `loadExtensions` says. */
  extensionFactories?: ExtensionFactory[];
  /** Text added to the end of Pi's system prompt, e.g. how approvals work. */
  appendSystemPrompt?: string[];
  /**
   * The person's MCP servers (mcp/desk-mcp.ts): their extension is loaded, their tools pass the allowlist
   * (`mcp__*`), and the session is bound so that the servers connect.
   */
  mcp?: { extension: ExtensionFactory; scripts?: boolean };
  /** The project's own prompt templates and skills, where the project is trusted (project-resources.ts). */
  projectResources?: { prompts: string[]; skills: string[] };
}

/** A past conversation of a workspace, as a session list shows it. */
export interface PastSession {
  /** The session file, to pass back as `{ kind: "open", path }`. */
  path: string;
  /** Pi's session id. */
  id: string;
  /** The name given with `/name` in Pi, if any. */
  name?: string;
  /** When the conversation started. */
  created: Date;
  /** When it last changed. */
  modified: Date;
  /** How many messages it holds. */
  messageCount: number;
  /** The first thing the person asked, to recognise it by. */
  firstMessage: string;
}

/**
 * Creates a Pi agent session for a workspace. Its session file is written where the `pi` CLI writes
 * them (so `pi -c` in the workspace continues the chat), it can use only `SESSION_TOOLS`, and it sends
 * nothing on its own: cache warming is off. Call `session.dispose()` when done.
 */
export async function createDeskSession(options: DeskSessionOptions): Promise<CreateAgentSessionResult> {
  const workspace = resolve(options.workspace);
  if (options.runCommandTool.name !== "run_command") {
    throw new Error(
      `The command tool is named "${options.runCommandTool.name}"; name it "run_command", the name the tool allowlist and the model expect.`,
    );
  }
  const agentDir = getAgentDir();
  const settingsManager = createSettings(workspace, agentDir, options.trustProject ?? false);
  const resourceLoader = new DefaultResourceLoader({
    cwd: workspace,
    agentDir,
    settingsManager,
    noExtensions: !(options.loadExtensions ?? false),
    extensionFactories: [
      ...(options.extensionFactories ?? []),
      ...(options.mcp ? [options.mcp.extension] : []),
    ],
    appendSystemPrompt: options.appendSystemPrompt,
    additionalPromptTemplatePaths: options.projectResources?.prompts ?? [],
    additionalSkillPaths: options.projectResources?.skills ?? [],
  });
  await resourceLoader.reload();
  const created = await createAgentSession({
    cwd: workspace,
    agentDir,
    modelRuntime: options.models.runtime,
    model: options.model ?? options.models.pick(),
    thinkingLevel: options.thinkingLevel,
    tools: [
      ...SESSION_TOOLS,
      ...[...(options.backgroundTools ?? []), ...(options.editTools ?? [])].map((tool) => tool.name),
      ...(options.mcp ? [MCP_TOOLS_PATTERN] : []),
      ...(options.mcp?.scripts ? SCRIPT_TOOLS : []),
    ],
    // Pi's read, grep, find and ls, kept to the workspace (workspace-reads.ts); find with a fallback for a
    // missing or too old fd (find-tool.ts).
    customTools: [
      options.runCommandTool,
      ...(options.backgroundTools ?? []),
      ...(options.editTools ?? []),
      ...createWorkspaceReadTools(workspace, options.hiddenPaths, () => [
        ...skillFolders(resourceLoader.getSkills().skills, [agentDir, ...(options.hiddenPaths ?? [])]),
        // Pi's own documentation, which its system prompt points the model at when asked about Pi.
        getReadmePath(),
        getDocsPath(),
        getExamplesPath(),
      ]),
    ],
    resourceLoader,
    settingsManager,
    sessionManager: openSessionManager(workspace, options.open ?? { kind: "new" }, settingsManager),
  });
  // Pi's MCP extension connects its servers on session_start, which binding emits.
  if (options.mcp) await created.session.bindExtensions({});
  return created;
}

/** The workspace's past conversations, most recent first (the ones `pi -r` offers in that folder). */
export async function listWorkspaceSessions(workspace: string): Promise<PastSession[]> {
  const cwd = resolve(workspace);
  const settings = SettingsManager.create(cwd, getAgentDir(), { projectTrusted: false });
  const sessions = await SessionManager.list(cwd, sessionDir(settings));
  return sessions.map((info) => ({
    path: info.path,
    id: info.id,
    ...(info.name ? { name: info.name } : {}),
    created: info.created,
    modified: info.modified,
    messageCount: info.messageCount,
    firstMessage: info.firstMessage,
  }));
}

function createSettings(workspace: string, agentDir: string, trustProject: boolean): SettingsManager {
  const settings = SettingsManager.create(workspace, agentDir, { projectTrusted: trustProject });
  // With the default ("idle") Pi re-sends the last request between runs to keep the provider's prompt
  // cache warm, which costs money and is traffic the person did not ask for. The mode is read from the
  // global settings only (applyOverrides does not reach it) and setCacheWarmingMode would write the
  // person's settings.json, so this session's settings answer "off" instead.
  settings.getCacheWarmingMode = () => "off";
  return settings;
}

function openSessionManager(
  workspace: string,
  choice: SessionChoice,
  settings: SettingsManager,
): SessionManager {
  const dir = sessionDir(settings);
  if (choice.kind === "new") return SessionManager.create(workspace, dir);
  if (choice.kind === "continue-latest") return SessionManager.continueRecent(workspace, dir);
  const path = resolve(choice.path);
  if (!existsSync(path)) {
    throw new Error(
      `The session file ${path} does not exist. Choose one from the workspace's past sessions.`,
    );
  }
  const manager = SessionManager.open(path, dir);
  if (resolve(manager.getCwd()) !== workspace) {
    throw new Error(
      `The session ${path} belongs to the workspace ${manager.getCwd()}, not ${workspace}. Open that workspace to continue it.`,
    );
  }
  return manager;
}

/** Where the CLI keeps sessions: its variable, then the `sessionDir` setting, else Pi's default (undefined). */
function sessionDir(settings: SettingsManager): string | undefined {
  const fromEnv = process.env[SESSION_DIR_ENV]?.trim();
  if (fromEnv) return fromEnv.startsWith("~/") ? join(homedir(), fromEnv.slice(2)) : fromEnv;
  return settings.getSessionDir();
}
