import { type CommandChanges, MAX_FILES_ON_CARD } from "../../shared/changes";
import type { AfterResult, ChangeRecords } from "../changes";
import type { CommandRecorder, RecordedChanges } from "../run-command";
import type { RecordKeys } from "./record-keys";

/** How long a command waits for the workspace's first snapshot before it runs unrecorded. */
const FIRST_SNAPSHOT_WAIT_MS = 3_000;

/**
 * The change engine as `run_command`'s recorder: each command's change set for its card (the files,
 * capped, with their totals) and the engine's bounded line for the model. A command the engine could
 * not record says why on its card; the model is not told (nothing it can do about it).
 */
export function commandRecorder(
  records: ChangeRecords,
  keys: RecordKeys,
  commandOf: (commandId: string) => string | undefined,
): CommandRecorder {
  const { recorder } = records;
  /** Why a command's before-state was not recorded, until its end says so. */
  const unrecorded = new Map<string, string>();
  return {
    started: async (commandId, signal) => {
      await records.whenPrepared(FIRST_SNAPSHOT_WAIT_MS, signal);
      const before = await recorder.before(keys.forNew(commandId));
      if (!before.recorded) unrecorded.set(commandId, before.reason);
    },
    ended: async (commandId) => {
      const reason = unrecorded.get(commandId);
      unrecorded.delete(commandId);
      if (reason !== undefined) return { changes: { recorded: false, reason } };
      const recorded = recordedChanges(await recorder.after(keys.forNew(commandId)), (key) => {
        // Another chat's command is named by its call id alone: this chat cannot tell its text.
        const own = keys.commandOf(key);
        return own === undefined
          ? { commandId: key.slice(key.indexOf(":") + 1) }
          : { commandId: own, command: commandOf(own) };
      });
      records.settle();
      return recorded;
    },
  };
}

/** What `after` found, as the card and the model take it. */
function recordedChanges(
  after: AfterResult,
  overlapOf: (key: string) => { commandId: string; command?: string | undefined },
): RecordedChanges {
  if (!after.recorded) return { changes: { recorded: false, reason: after.reason } };
  const { files, nestedRepositories } = after.changes;
  const overlapping = after.overlapping.map(({ commandId: key }) => {
    const { commandId, command } = overlapOf(key);
    return command === undefined ? { commandId } : { commandId, command };
  });
  const changes: CommandChanges = {
    recorded: true,
    files: files.slice(0, MAX_FILES_ON_CARD),
    totalFiles: files.length,
    added: files.reduce((sum, file) => sum + file.added, 0),
    removed: files.reduce((sum, file) => sum + file.removed, 0),
    nestedRepositories,
    overlapping,
  };
  const mixed =
    overlapping.length > 0 && files.length > 0
      ? ` Other commands ran at the same time (${overlapping.map(nameOf).join(", ")}): some of these changes may be theirs.`
      : "";
  return { changes, note: `${after.summary}${mixed}` };
}

/** A command as a sentence names it: its text in backticks (cut), else its id. */
export function nameOf({ commandId, command }: { commandId: string; command?: string }): string {
  if (command === undefined) return `command ${commandId}`;
  const line = command.split("\n")[0] ?? "";
  return `\`${line.length > 80 ? `${line.slice(0, 79)}…` : line}\``;
}
