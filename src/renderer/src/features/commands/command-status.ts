import { awaitsPerson, editAwaitsPerson } from "../../../../shared/attention";
import type { CommandPhase, CommandView } from "../../../../shared/commands";
import type { EditView } from "../../../../shared/edits";
import type { SessionState } from "../../../../shared/host-state";

/** What a card shows as its status (`data-status`): the phase, with a start failure counted as failed. */
export type CardStatus = Exclude<CommandPhase, "spawn-error">;

/** The card status of a command's phase. */
export function cardStatus(phase: CommandPhase): CardStatus {
  return phase === "spawn-error" ? "failed" : phase;
}

// Which commands and edits wait for the person: one rule for the cards and the notifications.
export { awaitsPerson, editAwaitsPerson } from "../../../../shared/attention";

/**
 * The commands waiting for the person, in the order the agent asked for them (their place in the
 * transcript), then any the transcript does not hold yet.
 */
export function pendingCommands(session: SessionState | null | undefined): CommandView[] {
  if (!session) return [];
  const seen = new Set<string>();
  const ordered: CommandView[] = [];
  for (const item of session.transcript) {
    if (item.kind !== "command" || !Object.hasOwn(session.commands, item.id)) continue;
    const command = session.commands[item.id];
    if (awaitsPerson(command)) {
      ordered.push(command);
      seen.add(command.id);
    }
  }
  for (const command of Object.values(session.commands)) {
    if (awaitsPerson(command) && !seen.has(command.id)) ordered.push(command);
  }
  return ordered;
}

/** The edits waiting for the person, in the order the agent asked for them. */
export function pendingEdits(session: SessionState | null | undefined): EditView[] {
  if (!session?.edits) return [];
  return session.transcript.flatMap((item) => {
    if (item.kind !== "edit" || !Object.hasOwn(session.edits, item.id)) return [];
    const edit = session.edits[item.id] as EditView;
    return editAwaitsPerson(edit) ? [edit] : [];
  });
}
