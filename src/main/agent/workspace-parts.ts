import { createHash } from "node:crypto";
import type { SavedOutputsState } from "../../shared/host-state";
import { AuditLog } from "../approvals/audit-log";
import { RuleBook } from "../approvals/rule-book";
import type { ChangeRecords } from "../changes";
import { type BackgroundGroup, OutputQuota, pruneFullOutputs, type SandboxCheck } from "../run-command";
import { auditFile, rulesFile, workspaceDataDir } from "../storage/data-folder";
import { loadWorkspaceSettings, settingsFile } from "../storage/workspace-settings";
import { backgroundTotal, type CommandSettings, type FixedLimits, fixedLimits } from "./command-limits";
import { WorkspacePreferences } from "./workspace-preferences";

/**
 * What every chat of one workspace shares, built once when the workspace opens: a rule saved in one chat is
 * in force in the others from their next request, and one quota bounds the saved outputs of them all.
 */
export interface WorkspaceParts {
  /** The workspace's folder in Pi Desk's data (rules, audit log, settings, outputs). */
  dataDir: string;
  /** The workspace's rules; each chat takes its own book over them (`forChat`) for its session rules. */
  rules: RuleBook;
  /** The workspace's append-only audit log, written by every chat. */
  audit: AuditLog;
  /** The audit log's file, named in the run registry so a crashed host's commands are audited. */
  auditFile: string;
  /** The workspace's settings, kept on disk. */
  preferences: WorkspacePreferences;
  /** The host's command limits. */
  commands: CommandSettings;
  /** What holds for every command of the workspace, as Settings shows it. */
  limits: FixedLimits;
  /** Where the workspace's saved full outputs go. */
  outputDir: string;
  /** The saved full outputs of every chat of the workspace, within one quota. */
  outputQuota: OutputQuota;
  /** The workspace's change records, shared by its chats; absent: not recorded. */
  changes?: ChangeRecords;
  /** Its chats' background commands, counted together against one cap. */
  background: WorkspaceBackground;
}

/**
 * The background commands of a workspace's chats, counted together: one machine runs them all. Their
 * cgroups go in one group of the workspace's (`group`), whose total bounds their memory and processes.
 */
export class WorkspaceBackground {
  private readonly chats = new Set<{ running(): number }>();

  constructor(
    /** The workspace's background group: its folder's name, and the total read as each command starts. */
    readonly group: BackgroundGroup,
  ) {}

  /** Counts a chat's background commands from now on; returns what stops counting them (the chat closed). */
  join(chat: { running(): number }): () => void {
    this.chats.add(chat);
    return () => this.chats.delete(chat);
  }

  /** How many run in the background now, in every chat of the workspace. */
  running(): number {
    let count = 0;
    for (const chat of this.chats) count += chat.running();
    return count;
  }
}

/** What opening a workspace's parts needs. */
export interface WorkspacePartsOptions {
  /** The workspace's folder. */
  path: string;
  /** The host's data folder. */
  dataRoot: string;
  /** The host's command limits. */
  commands?: CommandSettings;
  /** Whether this machine has a working sandbox (a new workspace's default). */
  sandbox: SandboxCheck;
  /** The workspace's change records, opened by the host; absent: not recorded. */
  changes?: ChangeRecords;
  /** Told whenever the saved outputs' figures change. */
  onSavedOutputs: (savedOutputs: SavedOutputsState) => void;
}

/** Reads the workspace's rules, settings and saved outputs from its data folder. */
export async function openWorkspaceParts(options: WorkspacePartsOptions): Promise<WorkspaceParts> {
  const dataDir = workspaceDataDir(options.dataRoot, options.path);
  const commands = options.commands ?? {};
  const settingsPath = settingsFile(dataDir);
  const settingsAtOpen = await loadWorkspaceSettings(settingsPath, options.sandbox.available);
  const outputDir = `${dataDir}/outputs`;
  const preferences = new WorkspacePreferences(settingsAtOpen, settingsPath);
  await pruneFullOutputs(outputDir);
  return {
    dataDir,
    rules: await RuleBook.open({ file: rulesFile(dataDir) }),
    audit: new AuditLog({ file: auditFile(dataDir) }),
    auditFile: auditFile(dataDir),
    preferences,
    commands,
    limits: fixedLimits(options.path, commands),
    outputDir,
    outputQuota: await OutputQuota.open({
      dir: outputDir,
      quotaBytes: commands.outputQuotaBytes,
      budgetBytes: commands.outputBudgetBytes,
      onChange: options.onSavedOutputs,
    }),
    ...(options.changes ? { changes: options.changes } : {}),
    background: new WorkspaceBackground({
      // One name per workspace folder, the same for all its chats (and short: it is a cgroup's name).
      name: `w-${createHash("sha256").update(options.path).digest("hex").slice(0, 12)}`,
      total: () => backgroundTotal(commands, preferences.value.limits),
    }),
  };
}
