import type { CommandView } from "../../shared/commands";
import type { EditView } from "../../shared/edits";
import type { SessionState } from "../../shared/host-state";

/*
 * What a quit would stop: every open chat's commands that run (in the foreground or the background) or wait
 * for the person. Pure, so the questions are tested without Electron.
 */

/** The open chats as a quit sees them: each one's commands and edits. */
export type OpenChats = readonly Pick<SessionState, "commands" | "edits">[];

/** The chats' commands that are running, running in the background, or waiting for a decision. */
export function commandsInFlight(chats: OpenChats): CommandView[] {
  return chats
    .flatMap((chat) => Object.values(chat.commands))
    .filter(
      (command) =>
        command.phase === "pending" ||
        command.phase === "running" ||
        (command.phase === "background" && command.background?.status === "running"),
    );
}

/** Whether any background command (a dev server, a watcher) is running. */
export function backgroundRunning(chats: OpenChats): boolean {
  return commandsInFlight(chats).some((command) => command.phase === "background");
}

/** How many commands a question names before "and N more". */
const NAMED = 3;
/** How much of a command's first line a question shows. */
const NAME_LENGTH = 40;

/**
 * The question before `action` stops commands: "Quit and stop 2 running commands (npm run dev, npm test)?";
 * undefined when nothing would be stopped.
 */
export function stopQuestion(
  action: string,
  commands: readonly CommandView[],
  edits: readonly Pick<EditView, "tool" | "path">[] = [],
): string | undefined {
  if (commands.length + edits.length === 0) return undefined;
  const waiting = commands.filter((command) => command.phase === "pending").length;
  const running = commands.length - waiting;
  const counts = [
    running > 0 ? `${running} running ${plural(running)}` : "",
    waiting > 0 ? `${waiting} ${plural(waiting)} waiting for approval` : "",
    // An edit waiting is only dropped (nothing was written), but the person may want to decide it first.
    edits.length > 0
      ? `${edits.length} file ${edits.length === 1 ? "edit" : "edits"} waiting for approval`
      : "",
  ].filter(Boolean);
  const all = [
    ...commands.map((command) => command.command),
    ...edits.map((edit) => `${edit.tool} ${edit.path}`),
  ];
  const names = all.slice(0, NAMED).map(shortName);
  if (all.length > NAMED) names.push(`${all.length - NAMED} more`);
  return `${action} and stop ${counts.join(" and ")} (${names.join(", ")})?`;
}

/** The chats' file edits waiting for the person (quitting drops them: nothing was written). */
export function editsWaiting(chats: OpenChats): EditView[] {
  return chats.flatMap((chat) => Object.values(chat.edits)).filter((edit) => edit.status === "pending");
}

function plural(count: number): string {
  return count === 1 ? "command" : "commands";
}

/** A command's first line, clipped: enough to recognise it in a question. */
function shortName(command: string): string {
  const first = (command.split("\n")[0] ?? "").trim();
  return first.length > NAME_LENGTH || command.includes("\n") ? `${first.slice(0, NAME_LENGTH)}…` : first;
}
