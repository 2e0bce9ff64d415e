import type { CommandChanges } from "../../shared/changes";
import { errorMessage } from "../base/errors";
import type { RunCommandResult } from "./command-result";

/** What the host's change engine found a command changed, for its card and for the model. */
export interface RecordedChanges {
  /** For the card (and kept in the result's details, so a reopened chat shows it). */
  changes: CommandChanges;
  /** The line for the model (`Files changed: M a.ts (+3 -1), ...`), when there is one to tell. */
  note?: string;
}

/**
 * Records what each command that runs does to the workspace: the change engine, wired in by the host
 * (this folder may not import it). `started` is awaited just before the approved command starts, so the
 * person's edits while deciding are not counted as the command's; `ended` as soon as it ended, whatever
 * the outcome (timeout and cancel included).
 */
export interface CommandRecorder {
  /** `signal` is the command's: once it is aborted the command will not run, so there is nothing to wait for. */
  started(commandId: string, signal?: AbortSignal): Promise<void>;
  ended(commandId: string): Promise<RecordedChanges>;
}

/**
 * Runs `run` between the recorder's `started` and `ended`, and adds what the command changed to its result.
 * A recorder that fails costs the record, never the result: the command's outcome always comes back.
 * A command handed to the background is still running: its record is finished when it ends.
 */
export async function recordChanges(
  recorder: CommandRecorder | undefined,
  commandId: string,
  signal: AbortSignal | undefined,
  run: () => Promise<RunCommandResult>,
): Promise<RunCommandResult> {
  if (!recorder) return run();
  let startFailure: string | undefined;
  await recorder.started(commandId, signal).catch((error: unknown) => {
    startFailure = errorMessage(error);
  });
  const result = await run();
  if (result.details.status === "background") return result;
  const recorded: RecordedChanges = startFailure
    ? { changes: { recorded: false, reason: `Recording failed: ${startFailure}` } }
    : await recorder.ended(commandId).catch((error: unknown) => ({
        changes: { recorded: false, reason: `Recording failed: ${errorMessage(error)}` } as const,
      }));
  return withChanges(result, recorded);
}

/**
 * The result with what the command changed: on the card through `details`, to the model as a text block
 * of its own after the output (the card shows the output block only; the changes have their own place).
 */
function withChanges(result: RunCommandResult, recorded: RecordedChanges): RunCommandResult {
  return {
    ...result,
    content: recorded.note ? [...result.content, { type: "text", text: recorded.note }] : result.content,
    details: { ...result.details, changes: recorded.changes },
  };
}
