import { copyFile, lstat, mkdir, readlink, rm, symlink } from "node:fs/promises";
import { basename, dirname, join, resolve } from "node:path";
import { type AgentSession, SessionManager } from "@earendil-works/pi-coding-agent";
import { gitOk } from "../../worktrees/git-run";
import type { SessionChoice } from "../agent-session-factory";
import type { ChatRewind } from "./chat-rewind";
import { FORK_ENTRY_TYPE } from "./fork-session";
import { rewindPart } from "./rewind-part";

/**
 * "Fork from here" into a new worktree: checks the message first (before a worktree is made), then, once the
 * worktree is there (made from the chat's base, HEAD), copies the folder's work not committed into it, writes
 * the files the part from the message on changed as they were before it (in the worktree: the chat's folder
 * is not touched) and forks Pi's session into it. Returns the message's text and the step that opens it.
 */
export function worktreeFork(
  workspace: string,
  chat: { agent: AgentSession; rewind: ChatRewind },
  entryId: string,
): { text: string; open: (folder: string) => Promise<SessionChoice> } {
  const { text } = rewindPart(chat.agent.sessionManager, entryId);
  const open = async (folder: string): Promise<SessionChoice> => {
    await copyWorkInProgress(workspace, folder);
    const written = await chat.rewind.writeFilesBefore(entryId, folder);
    const refused = written?.refused.filter((file) => file.path !== "") ?? [];
    if (refused.length > 0) {
      const named = refused.map((file) => `${file.path} (${file.reason})`).join(", ");
      throw new Error(`Could not write ${named} in the new worktree: fork into this folder instead.`);
    }
    return { kind: "open", path: forkSessionInto(chat.agent, entryId, folder).path };
  };
  return { text, open };
}

/**
 * Brings the chat folder's work not in its commits (changed, deleted and untracked files, as `git status`
 * lists them; ignored ones stay out, as the change engine leaves them out) into a new worktree made from the
 * same commit, so that the worktree holds the folder's files as they are now. git has no command that copies
 * a working tree's state to another worktree (a stash would touch the chat's folder), hence this.
 */
export async function copyWorkInProgress(from: string, to: string): Promise<void> {
  const listed = await gitOk(
    from,
    ["status", "--porcelain=v1", "-z", "--untracked-files=all", "--no-renames"],
    "Reading the folder's changes",
  );
  for (const record of listed.split("\0")) {
    if (record.length < 4) continue;
    const path = record.slice(3);
    const source = join(from, path);
    const target = join(to, path);
    const stat = await lstat(source).catch(() => undefined);
    await rm(target, { force: true });
    if (!stat) continue; // deleted in the folder: deleted in the worktree too
    await mkdir(dirname(target), { recursive: true });
    if (stat.isSymbolicLink()) await symlink(await readlink(source), target);
    else if (stat.isFile()) await copyFile(source, target);
  }
}

/**
 * Pi's fork of the chat's session for a new worktree: the whole tree copied, its header naming the chat's file
 * as `parentSession` and the worktree as its folder, standing before the person's message `entryId`. Kept
 * where Pi keeps the worktree's sessions: beside the chat's when those are in a folder of the person's choice.
 */
export function forkSessionInto(
  agent: AgentSession,
  entryId: string,
  folder: string,
): { path: string; text: string } {
  const source = agent.sessionFile;
  if (!source) {
    throw new Error(
      "This chat is not written to a session file yet (no answer so far): there is nothing to fork.",
    );
  }
  const { text } = rewindPart(agent.sessionManager, entryId); // else a sentence saying what to do
  const dir = inPisOwnFolder(source, agent.sessionManager.getCwd()) ? undefined : dirname(source);
  const forked = SessionManager.forkFrom(source, folder, dir);
  const parentId = forked.getEntry(entryId)?.parentId ?? null;
  if (parentId === null) forked.resetLeaf();
  else forked.branch(parentId);
  forked.appendCustomEntry(FORK_ENTRY_TYPE, { fromSession: agent.sessionId, entryId });
  const path = forked.getSessionFile();
  if (!path) throw new Error("Pi made no file for the fork: try again.");
  return { path, text };
}

/** Whether a session file is in Pi's own folder for its working folder (`sessions/--<path with dashes>--`). */
function inPisOwnFolder(sessionFile: string, cwd: string): boolean {
  const own = `--${resolve(cwd)
    .replace(/^[/\\]/, "")
    .replace(/[/\\:]/g, "-")}--`;
  return basename(dirname(sessionFile)) === own;
}
