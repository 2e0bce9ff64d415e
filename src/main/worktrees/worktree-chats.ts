import { realpathSync } from "node:fs";
import { join, resolve } from "node:path";
import type { WorkspaceInfo } from "../../shared/host-state";
import type {
  BringResult,
  KeptBranch,
  KeptWorktree,
  WorktreeChoice,
  WorktreeEntry,
  WorktreeReview,
  WorktreeSettings,
  WorktreeSettingsState,
} from "../../shared/worktrees";
import type { WorkspacePreferences } from "../agent/workspace-preferences";
import type { ChangeRecordsOptions } from "../changes";
import { bringIntoWorkspace } from "./bring-back";
import { type CleanupOutcome, cleanupWorktrees } from "./worktree-cleanup";
import { listWorktrees } from "./worktree-create";
import { commitWork, discardWorktree, removeWorktree } from "./worktree-finish";
import { forgetWorktree, WorktreeFolder } from "./worktree-folder";
import { reviewWorktree } from "./worktree-review";
import { worktreeSettingsOf, worktreeSettingsToSave } from "./worktree-settings";

/** What of an open chat the worktree actions read (the host's chat, seen from here). */
export interface WorktreeChat {
  /** The host's id of the chat. */
  id: string;
  /** Its workspace: where its worktree's work is brought back, and where its settings are. */
  workspace: {
    info: WorkspaceInfo;
    parts: {
      dataDir: string;
      preferences: Pick<WorkspacePreferences, "value" | "save">;
    };
  };
  /** Its worktree, when it has one. */
  folder?: WorktreeFolder;
  /** Its session: whether a turn is under way, stopping it, and the records dropped to fit the budget. */
  session: {
    view: { running: boolean };
    stop(): Promise<unknown>;
    changesDropped(keys: readonly string[]): void;
    runHostCommand(command: string, purpose: string): Promise<void>;
  };
}

/** What the host gives the worktree actions. */
export interface WorktreeChatsOptions<Chat extends WorktreeChat> {
  /** Pi Desk's data folder. */
  dataRoot: string;
  /** How changes are recorded (the host's); `false`: not at all. */
  changes?: Omit<ChangeRecordsOptions, "workspace" | "dataDir" | "onState" | "onDropped"> | false;
  /** The open chats. */
  chats: () => Iterable<Chat>;
  /** Closes a chat as the person's close does (its commands stopped, the page told). */
  closeChat: (chat: Chat) => Promise<void>;
}

/**
 * The host's worktree chats: making a chat's worktree, and the review, Bring into the workspace, Keep the
 * branch and Discard that end its work. The git work is in the files beside this one; here, what the chat
 * must be for each (a worktree chat, not in the middle of a turn) and the closing of the chat after.
 */
export class WorktreeChats<Chat extends WorktreeChat> {
  /** What the last cleanup of each workspace left for the person, by the workspace's folder. */
  private readonly keptBy = new Map<string, KeptWorktree[]>();

  constructor(private readonly options: WorktreeChatsOptions<Chat>) {}

  /** The workspace's worktree settings, with what its last cleanup left for the person. */
  settings(workspace: Chat["workspace"]): WorktreeSettingsState {
    return {
      ...worktreeSettingsOf(workspace.parts.preferences.value),
      kept: this.keptBy.get(workspace.info.path) ?? [],
    };
  }

  /** Saves the workspace's worktree settings, checked (worktree-settings.ts); from the next worktree chat on. */
  async setSettings(
    workspace: Chat["workspace"],
    chosen: WorktreeSettings,
    agentDir: string,
  ): Promise<WorktreeSettingsState> {
    await workspace.parts.preferences.save(worktreeSettingsToSave(chosen, workspace.info.path, agentDir));
    return this.settings(workspace);
  }

  /** Makes (or opens) a chat's worktree in the workspace's repository; `chat` gives the chat once it exists. */
  open(
    workspace: Chat["workspace"],
    choice: WorktreeChoice,
    chat: () => Chat | undefined,
  ): Promise<WorktreeFolder> {
    const open = choice.path ? this.chatIn(realOrSelf(choice.path)) : undefined;
    if (open) {
      throw new Error(`The worktree "${choice.path}" is open in a chat already: pick that chat in the list.`);
    }
    const worktreesFolder = workspace.parts.preferences.value.worktreesFolder;
    return WorktreeFolder.open({
      workspace: workspace.info.path,
      workspaceDataDir: workspace.parts.dataDir,
      dataRoot: this.options.dataRoot,
      ...(worktreesFolder ? { worktreesFolder } : {}),
      choice,
      changes: this.options.changes,
      onChangesDropped: (keys) => chat()?.session.changesDropped(keys),
    });
  }

