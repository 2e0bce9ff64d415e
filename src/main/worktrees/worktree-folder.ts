import { readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import type { WorktreeChoice } from "../../shared/worktrees";
import { ChangeRecords, type ChangeRecordsOptions } from "../changes";
import { writeFileAtomic } from "../storage/atomic-file";
import { changesDir, workspaceDataDir } from "../storage/data-folder";
import { type ChatWorktree, createWorktree, existingWorktree } from "./worktree-create";
import { type WorktreeGitDirs, worktreeGitDirs, worktreeSandboxPaths } from "./worktree-sandbox";

/** What opening a worktree chat's folder needs from the host. */
export interface WorktreeFolderOptions {
  /** The workspace's folder (the repository's main checkout). */
  workspace: string;
  /** The workspace's folder in Pi Desk's data (where the bases of its worktrees are kept). */
  workspaceDataDir: string;
  /** Pi Desk's data folder. */
  dataRoot: string;
  /** Where worktrees go (the workspace's setting); absent: `<dataRoot>/worktrees`. */
  worktreesFolder?: string;
  /** The person's choice: a new worktree from a base, or an existing one by path. */
  choice: WorktreeChoice;
  /** How changes are recorded (the host's); `false`: not at all. */
  changes?: Omit<ChangeRecordsOptions, "workspace" | "dataDir" | "onState" | "onDropped"> | false;
  /** Commands whose change records were dropped to fit the budget. */
  onChangesDropped: (commandIds: readonly string[]) => void;
}

/**
 * A worktree chat's folder: the worktree, and its own change records (a recorder per folder: the undo of a
 * command in the worktree puts back the worktree's files, never the workspace's). Closed with its chat.
 */
export class WorktreeFolder {
  private constructor(
    /** The worktree. */
    readonly worktree: ChatWorktree,
    /** Its change records; absent: not recorded. */
    readonly changes: ChangeRecords | undefined,
    private readonly gitDirs: WorktreeGitDirs,
    /** Whether it was made for this chat (not an existing worktree opened). */
    readonly made: boolean,
  ) {}

  private closing: Promise<void> | undefined;

  /** The chat's folder as its session takes it: the worktree, its records, what its sandbox lets git write. */
  chatFolder(): {
    path: string;
    changes?: ChangeRecords;
    sandboxPaths: () => { readOnlyPaths: string[]; writablePaths: string[] };
  } {
    return {
      path: this.worktree.path,
      ...(this.changes ? { changes: this.changes } : {}),
      sandboxPaths: () => worktreeSandboxPaths(this.worktree, this.gitDirs),
    };
  }

  /** Makes (or finds) the worktree, then opens its change records. */
  static async open(options: WorktreeFolderOptions): Promise<WorktreeFolder> {
    const bases = basesFile(options.workspaceDataDir);
    const { choice } = options;
    if (choice.path && (choice.base || choice.name)) {
      throw new Error(
        "Open an existing worktree by its path, or make a new one from a base: not both at once.",
      );
    }
    let worktree: ChatWorktree;
    if (choice.path) {
      worktree = await existingWorktree(options.workspace, choice.path);
      // One Pi Desk made knows its base; one made elsewhere starts where it meets the workspace's HEAD.
      const known = (await readBases(bases))[worktree.path];
      if (typeof known === "string" && /^[0-9a-f]{40,64}$/.test(known))
        worktree = { ...worktree, base: known };
    } else {
      worktree = await createWorktree({
        workspace: options.workspace,
        worktreesRoot: options.worktreesFolder ?? join(options.dataRoot, "worktrees"),
        ...(choice.base ? { base: choice.base } : {}),
        ...(choice.name ? { name: choice.name } : {}),
      });
      await rememberBase(bases, worktree.path, worktree.base);
    }
    const gitDirs = worktreeGitDirs(worktree);
    const changes =
      options.changes === false
        ? undefined
        : await ChangeRecords.open({
            ...(options.changes ?? {}),
            workspace: worktree.path,
            dataDir: changesDir(workspaceDataDir(options.dataRoot, worktree.path)),
            // What git just wrote is taken from git's index and objects, not read and stored again (issue 33).
            gitCheckout: gitDirs,
            onDropped: (commandIds) => options.onChangesDropped(commandIds),
          });
    return new WorktreeFolder(worktree, changes, gitDirs, !choice.path);
  }

  /** Stops recording (the chat closed); the worktree stays. Once: the host and `forget` may both ask. */
  close(): Promise<void> {
    this.closing ??= this.changes?.close() ?? Promise.resolve();
    return this.closing;
  }

  /** Closes, then forgets the worktree's records and base (it was removed). */
  async forget(dataRoot: string, workspaceData: string): Promise<void> {
    await this.close();
    await forgetWorktree(dataRoot, workspaceData, this.worktree.path);
  }
}

/** A removed worktree's change records and remembered base are removed from Pi Desk's data too. */
export async function forgetWorktree(dataRoot: string, workspaceData: string, path: string): Promise<void> {
  await rm(workspaceDataDir(dataRoot, path), { recursive: true, force: true });
  const bases = basesFile(workspaceData);
  const known = await readBases(bases);
  if (!(path in known)) return;
  delete known[path];
  await writeFileAtomic(bases, `${JSON.stringify(known, null, 2)}\n`);
}

/** The bases of the worktrees Pi Desk made for a workspace, by folder. */
function basesFile(workspaceData: string): string {
  return join(workspaceData, "worktrees.json");
}

async function readBases(file: string): Promise<Record<string, string>> {
  try {
    const parsed: unknown = JSON.parse(await readFile(file, "utf8"));
    return typeof parsed === "object" && parsed !== null ? (parsed as Record<string, string>) : {};
  } catch {
    return {};
  }
}

async function rememberBase(file: string, path: string, base: string): Promise<void> {
  const known = await readBases(file);
  known[path] = base;
  await writeFileAtomic(file, `${JSON.stringify(known, null, 2)}\n`);
}
