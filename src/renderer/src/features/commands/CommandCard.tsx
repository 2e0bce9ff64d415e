import { memo, useCallback, useState } from "react";
import type { CommandView } from "../../../../shared/commands";
import type { ChatApi } from "../../client/chat-api";
import { useT } from "../../i18n/i18n";
import { formatBytes, formatClock, formatDuration, reasonOf } from "../../lib/format";
import { useAction } from "../../lib/use-action";
import { useNow } from "../../lib/use-now";
import { BackgroundState } from "../background/BackgroundState";
import { useOpenRunningPanel } from "../background/running-panel";
import { StopButton } from "../background/StopButton";
import { ChangesSection } from "../changes/ChangesSection";
import type { ChangeRecordView } from "../changes/change-record";
import { CardFrame } from "./CardFrame";
import { CommandOutput, CommandOutputPlaceholder } from "./CommandOutput";
import { type CardPlace, CardPlaceContext, useTestId } from "./card-scope";
import { cardStatus } from "./command-status";
import { FullOutputDialog } from "./FullOutputDialog";
import { HostsSeen } from "./HostsSeen";
import { LimitStopNote } from "./LimitStopNote";
import { LimitsLayerNote } from "./LimitsLayerNote";
import { PendingCard } from "./PendingCard";
import { useCommandOutput } from "./use-command-output";

/** One `run_command` call, drawn for where it is in its life: waiting, running, or ended. */
export const CommandCard = memo(function CommandCard({
  command,
  api,
  place = "transcript",
}: {
  command: CommandView;
  api: ChatApi;
  place?: CardPlace;
}) {
  const status = cardStatus(command.phase);
  return (
    <CardPlaceContext.Provider value={place}>
      {status === "pending" ? (
        // Keyed by approval id: a new question about the same command starts with a fresh form.
        <PendingCard key={command.approvalId ?? "checking"} command={command} api={api} />
      ) : status === "running" ? (
        <RunningCard command={command} api={api} />
      ) : status === "background" ? (
        <BackgroundCard command={command} api={api} />
      ) : (
        <FinishedCard command={command} api={api} />
      )}
    </CardPlaceContext.Provider>
  );
});

/**
 * The dialog with a command's whole output: read from the host's saved file when there is one, else
 * the output the card holds (more than the card shows, but not trimmed by the host).
 */
function useFullOutput(api: ChatApi, command: CommandView, output = command.output) {
  const [open, setOpen] = useState(false);
  const show = useCallback(() => setOpen(true), []);
  const saved = command.details?.fullOutputPath !== undefined;
  const dialog = open ? (
    <FullOutputDialog
      api={api}
      commandId={command.id}
      text={saved ? undefined : output}
      onClose={() => setOpen(false)}
    />
  ) : null;
  return { show, dialog };
}

/** A running command: elapsed time, the countdown to its timeout, its live output, and Cancel. */
function RunningCard({ command, api }: { command: CommandView; api: ChatApi }) {
  const t = useT();
  const tid = useTestId();
  const now = useNow();
  const [cancelling, setCancelling] = useState(false);
  const keep = useAction();
  const [error, setError] = useState<string | null>(null);
  const started = command.startedAt ?? now;
  const elapsed = Math.max(0, now - started);
  const left = Math.max(0, command.timeoutSeconds * 1000 - elapsed);
  const cancel = () => {
    setCancelling(true);
    setError(null);
    api.cancelCommand({ commandId: command.id }).catch((e: unknown) => {
      setError(t.command.cancelFailed(reasonOf(e)));
      setCancelling(false);
    });
  };
  return (
    <CardFrame
      command={command}
      detail={
        <span className="command-clock">
          <span data-testid={tid("elapsed")}>{t.command.elapsed(formatClock(elapsed))}</span>
          {" · "}
          <span data-testid={tid("countdown")} className={left < 10_000 ? "countdown-soon" : undefined}>
            {t.command.countdown(formatClock(left))}
          </span>
        </span>
      }
    >
      <Decider command={command} />
      <LimitsLayerNote layer={command.limitsLayer} />
      {/* The full output is saved once the command ends; until then the card holds the tail. */}
      <CommandOutput output={command.output} totalLines={command.totalLines} />
      <HostsSeen command={command} api={api} />
      <div className="card-actions">
        <button
          type="button"
          className="danger"
          onClick={cancel}
          disabled={cancelling}
          data-testid={tid("cancel-button")}
        >
          {cancelling ? t.command.cancelling : t.command.cancel}
        </button>
        <button
          type="button"
          onClick={() =>
            void keep.run(() => api.keepRunning({ commandId: command.id }), t.background.keepRunningFailed)
          }
          disabled={cancelling || keep.busy}
          title={t.background.keepRunningHint}
          data-testid={tid("keep-running-button")}
        >
          {t.background.keepRunning}
        </button>
      </div>
      {keep.error && (
        <p className="error" role="alert">
          {keep.error}
        </p>
      )}
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
    </CardFrame>
  );
}

/**
 * A command that went on after the tool returned, compact: its state and ports, Stop, and what it changed.
 * Its live output is shown in full in the Running panel (where servers are watched side by side, and which
 * stays in view while the chat scrolls); here it folds, so a long-running server does not grow the chat.
 */
