import { formatSize } from "@earendil-works/pi-coding-agent";
import type { CommandStatus, LimitStop, RunCommandDetails } from "../../shared/commands";
import type { RefusalText } from "../../shared/host-text";
import type { ProcessOutcome } from "./process/process-runner";

/** A `run_command` result as Pi's agent loop takes it. */
export interface RunCommandResult {
  content: { type: "text"; text: string }[];
  details: RunCommandDetails;
  isError: boolean;
}

/** What is known of a command before it runs. */
export interface CommandFacts {
  command: string;
  edited: boolean;
  cwd: string;
  timeoutSeconds: number;
}

/** The result for a command that never ran: refused by the host, denied or cancelled while waiting. */
export function notRunResult(
  facts: CommandFacts,
  status: Extract<CommandStatus, "refused" | "denied" | "cancelled">,
  text: string,
  reason?: string,
  /** The reason as a kind and its parameters, for the page to word. */
  reasonSay?: RefusalText,
): RunCommandResult {
  return {
    content: [{ type: "text", text }],
    details: {
      ...facts,
      status,
      exitCode: null,
      timedOut: false,
      cancelled: status === "cancelled",
      durationMs: 0,
      truncated: false,
      totalBytes: 0,
      totalLines: 0,
      ...(reason ? { reason } : {}),
      ...(reason && reasonSay ? { reasonSay } : {}),
    },
    isError: true,
  };
}

/**
 * The result of a command that ran. The model's text is the tail of the output, then one status line in
 * the same words as Pi's built-in bash tool where both mean the same thing, so it never has to guess.
 */
export function ranResult(
  facts: CommandFacts,
  outcome: ProcessOutcome,
  extra: {
    /** The timeout the model asked for, when the host's cap lowered it. */
    asked?: number;
    /** What the model and the person should know about a failure (a sandbox limit it ran into). */
    hint?: string;
  },
): RunCommandResult {
  const status = statusOf(outcome);
  const { output } = outcome;
  const statusLine = {
    succeeded: undefined,
    failed: `Command exited with code ${outcome.exitCode}`,
    "timed-out":
      `Command timed out after ${facts.timeoutSeconds} seconds` +
      (extra.asked !== undefined ? ` (the host's cap; ${extra.asked} seconds were asked)` : ""),
    cancelled: "Command cancelled by the user",
    "spawn-error": `Could not start the command: ${outcome.spawnError}`,
    "limit-reached": outcome.limit ? describeLimitStop(outcome.limit, outcome.exitCode) : undefined,
  }[status];
  const hint = status === "failed" ? extra.hint : undefined;
  const parts = [output.text || (statusLine ? "" : "(no output)"), truncationNote(outcome), statusLine, hint];
  return {
    content: [{ type: "text", text: parts.filter(Boolean).join("\n\n") }],
    details: {
      ...facts,
      status,
      exitCode: outcome.exitCode,
      timedOut: outcome.timedOut,
      cancelled: outcome.cancelled,
      ...(status === "limit-reached" ? { limit: outcome.limit } : {}),
      ...(outcome.limitsLayer ? { limitsLayer: outcome.limitsLayer } : {}),
      durationMs: outcome.durationMs,
      truncated: output.truncated,
      totalBytes: output.totalBytes,
      totalLines: output.totalLines,
      ...(output.fullOutputPath ? { fullOutputPath: output.fullOutputPath } : {}),
      ...(output.fullOutputCut ? { fullOutputCut: output.fullOutputCut } : {}),
      ...(output.fullOutputError ? { fullOutputError: output.fullOutputError } : {}),
      ...(outcome.spawnError ? { reason: outcome.spawnError } : hint ? { reason: hint } : {}),
    },
    isError: status !== "succeeded",
  };
}

function statusOf(
  outcome: ProcessOutcome,
): Exclude<CommandStatus, "refused" | "denied" | "interrupted" | "background"> {
  if (outcome.spawnError) return "spawn-error";
  if (outcome.cancelled) return "cancelled";
  // The limit is why it ended, even when the timeout came first while it spun at its process limit.
  if (outcome.limit) return "limit-reached";
  if (outcome.timedOut) return "timed-out";
  return outcome.exitCode === 0 ? "succeeded" : "failed";
}

/** The model's one sentence for a command stopped by a resource limit, with its exit code where there is one. */
export function describeLimitStop(limit: LimitStop, exitCode: number | null): string {
  const code = exitCode === null ? "" : ` (exit code ${exitCode})`;
  if (limit.kind === "memory")
    return (
      `Command stopped at its memory limit: it used more than ${formatLimitBytes(limit.limit)}, so the system ` +
      `killed it${code}; ask the user to raise the limit in Settings, or run it so that it uses less memory.`
    );
  return (
    `Command stopped at its process limit: it reached ${limit.limit.toLocaleString("en-US")} processes and ` +
    `threads, so it was killed${code}; ask the user to raise the limit in Settings, or run it with fewer processes.`
  );
}

/** A memory limit in whole units where it is one ("4 GiB", "64 MiB"), else with one decimal. */
export function formatLimitBytes(bytes: number): string {
  for (const [unit, size] of [
    ["GiB", 1024 ** 3],
    ["MiB", 1024 ** 2],
  ] as const) {
    if (bytes >= size) {
      const value = bytes / size;
      return `${Number.isInteger(value) ? value : value.toFixed(1)} ${unit}`;
    }
  }
  return `${Math.round(bytes / 1024)} KiB`;
}

/** Tells the model how much it was not shown and where the rest is (Pi's bash tool says it the same way). */
function truncationNote({ output }: ProcessOutcome): string | undefined {
  if (!output.truncated) return undefined;
  const cut = output.fullOutputCut;
  const where = output.fullOutputPath
    ? `Full output: ${output.fullOutputPath}` +
      (cut
        ? ` (cut to the ${formatSize(cut.budgetBytes)} budget: its first and last parts, ${formatSize(cut.droppedBytes)} ` +
          `(${cut.droppedLines} lines) left out between them at a marker line)`
        : "")
    : (output.fullOutputError ?? "The full output could not be saved.");
  const first = output.totalLines - output.outputLines + 1;
  if (output.lastLinePartial) {
    return `[Showing the last ${formatSize(Buffer.byteLength(output.text))} of line ${output.totalLines}. ${where}]`;
  }
  return `[Showing lines ${first}-${output.totalLines} of ${output.totalLines} (${formatSize(output.totalBytes)} in all). ${where}]`;
}
