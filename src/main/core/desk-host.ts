import { homedir } from "node:os";
import { join } from "node:path";
import type { CommandView } from "../../shared/commands";
import type { DeskApi, DeskMethod, Unsubscribe } from "../../shared/desk-api";
import type { HostEvent } from "../../shared/host-events";
import type { HostState, ShellKind, WorkspaceInfo } from "../../shared/host-state";
import type { ModelsState, ThinkingLevel } from "../../shared/models";
import { listWorkspaceSessions, type SessionChoice } from "../agent/agent-session-factory";
import { DeskModels } from "../agent/model-runtime";
import type { CommandSettings, WorkspaceSession } from "../agent/workspace-session";
import { openWorkspaceSession } from "../agent/workspace-session-factory";
import { AuditLog } from "../approvals/audit-log";
import { ChangeRecords, type ChangeRecordsOptions } from "../changes";
import {
  checkSandbox,
  type RunRecord,
  RunRegistry,
  reapOrphanedRuns,
  type SandboxCheck,
} from "../run-command";
import { changesDir, workspaceDataDir } from "../storage/data-folder";
import { loadPreferences, type Preferences, preferencesFile, savePreferences } from "../storage/preferences";
import { acquireWorkspaceLock, WorkspaceInUseError, type WorkspaceLock } from "../storage/workspace-lock";
import { resolveWorkspace } from "./workspace";

/** Keeps provider API keys between runs; the desktop app's is backed by the OS keychain. */
export interface SecretStore {
  /** Every stored key, by provider. */
  load(): Promise<Record<string, string>>;
  /** Stores a provider's key. */
  save(provider: string, key: string): Promise<void>;
}

/** How a shell sets up the host core. */
export interface DeskHostOptions {
  /** Which shell this is. */
  shell: ShellKind;
  /** Pi Desk's version. */
  version: string;
  /** The workspace to open at start, if any (already resolved). */
  workspace?: WorkspaceInfo;
  /** Asks the person for a folder; absent where the shell has no folder dialog. */
  pickFolder?: () => Promise<string | null>;
  /** Where rules, audit logs and full outputs are kept: `PI_DESK_DATA_DIR`, else `~/.pi-desk`. */
  dataRoot?: string;
  /** The limits on commands. */
  commands?: CommandSettings;
  /** Where API keys given in the UI are kept; absent: in memory only, never written in plain text. */
  secrets?: SecretStore;
  /** How what commands change is recorded: the records' disk budget, the engine's limits; `false`: not at all. */
  changes?: WorkspaceChangesOptions | false;
  /**
   * How a person reaches this host, written into the owner lock of the workspace it opens, so a second
   * Pi Desk on that folder can say where it is open: "desktop app" (the default in Electron), or
   * "browser host on <URL without the token>" (see `setReach`; "browser host" until it listens).
   */
  reach?: string;
}

/** How a host records what commands change: everything but where (the workspace and its data folder). */
export type WorkspaceChangesOptions = Omit<
  ChangeRecordsOptions,
  "workspace" | "dataDir" | "onState" | "onDropped"
>;

/** Where the host keeps its data: the option, else `PI_DESK_DATA_DIR`, else `~/.pi-desk`. */
function dataRootOf(options: DeskHostOptions): string {
  return options.dataRoot ?? process.env.PI_DESK_DATA_DIR ?? join(homedir(), ".pi-desk");
}

/** The host's side of a call: what `DeskApi` does once the shell has checked who asks and with what. */
export type DeskHandlers = { [M in DeskMethod]: DeskApi[M] };

/**
 * The host core both shells share. It holds the state, does what the calls ask, and tells every
 * subscriber what changed. It imports nothing from Electron, so it runs and is tested under plain Node.
 */
export class DeskHost {
  private workspace: WorkspaceInfo | null = null;
  private session: WorkspaceSession | null = null;
  private readonly listeners = new Set<(event: HostEvent) => void>();
  private readonly dataRoot: string;
  private readonly runRegistry: RunRegistry;
  /** The open workspace's change records: one per workspace, kept across its chats. */
  private changes: { path: string; records: ChangeRecords } | undefined;
  /** The open workspace's owner lock: one host per workspace, so two never write its data side by side. */
  private lock: { path: string; lock: WorkspaceLock } | undefined;
  private reach: string;