function BackgroundCard({ command, api }: { command: CommandView; api: ChatApi }) {
  const t = useT();
  const tid = useTestId();
  const openPanel = useOpenRunningPanel();
  // Its full output is saved once it ended.
  const full = useFullOutput(api, command);
  return (
    <CardFrame command={command}>
      <Decider command={command} />
      <BackgroundState command={command} />
      <LimitsLayerNote layer={command.details?.limitsLayer ?? command.limitsLayer} />
      <details className="command-output-details">
        <summary>{t.command.output}</summary>
        <CommandOutput
          output={command.output}
          totalLines={command.totalLines}
          onOpenFull={command.details?.fullOutputPath ? full.show : undefined}
        />
      </details>
      {full.dialog}
      <div className="card-actions">
        {command.background?.status === "running" && (
          <StopButton api={api} commandId={command.id} testId={tid("stop-button")} />
        )}
        {openPanel && (
          <button type="button" className="small" onClick={openPanel}>
            {t.layout.showInPanel}
          </button>
        )}
      </div>
      <HostsSeen command={command} api={api} />
      <ChangesSection command={changeRecordOf(command)} api={api} />
    </CardFrame>
  );
}

/** Who let the command run, when it ran: the person, or a rule by name. */
function Decider({ command }: { command: CommandView }) {
  const t = useT();
  if (command.decidedBy === "rule" && command.rule) {
    return <p className="muted command-decider">{t.command.decidedByRule(command.rule)}</p>;
  }
  return null;
}

/** An ended command: how it ended, its exit code and duration, why when it did not run, and its output. */
function FinishedCard({ command, api }: { command: CommandView; api: ChatApi }) {
  const t = useT();
  const tid = useTestId();
  const shown = useCommandOutput(api, command);
  const full = useFullOutput(api, command, shown.kind === "ready" ? shown.output : "");
  const details = command.details;
  const status = cardStatus(command.phase);
  const exitCode = details?.exitCode ?? null;
  const ran = (details?.durationMs ?? 0) > 0 || command.startedAt !== undefined;
  const hasOutput =
    command.output !== "" || command.deferredOutput !== undefined || (details?.totalBytes ?? 0) > 0;
  const totalLines = details?.totalLines ?? command.totalLines;
  const limitsLayer = details?.limitsLayer ?? command.limitsLayer;
  return (
    <CardFrame
      command={command}
      detail={
        <span className="command-summary">
          {exitCode !== null && (
            <span className="exit-code" data-testid={tid("exit-code")}>
              {t.command.exitCode(exitCode)}
            </span>
          )}
          {details && ran && <span>{t.command.duration(formatDuration(details.durationMs))}</span>}
          {details?.edited && <span className="tag">{t.command.edited}</span>}
          {details?.truncated && <span className="tag">{t.command.trimmed}</span>}
        </span>
      }
    >
      <Decider command={command} />
      {status === "interrupted" && <p data-testid={tid("command-reason")}>{t.command.interruptedHint}</p>}
      {details?.limit && <LimitStopNote limit={details.limit} />}
      {ran && <LimitsLayerNote layer={limitsLayer} />}
      {details?.reason && (
        <p
          className={status === "refused" || status === "failed" ? "error" : undefined}
          data-testid={tid("command-reason")}
        >
          <strong>{t.command.reason}: </strong>
          {(details.reasonSay && t.refusal(details.reasonSay)) || details.reason}
        </p>
      )}
      {details?.truncated && details.fullOutputPath && (
        <p className="command-trimmed">
          {t.command.trimmedHint}{" "}
          <button
            type="button"
            className="link mono"
            onClick={full.show}
            data-testid={tid("full-output-link")}
          >
            {details.fullOutputPath}
          </button>
          {details.fullOutputCut && (
            <span data-testid={tid("full-output-cut")}>
              {" "}
              {t.command.fullOutputCut(
                formatBytes(details.fullOutputCut.budgetBytes),
                formatBytes(details.fullOutputCut.droppedBytes),
                details.fullOutputCut.droppedLines.toLocaleString(),
              )}
            </span>
          )}
        </p>
      )}
      {details?.fullOutputError && (
        <p className="error">{t.command.fullOutputError(details.fullOutputError)}</p>
      )}
      {hasOutput && (
        <details className="command-output-details" open>
          <summary>
            {t.command.output}
            {details ? ` (${t.command.lines(details.totalLines)})` : ""}
          </summary>
          {shown.kind === "ready" ? (
            <CommandOutput
              output={shown.output}
              totalLines={totalLines}
              onOpenFull={full.show}
              // Fetched as the transcript draws the card (a reopened chat scrolled through): drawn in part first.
              lazy={command.deferredOutput !== undefined}
            />
          ) : (
            <CommandOutputPlaceholder
              lines={shown.lines}
              totalLines={totalLines}
              failed={shown.kind === "failed" ? shown.reason : undefined}
            />
          )}
        </details>
      )}
      {full.dialog}
      <HostsSeen command={command} api={api} />
      <ChangesSection command={changeRecordOf(command)} api={api} />
    </CardFrame>
  );
}

/** What the changes section reads of a command's card. */
function changeRecordOf(command: CommandView): ChangeRecordView {
  const { id, reverts, changesDropped } = command;
  return { id, changes: command.details?.changes, reverts, changesDropped };
}
