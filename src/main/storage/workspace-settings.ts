import { readFile } from "node:fs/promises";
import { isAbsolute, join } from "node:path";
import { BACKGROUND_CAP_RANGE } from "../../shared/commands";
import { THINKING_LEVELS, type ThinkingLevel } from "../../shared/models";
import { checkResourceLimits } from "../run-command";
import { writeFileAtomic } from "./atomic-file";

/** What the person chose for one workspace, kept in its data folder. */
export interface WorkspaceSettings {
  /** The OS sandbox for this workspace's commands. */
  sandbox: { enabled: boolean; network: boolean };
  /** How long a background command may run here, in seconds; absent: the host's default. */
  backgroundCapSeconds?: number;
  /** The model new chats start with: the one last picked here (as the `pi` CLI's `/model` keeps it). */
  model?: { provider: string; id: string };
  /** The thinking level new chats start with: the one last picked here. */
  thinkingLevel?: ThinkingLevel;
  /** Hosts sandboxed commands may reach by name (checked when set; a command re-checks them). Absent: none. */
  allowedHosts?: string[];
  /**
   * Each command's memory (bytes) and processes at most, and the most the workspace's background commands
   * may use together, where the person changed them; absent: the host's.
   */
  limits?: WorkspaceLimits;
  /** Where this workspace's worktree chats' folders go (an absolute path); absent: in Pi Desk's data folder. */
  worktreesFolder?: string;
  /** A command run in each new worktree chat's worktree first (`npm ci`), asked for like any other; absent: none. */
  worktreeSetup?: string;
  /** MCP servers (by their mcp.json name) turned off in this workspace: its new chats do not start them. */
  mcpServersOff?: string[];
  /** Pi's codemode and tool_search in this workspace's new chats; absent: off (a script runs code the model wrote). */
  scripts?: boolean;
  /** How many finished chats' clean worktrees stay, and how many days, before they are removed; absent: 5, 7. */
  worktreeCleanup?: { keep: number; olderThanDays: number };
  /** Which new-chat choice is offered first; absent: the workspace's folder. */
  worktreeFirst?: "worktree";
}

/** A workspace's own resource limits, as its settings file keeps them (each one optional). */
export interface WorkspaceLimits {
  /** Each command's memory at most, in bytes. */
  memoryBytes?: number;
  /** Each command's processes and threads at most. */
  processes?: number;
  /** The memory of all its background commands together at most, in bytes. */
  backgroundMemoryBytes?: number;
  /** The processes and threads of all its background commands together at most. */
  backgroundProcesses?: number;
}

/** The most entries a workspace's allowed hosts may hold. */
export const MAX_ALLOWED_HOSTS = 500;

/** The settings file of a workspace's data folder. */
export function settingsFile(dir: string): string {
  return join(dir, "settings.json");
}

/**
 * Reads a workspace's settings; what is missing or unreadable takes the defaults (the sandbox on where
 * this machine has one, without network; Pi's own default model), so a damaged file never turns a
 * protection off. Each part is read on its own: a bad model entry does not cost the sandbox choice.
 */
export async function loadWorkspaceSettings(
  file: string,
  sandboxAvailable: boolean,
): Promise<WorkspaceSettings> {
  const fallback: WorkspaceSettings = { sandbox: { enabled: sandboxAvailable, network: false } };
  const text = await readFile(file, "utf8").catch(() => undefined);
  if (text === undefined) return fallback;
  let stored: Record<string, unknown>;
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed !== "object" || parsed === null) return fallback;
    stored = parsed as Record<string, unknown>;
  } catch {
    return fallback;
  }
  const settings: WorkspaceSettings = { ...fallback };
  const sandbox = stored.sandbox as Partial<WorkspaceSettings["sandbox"]> | undefined;
  if (typeof sandbox?.enabled === "boolean" && typeof sandbox.network === "boolean") {
    settings.sandbox = { enabled: sandbox.enabled, network: sandbox.network };
  }
  const model = stored.model as Partial<NonNullable<WorkspaceSettings["model"]>> | undefined;
  if (typeof model?.provider === "string" && model.provider && typeof model.id === "string" && model.id) {
    settings.model = { provider: model.provider, id: model.id };
  }
  const level = stored.thinkingLevel;
  if (typeof level === "string" && (THINKING_LEVELS as readonly string[]).includes(level)) {
    settings.thinkingLevel = level as ThinkingLevel;
  }
  // Kept as written, even an entry that no longer passes the check: a command then refuses to run with
  // hosts and says so, rather than this list silently shrinking.
  const hosts = stored.allowedHosts;
  if (Array.isArray(hosts) && hosts.length <= MAX_ALLOWED_HOSTS && hosts.every((h) => typeof h === "string"))
    settings.allowedHosts = hosts;
  if (isBackgroundCap(stored.backgroundCapSeconds))
    settings.backgroundCapSeconds = stored.backgroundCapSeconds;
  const limits = readLimits(stored.limits);
  if (limits) settings.limits = limits;
  const worktrees = stored.worktreesFolder;
  if (typeof worktrees === "string" && isAbsolute(worktrees)) settings.worktreesFolder = worktrees;
  const setup = stored.worktreeSetup;
  if (typeof setup === "string" && setup.trim()) settings.worktreeSetup = setup;
  const off = stored.mcpServersOff;
  if (Array.isArray(off) && off.every((name) => typeof name === "string")) settings.mcpServersOff = off;
  // Only a stored `true` turns scripts on: anything else keeps the default, off.
  if (stored.scripts === true) settings.scripts = true;
  const cleanup = stored.worktreeCleanup as { keep?: unknown; olderThanDays?: unknown } | undefined;
  const count = (value: unknown) => typeof value === "number" && Number.isInteger(value) && value >= 0;
  if (count(cleanup?.keep) && count(cleanup?.olderThanDays)) {
    settings.worktreeCleanup = {
      keep: cleanup?.keep as number,
      olderThanDays: cleanup?.olderThanDays as number,
    };
  }
  if (stored.worktreeFirst === "worktree") settings.worktreeFirst = "worktree";
  return settings;
}

/** Saves a workspace's settings (atomically, readable only by the person). */
export async function saveWorkspaceSettings(file: string, settings: WorkspaceSettings): Promise<void> {
  await writeFileAtomic(file, `${JSON.stringify(settings, null, 2)}\n`);
}

/** A cap a person may have set: whole seconds within `BACKGROUND_CAP_RANGE`. */
function isBackgroundCap(value: unknown): value is number {
  return (
    Number.isInteger(value) &&
    (value as number) >= BACKGROUND_CAP_RANGE.minSeconds &&
    (value as number) <= BACKGROUND_CAP_RANGE.maxSeconds
  );
}

/**
 * The limits a settings file holds, each one only if it may be used (`checkResourceLimits`): a damaged
 * entry falls back to the host's limit, never to none.
 */
function readLimits(value: unknown): WorkspaceSettings["limits"] {
  if (typeof value !== "object" || value === null) return undefined;
  const stored = value as Record<string, unknown>;
  const limits: WorkspaceLimits = {};
  for (const [key, kind] of [
    ["memoryBytes", "memoryBytes"],
    ["processes", "processes"],
    ["backgroundMemoryBytes", "memoryBytes"],
    ["backgroundProcesses", "processes"],
  ] as const) {
    const given = stored[key];
    if (typeof given === "number" && !checkResourceLimits({ [kind]: given })) limits[key] = given;
  }
  return Object.keys(limits).length > 0 ? limits : undefined;
}
