import type { RevertEntry } from "../../shared/changes";
import type {
  BackgroundState,
  CommandView,
  RunCommandDetails,
  RunCommandProgress,
} from "../../shared/commands";
import type { ChatEventBody } from "../../shared/host-events";
import { tailLines } from "../../shared/output-tail";

/** What a background command's end records of its whole output. */
export type EndedOutput = Pick<
  RunCommandDetails,
  "truncated" | "totalBytes" | "totalLines" | "fullOutputPath" | "fullOutputError" | "fullOutputCut"
> & { text: string };

/**
 * Every `run_command` call of a conversation as the UI shows it, from the agent's ask to its end (and on,
 * in the background). Part of the session's projection: tool events and the host's own knowledge go in,
 * `command-update` and `command-output` events come out. It does no I/O.
 */
export class CommandViews {
  /** The views by command id (the tool call id). */
  readonly byId = new Map<string, CommandView>();

  constructor(
    private readonly emit: (event: ChatEventBody) => void,
    private readonly cwd: string,
    private readonly maxTimeoutSeconds: number,
  ) {}

  /** The agent asked for a command: its view starts pending. */
  started(id: string, args: Record<string, unknown>, live: boolean, parentToolCallId?: string): void {
    const view: CommandView = {
      id,
      phase: "pending",
      command: typeof args.command === "string" ? args.command : "",
      cwd: this.cwd,
      timeoutSeconds: typeof args.timeout === "number" ? args.timeout : 0,
      maxTimeoutSeconds: this.maxTimeoutSeconds,
      parts: [],
      risks: [],
      output: "",
      totalBytes: 0,
      totalLines: 0,
      ...(parentToolCallId ? { parentToolCallId } : {}),
    };
    this.byId.set(id, view);
    if (live) this.emit({ type: "command-update", command: view });
  }

  /** A running command's live update: its first one makes it running, later ones carry output. */
  progress(id: string, details: RunCommandProgress | undefined, text: string): void {
    const command = this.byId.get(id);
    if (!command || details?.status !== "running") return;
    const totals = { output: text, totalBytes: details.totalBytes, totalLines: details.totalLines };
    if (command.phase !== "running") {
      const next: CommandView = {
        ...command,
        ...totals,
        phase: "running",
        command: details.command,
        timeoutSeconds: details.timeoutSeconds,
        startedAt: Date.now() - details.elapsedMs,
        ...(details.limitsLayer ? { limitsLayer: details.limitsLayer } : {}),
      };
      delete next.approvalId;
      this.byId.set(id, next);
      this.emit({ type: "command-update", command: next });
      return;
    }
    this.byId.set(id, { ...command, ...totals });
    this.emit({ type: "command-output", id, ...totals });
  }

  /** The tool returned: how the command ended, or that it went on in the background. */
  ended(id: string, details: RunCommandDetails | undefined, text: string, live: boolean): void {
    const command = this.byId.get(id);
    if (!command) return;
    const next: CommandView = details?.status
      ? {
          ...command,
          phase: details.status,
          command: details.command,
          timeoutSeconds: details.timeoutSeconds,
          details,
          // A background command's card keeps its live output; the result's text is the model's. Of a
          // saved output the page gets only what its card shows (the full-output view reads the file):
          // a reopened chat of hundreds of commands would otherwise carry every one whole.
          output:
            details.status === "background"
              ? command.output
              : details.fullOutputPath
                ? tailLines(text).text
                : text,
        }
      : // Pi ends a call this way when the turn stopped before the tool ran at all.
        { ...command, phase: "cancelled", output: text };
    delete next.approvalId;
    this.byId.set(id, next);
    if (live) this.emit({ type: "command-update", command: next });
  }

  /**
   * After reopening a stored conversation: a command without a result was cut short when the host stopped
   * (quit or crashed), so it no longer waits or runs and how it ended is not known; a background one was
   * ended on quit (or reaped at the next start after a crash). Say so rather than show them running.
   */
  settleStored(): void {
    for (const [id, command] of this.byId) {
      if (command.phase === "background") {
        const startedAt = command.startedAt ?? 0;
        const capSeconds = command.timeoutSeconds;
        this.byId.set(id, {
          ...command,
          background: { status: "stopped", stoppedBy: "quit", ports: [], capSeconds, startedAt },
        });
      }
      if (command.phase !== "pending" && command.phase !== "running") continue;
      const next: CommandView = { ...command, phase: "interrupted" };
      delete next.approvalId;
      this.byId.set(id, next);
    }
  }

  /** Replaces a command's view (a decision, the host's own knowledge) and tells the UI. */
  update(id: string, patch: Partial<CommandView>): CommandView | undefined {
    const current = this.byId.get(id);
    if (!current) return undefined;
    const next = { ...current, ...patch };
    this.byId.set(id, next);
    this.emit({ type: "command-update", command: next });
    return next;
  }

  /** Commands whose change records were dropped (or are gone): their cards stop offering undo. */
  changesDropped(ids: readonly string[], live: boolean): void {
    for (const id of ids) {
      const command = this.byId.get(id);
      if (!command || command.changesDropped) continue;
      if (live) this.update(id, { changesDropped: true });
      else this.byId.set(id, { ...command, changesDropped: true });
    }
  }

  /** An undo or restore stored in the conversation, shown again on its card when the chat is reopened. */
  addStoredRevert(id: string, entry: RevertEntry): void {
    const command = this.byId.get(id);
    if (command) this.byId.set(id, { ...command, reverts: [...(command.reverts ?? []), entry] });
  }

  /** A background command started, stopped, exited or opened a port. */
  backgroundChanged(id: string, background: BackgroundState): void {
    this.update(id, { background });
  }

  /**
   * A background command ended: its state, and the record of its whole output (where the full output was
   * saved, how much it printed), which only exists now that it ended.
   */
  backgroundEnded(id: string, background: BackgroundState, output: EndedOutput): void {
    const command = this.byId.get(id);
    if (!command?.details) return void this.backgroundChanged(id, background);
    const { text, truncated, totalBytes, totalLines, fullOutputPath, fullOutputError, fullOutputCut } =
      output;
    this.update(id, {
      background,
      output: text,
      totalBytes,
      totalLines,
      details: {
        ...command.details,
        truncated,
        totalBytes,
        totalLines,
        ...(fullOutputPath ? { fullOutputPath } : {}),
        ...(fullOutputError ? { fullOutputError } : {}),
        ...(fullOutputCut ? { fullOutputCut } : {}),
      },
    });
  }

  /** A background command printed more (the tool has returned, so Pi no longer reports it). */
  backgroundOutput(id: string, output: { text: string; totalBytes: number; totalLines: number }): void {
    const command = this.byId.get(id);
    if (!command) return;
    const totals = { output: output.text, totalBytes: output.totalBytes, totalLines: output.totalLines };
    this.byId.set(id, { ...command, ...totals });
    this.emit({ type: "command-output", id, ...totals });
  }
}