  /**
   * Removes finished chats' worktrees past the workspace's count and age that hold nothing uncommitted
   * (worktree-cleanup.ts); in the background when a workspace opens, so a failure (not a repository, git
   * busy) only means the next open tries again.
   */
  async cleanup(workspace: Chat["workspace"]): Promise<CleanupOutcome | undefined> {
    const { worktreesFolder, worktreeCleanup } = workspace.parts.preferences.value;
    const openPaths = new Set<string>();
    for (const chat of this.options.chats()) if (chat.folder) openPaths.add(chat.folder.worktree.path);
    try {
      const outcome = await cleanupWorktrees({
        workspace: workspace.info.path,
        worktreesRoot: worktreesFolder ?? join(this.options.dataRoot, "worktrees"),
        openPaths,
        ...(worktreeCleanup
          ? {
              policy: { keep: worktreeCleanup.keep, olderThanMs: worktreeCleanup.olderThanDays * 86_400_000 },
            }
          : {}),
      });
      this.keptBy.set(workspace.info.path, outcome.kept);
      for (const tree of outcome.removed) {
        await forgetWorktree(this.options.dataRoot, workspace.parts.dataDir, tree.path);
      }
      return outcome;
    } catch {
      return undefined;
    }
  }

  /**
   * A worktree chat is open: in a worktree made for it, the workspace's setup step (settings.json's
   * `worktreeSetup`) runs first, as an ordinary command of the chat that waits for the person's approval (or a
   * rule they made) like any other; in the background, so the chat is there to approve it in.
   */
  started(chat: Chat): void {
    const setup = chat.workspace.parts.preferences.value.worktreeSetup;
    if (!chat.folder?.made || !setup) return;
    void chat.session
      .runHostCommand(setup, "the workspace's setup step in this new worktree")
      .catch(() => {});
  }

  /**
   * The chat could not open in its folder (its session failed to start): a worktree made for it goes again,
   * worktree and branch, since nothing was done there; one that existed stays as it was.
   */
  async abandon(workspace: Chat["workspace"], folder: WorktreeFolder): Promise<void> {
    await folder.close();
    if (!folder.made) return;
    await discardWorktree(folder.worktree).catch(() => {});
    await folder.forget(this.options.dataRoot, workspace.parts.dataDir);
  }

  /** The repository's worktrees, each with the open chat working in it. */
  async list(workspace: Chat["workspace"]): Promise<WorktreeEntry[]> {
    return (await listWorktrees(workspace.info.path)).map((entry) => {
      const chat = this.chatIn(entry.path);
      return chat ? { ...entry, chatId: chat.id } : entry;
    });
  }

  /** Everything the chat changed against its base. */
  review(chat: Chat): Promise<WorktreeReview> {
    return reviewWorktree(this.folderOf(chat).worktree);
  }

  /** The chat's whole change into the workspace's checkout, or nothing and the conflicts. */
  bring(chat: Chat): Promise<BringResult> {
    const folder = this.folderOf(chat);
    this.requireIdle(chat, "bringing its work into the workspace");
    return bringIntoWorkspace(folder.worktree);
  }

  /**
   * Commits what is not committed on the chat's branch, removes the worktree, then closes the chat. The git
   * work comes first: when it fails, the chat stays open and the person reads why in its review.
   */
  async keep(chat: Chat, message?: string): Promise<KeptBranch> {
    const folder = this.folderOf(chat);
    this.requireIdle(chat, "keeping its branch");
    const kept = await commitWork(folder.worktree, message);
    await removeWorktree(folder.worktree);
    await this.finish(chat, folder);
    return kept;
  }

  /** Stops the chat's turn, removes its worktree and its branch, then closes the chat. */
  async discard(chat: Chat): Promise<void> {
    const folder = this.folderOf(chat);
    await chat.session.stop();
    await discardWorktree(folder.worktree);
    await this.finish(chat, folder);
  }

  /** The worktree is gone: the chat closes (what it still runs in the background is stopped), its records go. */
  private async finish(chat: Chat, folder: WorktreeFolder): Promise<void> {
    await this.options.closeChat(chat);
    await folder.forget(this.options.dataRoot, chat.workspace.parts.dataDir);
  }

  private chatIn(path: string): Chat | undefined {
    for (const chat of this.options.chats()) if (chat.folder?.worktree.path === path) return chat;
    return undefined;
  }

  private folderOf(chat: Chat): WorktreeFolder {
    if (!chat.folder) {
      throw new Error(
        "This chat works in the workspace's own folder, not in a worktree: its changes are in the workspace already.",
      );
    }
    return chat.folder;
  }

  private requireIdle(chat: Chat, what: string): void {
    if (chat.session.view.running) {
      throw new Error(`The chat is still working: stop it or let it finish before ${what}.`);
    }
  }
}

function realOrSelf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}
