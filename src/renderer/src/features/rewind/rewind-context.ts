import { createContext, useContext } from "react";
import type { ForkWhere } from "../../../../shared/branches";

/** What a person's message can start: a rewind to before it, or editing it to send again. */
export interface MessageActions {
  /**
   * Opens the rewind preview for the message with Pi's entry id `entryId`; `edit` with its text to change;
   * `switch`: the preview of switching to the branch that message begins.
   */
  open(entryId: string, text: string, mode: "rewind" | "edit" | "switch"): void;
  /**
   * "Fork from here": a new chat from before the message, shown with the message's text in its composer; in
   * this folder, or (`worktree`) in a new worktree holding the files as they were before the message.
   */
  fork(entryId: string, where?: ForkWhere): void;
  /** Whether "Fork from here" offers a new worktree (the workspace is a git repository, the chat in its folder). */
  forkIntoWorktree?: boolean;
}

/** Given by the chat view; absent (a transcript shown on its own): the messages offer no actions. */
export const MessageActionsContext = createContext<MessageActions | null>(null);

/** The chat's message actions, if any. */
export function useMessageActions(): MessageActions | null {
  return useContext(MessageActionsContext);
}
