import type { CommandOutputReply, CommandView } from "../../shared/commands";
import { countLines } from "../../shared/output-tail";

/*
 * The state a page starts from leaves long ended outputs out: a reopened chat of 500 commands carried
 * 17 MiB of output tails, most of the host's serialising and the page's parsing, for the few cards in
 * view. Each card asks for its own (`commandOutput`) when it is drawn. Live outputs stay in: they change.
 */

/** Outputs up to this many characters stay in the state: fetching them would cost more than they do. */
export const DEFER_OUTPUT_CHARS = 1024;

/** The command as the state sends it: a long output of an ended command replaced by its size. */
function viewForState(view: CommandView, sessionId: string): CommandView {
  const live = view.phase === "pending" || view.phase === "running" || view.phase === "background";
  if (live || view.output.length <= DEFER_OUTPUT_CHARS) return view;
  return { ...view, output: "", deferredOutput: { sessionId, lines: countLines(view.output) } };
}

/** The commands of a chat as its state sends them (`viewForState` each). */
export function commandsForState(
  commands: ReadonlyMap<string, CommandView>,
  sessionId: string,
): Record<string, CommandView> {
  return Object.fromEntries([...commands].map(([id, view]) => [id, viewForState(view, sessionId)]));
}

/**
 * A command's output now, for a card whose state left it out (`commandOutput`); refused for one the chat does
 * not have (the host has already refused a chat that is not open).
 */
export function outputLeftOut(
  commands: ReadonlyMap<string, CommandView>,
  commandId: string,
): CommandOutputReply {
  const view = commands.get(commandId);
  if (!view)
    throw new Error(`This chat has no command "${commandId}": reload the page to see the chat as it is.`);
  return { output: view.output, totalBytes: view.totalBytes, totalLines: view.totalLines };
}
