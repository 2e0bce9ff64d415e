import { randomUUID } from "node:crypto";
import type { WorkspaceEventBody } from "../../shared/host-events";
import type { WorkspaceInfo } from "../../shared/host-state";
import type { CommandSettings } from "../agent/command-limits";
import { recoverRewinds } from "../agent/rewind/rewind-journal";
import { openWorkspaceParts, type WorkspaceParts } from "../agent/workspace-parts";
import { ChangeRecords, type ChangeRecordsOptions } from "../changes";
import { checkResourceLimits, type SandboxCheck } from "../run-command";
import { changesDir, workspaceDataDir } from "../storage/data-folder";
import { acquireWorkspaceLock, WorkspaceInUseError, type WorkspaceLock } from "../storage/workspace-lock";
import type { WorkspaceLimits } from "../storage/workspace-settings";
import type { WorkspaceFolder } from "./workspace";

/** How a host records what commands change: everything but where (the workspace and its data folder). */
export type WorkspaceChangesOptions = Omit<
  ChangeRecordsOptions,
  "workspace" | "dataDir" | "onState" | "onDropped"
>;

/** What opening a workspace needs from its host. */
export interface DeskWorkspaceOptions {
  /** The folder, already resolved. */
  folder: WorkspaceFolder;
  /** The host's data folder. */
  dataRoot: string;
  /** How a person reaches the host, written into the workspace's owner lock. */
  reach: string;
  /** The host's command limits. */
  commands?: CommandSettings;
  /** Whether this machine has a working sandbox. */
  sandbox: SandboxCheck;
  /** How changes are recorded; `false`: not at all. */
  changes?: WorkspaceChangesOptions | false;
  /** Where the workspace's events go (the host stamps the workspace's id on them). */
  emit: (event: WorkspaceEventBody) => void;
  /** Commands whose change records were dropped to fit the budget (their cards stop offering undo). */
  onChangesDropped: (commandIds: readonly string[]) => void;
}

/**
 * One open repository: its owner lock (one host per workspace), and what all its chats share (rules, audit
 * log, settings, saved outputs, change records). Chats come and go; the workspace stays until it is closed.
 */
export class DeskWorkspace {
  private constructor(
    /** The workspace as the page knows it. */
    readonly info: WorkspaceInfo,
    /** What its chats share. */
    readonly parts: WorkspaceParts,
    private readonly lock: WorkspaceLock,
  ) {}

  /** Takes the workspace's lock (a live owner's is not taken: the error names it), then opens what it shares. */
  static async open(options: DeskWorkspaceOptions): Promise<DeskWorkspace> {
    const { folder, dataRoot } = options;
    const dataDir = workspaceDataDir(dataRoot, folder.path);
    // Before anything of the workspace's data is touched: another live Pi Desk on it keeps it.
    const attempt = acquireWorkspaceLock(dataDir, options.reach);
    if (!attempt.lock) throw new WorkspaceInUseError(attempt.owner);
    const lock = attempt.lock;
    let changes: ChangeRecords | undefined;
    try {
      let workspace: DeskWorkspace | undefined;
      changes =
        options.changes === false
          ? undefined
          : await ChangeRecords.open({
              ...(options.changes ?? {}),
              workspace: folder.path,
              dataDir: changesDir(dataDir),
              // Only once the workspace is open: the state that opens it carries the figures as they are then.
              onState: (state) => {
                if (workspace) options.emit({ type: "changes-state", changes: state });
              },
              onDropped: (commandIds) => {
                if (workspace) options.onChangesDropped(commandIds);
              },
            });
      // A rewind a dead host left half-done is finished or rolled back before any chat opens (see rewind-journal.ts).
      if (changes) await recoverRewinds(changes);
      const parts = await openWorkspaceParts({
        path: folder.path,
        dataRoot,
        commands: options.commands,
        sandbox: options.sandbox,
        ...(changes ? { changes } : {}),
        onSavedOutputs: (savedOutputs) => options.emit({ type: "saved-outputs", savedOutputs }),
      });
      workspace = new DeskWorkspace({ id: randomUUID(), ...folder }, parts, lock);
      return workspace;
    } catch (error) {
      await changes?.close();
      lock.release();
      throw error;
    }
  }

  /** The workspace's id. */
  get id(): string {
    return this.info.id;
  }

  /**
   * Sets the most memory and processes each of its commands may use (an absent one: the host's), kept in its
   * settings; the next command starts under them. Refused, saying what to set, below the smallest.
   */
  async setResourceLimits(limits: WorkspaceLimits): Promise<void> {
    const own: WorkspaceLimits = Object.fromEntries(
      Object.entries(limits).filter(([, value]) => value !== undefined),
    );
    const problem =
      checkResourceLimits({ memoryBytes: own.memoryBytes, processes: own.processes }) ??
      checkTotal(
        checkResourceLimits({ memoryBytes: own.backgroundMemoryBytes, processes: own.backgroundProcesses }),
      );
    if (problem) throw new Error(problem);
    const { preferences } = this.parts;
    await preferences.save({ limits: Object.keys(own).length > 0 ? own : undefined });
  }

  /** Says how to reach the host from now on, in the owner lock. */
  setReach(reach: string): void {
    this.lock.update(reach);
  }

  /** Closes the change records, then gives the workspace up (its chats are closed first, by the host). */
  async close(): Promise<void> {
    await this.parts.changes?.close();
    // Last: the workspace is given up only once nothing of this host writes its data any more.
    this.lock.release();
  }
}

/** A problem with the background total, said as one (the checks speak of a command's limit). */
function checkTotal(problem: string | undefined): string | undefined {
  return problem?.replace("A command's", "The background commands' total");
}