  private constructor(
    private readonly options: DeskHostOptions,
    private readonly models: DeskModels,
    private readonly sandbox: SandboxCheck,
    private preferences: Preferences,
  ) {
    this.dataRoot = dataRootOf(options);
    this.runRegistry = new RunRegistry(join(this.dataRoot, "running"));
    this.reach = options.reach ?? (options.shell === "electron" ? "desktop app" : "browser host");
  }

  /** Sets up the models and opens the start workspace, if any. */
  static async create(options: DeskHostOptions): Promise<DeskHost> {
    // A host that was killed mid-run left its commands' process trees behind: end them first, and write
    // down how those commands ended. Only dead hosts' runs: a Pi Desk still running (opened twice, or
    // serving another folder) keeps its commands.
    const orphans = await reapOrphanedRuns(join(dataRootOf(options), "running"));
    if (orphans.records > 0) {
      console.warn(
        `Pi Desk: ended ${orphans.killed} process(es) left running by ${orphans.records} command(s) of a previous run.`,
      );
    }
    await auditInterrupted(orphans.reaped);
    // Once per start, at the same time as the models: a sandboxed `true` tells whether this machine can
    // sandbox commands at all.
    const [models, sandbox] = await Promise.all([DeskModels.create(), checkSandbox()]);
    for (const [provider, key] of Object.entries((await options.secrets?.load()) ?? {})) {
      await models.setApiKey(provider, key);
    }
    const preferences = await loadPreferences(preferencesFile(dataRootOf(options)));
    const host = new DeskHost(options, models, sandbox, preferences);
    if (options.workspace) await host.open(options.workspace, { kind: "new" });
    return host;
  }

  /** One command of the open chat as the host holds it, its output whole (the state may leave it out). */
  command(commandId: string): CommandView | undefined {
    return this.session?.command(commandId);
  }

  /** The state a newly connected UI starts from. */
  state(): HostState {
    return {
      workspace: this.workspace,
      shell: this.options.shell,
      canChooseWorkspace: this.options.pickFolder !== undefined,
      version: this.options.version,
      hostTime: Date.now(),
      session: this.session?.state() ?? null,
      limits: this.session?.limits ?? null,
      models: this.modelsState(),
      ...(this.session?.gate.ruleState() ?? { rules: [] }),
      notifications: this.preferences.notifications,
    };
  }

  /** Says how to reach this host from now on, in the owner lock of every workspace it opens (the browser host's URL). */
  setReach(reach: string): void {
    this.reach = reach;
    this.lock?.lock.update(reach);
  }

