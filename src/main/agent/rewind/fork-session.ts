import { dirname } from "node:path";
import { type AgentSession, SessionManager } from "@earendil-works/pi-coding-agent";
import { rewindPart } from "./rewind-part";

/** The custom entry that keeps a fork's leaf before the message it was made from (Pi takes a file's last entry for its leaf). */
export const FORK_ENTRY_TYPE = "pi-desk-fork";

/**
 * "Fork from here": a new session file made with Pi's fork (the whole tree copied, its header naming the
 * chat's file as `parentSession`), standing before the person's message `entryId`, in the same folder.
 * Returns its file and the message's text (for the new chat's composer). The chat itself is not touched.
 */
export function forkSession(agent: AgentSession, entryId: string): { path: string; text: string } {
  const part = rewindPart(agent.sessionManager, entryId);
  const source = agent.sessionFile;
  if (!source) {
    throw new Error(
      "This chat is not written to a session file yet (no answer so far): there is nothing to fork.",
    );
  }
  const forked = SessionManager.forkFrom(source, agent.sessionManager.getCwd(), dirname(source));
  const parentId = forked.getEntry(entryId)?.parentId ?? null;
  if (parentId === null) forked.resetLeaf();
  else forked.branch(parentId);
  forked.appendCustomEntry(FORK_ENTRY_TYPE, { fromSession: agent.sessionId, entryId });
  const path = forked.getSessionFile();
  if (!path) throw new Error("Pi made no file for the fork: try again.");
  return { path, text: part.text };
}