  /** Receive every event from now on. */
  subscribe(listener: (event: HostEvent) => void): Unsubscribe {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The calls, bound to this host; the shells route validated requests here. */
  readonly handlers: DeskHandlers = {
    getState: async () => this.state(),
    chooseWorkspace: async () => {
      const pick = this.options.pickFolder;
      if (!pick) {
        throw new Error("This host has no folder dialog: start it with --workspace <folder> to choose one.");
      }
      const path = await pick();
      return path === null ? null : this.open(await resolveWorkspace(path), { kind: "new" });
    },
    openWorkspace: async ({ path }) => this.open(await resolveWorkspace(path), { kind: "new" }),
    listSessions: async () => {
      const workspace = this.requireWorkspace();
      return (await listWorkspaceSessions(workspace.path)).map((past) => ({
        path: past.path,
        id: past.id,
        title: past.name ?? (past.firstMessage.trim().slice(0, 120) || "(empty conversation)"),
        modified: past.modified.getTime(),
        messageCount: past.messageCount,
      }));
    },
    newSession: async () => {
      await this.open(this.requireWorkspace(), { kind: "new" });
    },
    openSession: async ({ path }) => {
      await this.open(this.requireWorkspace(), { kind: "open", path });
    },
    prompt: async ({ text }) => this.requireSession().prompt(text),
    stop: async () => this.requireSession().stop(),
    decide: async ({ approvalId, decision, rule }) =>
      this.requireSession().gate.decide(approvalId, decision, rule),
    cancelCommand: async ({ commandId }) => this.requireSession().cancelCommand(commandId),
    commandOutput: async ({ sessionId, commandId }) =>
      this.requireSession().commandOutput(sessionId, commandId),
    readFullOutput: async ({ commandId, offset }) => this.requireSession().readFullOutput(commandId, offset),
    setModel: async ({ provider, id }) => {
      const model = this.models.pick({ provider, id });
      if (!model) throw new Error(`There is no model "${provider}/${id}". Pick one from the list.`);
      await this.requireSession().setModel(model);
      this.emit({ type: "models-changed", models: this.modelsState() });
    },
    setThinkingLevel: async ({ level }) => {
      await this.requireSession().setThinkingLevel(level);
      this.emit({ type: "models-changed", models: this.modelsState() });
    },
    setApiKey: async ({ provider, key }) => {
      await this.models.setApiKey(provider, key.trim());
      await this.options.secrets?.save(provider, key.trim());
      this.emit({ type: "models-changed", models: this.modelsState() });
    },
    addRule: async (draft) => this.requireSession().gate.addRule(draft),
    updateRule: async ({ id, rule }) => this.requireSession().gate.updateRule(id, rule),
    removeRule: async ({ id }) => this.requireSession().gate.removeRule(id),
    setSandbox: async ({ enabled, network }) => {
      await this.requireSession().setSandbox(enabled, network);
      this.emit({ type: "snapshot", state: this.state() });
    },
    setAllowedHosts: async ({ hosts }) => {
      const outcome = await this.requireSession().setAllowedHosts(hosts);
      if (outcome.saved) this.emit({ type: "snapshot", state: this.state() });
      return outcome;
    },
    addAllowedHosts: async ({ hosts }) => {
      const outcome = await this.requireSession().addAllowedHosts(hosts);
      if (outcome.saved) this.emit({ type: "snapshot", state: this.state() });
      return outcome;
    },
    keepRunning: async ({ commandId }) => this.requireSession().keepRunning(commandId),
    setBackgroundCap: async ({ seconds }) => {
      await this.requireSession().setBackgroundCap(seconds);
      this.emit({ type: "snapshot", state: this.state() });
    },
    getHistory: async ({ query, limit }) => this.requireSession().gate.history(query, limit),
    commandDiff: async ({ commandId, path }) => this.requireSession().changes.diff(commandId, path),
    undoCommand: async ({ commandId, undoAnyway }) =>
      this.requireSession().changes.undo(commandId, undoAnyway),
    previewRestore: async ({ commandId }) => this.requireSession().changes.previewRestore(commandId),
    restoreWorkspace: async ({ previewId, undoAnyway }) =>
      this.requireSession().changes.restore(previewId, undoAnyway),
    setNotifications: async ({ enabled }) => {
      const next = { ...this.preferences, notifications: enabled };
      await savePreferences(preferencesFile(this.dataRoot), next);
      this.preferences = next;
      this.emit({ type: "notifications-changed", enabled });
    },
  };

  /** Releases everything: the session is disposed and every running command's tree killed. */
  async dispose(): Promise<void> {
    await this.session?.dispose("quit");
    this.session = null;
    await this.changes?.records.close();
    this.changes = undefined;
    // Last: the workspace is given up only once nothing of this host writes its data any more.
    this.lock?.lock.release();
    this.lock = undefined;
    this.listeners.clear();
  }

  private async open(workspace: WorkspaceInfo, choice: SessionChoice): Promise<WorkspaceInfo> {
    // Before anything of the workspace's data is touched: another live Pi Desk on it keeps it.
    const fresh = this.lock?.path === workspace.path ? undefined : this.takeLock(workspace);
    try {
      await this.openSession(workspace, choice);
    } catch (error) {
      fresh?.release();
      throw error;
    }
    if (fresh) {
      const previous = this.lock;
      this.lock = { path: workspace.path, lock: fresh };
      previous?.lock.release();
    }
    return workspace;
  }

  /** The workspace's owner lock, now this host's; a live owner's is not taken, and the error names it. */
  private takeLock(workspace: WorkspaceInfo): WorkspaceLock {
    const attempt = acquireWorkspaceLock(workspaceDataDir(this.dataRoot, workspace.path), this.reach);
    if (!attempt.lock) throw new WorkspaceInUseError(attempt.owner);
    return attempt.lock;
  }

  private async openSession(workspace: WorkspaceInfo, choice: SessionChoice): Promise<void> {
    const next = await openWorkspaceSession({
      workspace,
      dataRoot: this.dataRoot,
      models: this.models,
      commands: this.options.commands,
      open: choice,
      sandbox: this.sandbox,
      hiddenPaths: [this.models.agentDir, this.dataRoot],
      runRegistry: this.runRegistry,
      ...(this.options.changes === false ? {} : { changes: await this.changeRecords(workspace) }),
      emit: (event) => {
        if (this.session === next) this.emit(event);
      },
    });
    const previous = this.session;
    this.session = next;
    this.workspace = workspace;
    await previous?.dispose();
    this.emit({ type: "snapshot", state: this.state() });
  }

  /** The workspace's change records: the open ones when it is the same workspace, else opened now. */
  private async changeRecords(workspace: WorkspaceInfo): Promise<ChangeRecords> {
    if (this.changes?.path === workspace.path) return this.changes.records;
    await this.changes?.records.close();
    const records = await ChangeRecords.open({
      ...(this.options.changes || {}),
      workspace: workspace.path,
      dataDir: changesDir(workspaceDataDir(this.dataRoot, workspace.path)),
      onState: (changes) => {
        if (current()) this.emit({ type: "changes-state", changes });
      },
      onDropped: (commandIds) => {
        if (current()) this.session?.changesDropped(commandIds);
      },
    });
    // Only once the workspace is open: before, the UI still shows the previous one, and the snapshot that
    // opens this one carries the figures as they are then.
    const current = () => this.changes?.records === records && this.workspace?.path === workspace.path;
    this.changes = { path: workspace.path, records };
    return records;
  }

  private modelsState(): ModelsState {
    const agent = this.session?.agent;
    const current = agent?.model;
    const problem = this.models.problem();
    return {
      options: this.models.list().map((model) => ({
        provider: model.provider,
        id: model.id,
        name: model.name,
        hasKey: model.hasKey,
        thinkingLevels: model.thinkingLevels as ThinkingLevel[],
      })),
      current: current ? { provider: current.provider, id: current.id } : null,
      thinkingLevel: (agent?.thinkingLevel ?? "off") as ThinkingLevel,
      ...(problem ? { problem } : {}),
      ...(this.session?.unavailableModel ? { unavailable: this.session.unavailableModel } : {}),
    };
  }

  private requireWorkspace(): WorkspaceInfo {
    if (!this.workspace) throw new Error("No workspace is open: open a folder first.");
    return this.workspace;
  }

  private requireSession(): WorkspaceSession {
    if (!this.session) throw new Error("No workspace is open: open a folder first.");
    return this.session;
  }

  private emit(event: HostEvent): void {
    for (const listener of this.listeners) listener(event);
  }
}

/** An audit line for each command a crashed host left running: its end is not known, only that it was cut. */
async function auditInterrupted(records: readonly RunRecord[]): Promise<void> {
  for (const { owner, commandId, command } of records) {
    if (!owner || !commandId) continue;
    await new AuditLog({ file: owner.auditFile })
      .append({
        at: Date.now(),
        sessionId: owner.sessionId,
        commandId,
        command,
        event: "finished",
        by: "host",
        status: "interrupted",
        reason:
          "Pi Desk stopped before the command ended; what it left running was ended when Pi Desk started again.",
      })
      .catch((error: unknown) => console.error(`Pi Desk: could not write the audit log: ${String(error)}`));
  }
}
