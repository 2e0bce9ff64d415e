import { useRef, useState } from "react";
import type { ApprovalDecision, CommandView } from "../../../../shared/commands";
import type { RuleDraft } from "../../../../shared/rules";
import type { ChatApi } from "../../client/chat-api";
import type { Messages } from "../../i18n/en";
import { useT } from "../../i18n/i18n";
import { formatCap } from "../background/format-cap";
import { WritePreview } from "../edits/WritePreview";
import { ApprovalActions, approvalKeys } from "./ApprovalActions";
import { CardFrame } from "./CardFrame";
import { useTestId } from "./card-scope";
import { initialNetwork, NetworkChoice, networkDecision } from "./NetworkChoice";
import { AlwaysAllowForm, DenyForm, EditForm, type RuleChoice } from "./PendingForms";
import { RiskList } from "./RiskList";
import { RuleNotApplied } from "./RuleNotApplied";
import { useDecision } from "./use-decision";

type Mode = "idle" | "deny" | "edit" | "always";

/** Why an edit cannot be approved, or null when it can. */
export function editProblem(t: Messages, command: string, timeout: string, max: number): string | null {
  if (command.trim() === "") return t.command.editEmpty;
  const seconds = Number(timeout);
  if (timeout.trim() === "" || !Number.isInteger(seconds) || seconds < 1 || seconds > max) {
    return t.command.editTimeoutRange(max);
  }
  return null;
}

/**
 * A command waiting for the person: the command and what to look at twice, then Approve (Enter on the
 * card), Deny (Esc) with an optional reason, Edit the command or timeout, and "Always allow" when the host
 * offers a rule. Every answer goes through `decide` with the approval id the host issued.
 */
export function PendingCard({ command, api }: { command: CommandView; api: ChatApi }) {
  const t = useT();
  const tid = useTestId();
  const card = useRef<HTMLElement>(null);
  const [mode, setMode] = useState<Mode>("idle");
  const { busy, error, send } = useDecision(api, command.approvalId, t.command.decideFailed);
  const [reason, setReason] = useState("");
  const [draft, setDraft] = useState({ command: command.command, timeout: String(command.timeoutSeconds) });
  const [choice, setChoice] = useState<RuleChoice>({ pattern: -1, scope: "session" });
  const [network, setNetwork] = useState(() => initialNetwork(command));
  const [background, setBackground] = useState(command.runInBackground === true);
  const { approvalId, ruleOffer } = command;
  const problem =
    mode === "edit" ? editProblem(t, draft.command, draft.timeout, command.maxTimeoutSeconds) : null;

  /** The person's choices beside the command itself: the network, the background. */
  const choices = (decision: Extract<ApprovalDecision, { kind: "approve" }>) => {
    const chosen = networkDecision(command, network);
    if (chosen !== undefined) decision.network = chosen;
    if (background !== (command.runInBackground === true)) decision.background = background;
    return decision;
  };
  const approve = () => {
    if (problem) return;
    const decision = choices({ kind: "approve" });
    if (mode !== "edit") return send(decision);
    if (draft.command !== command.command) decision.command = draft.command;
    const seconds = Number(draft.timeout);
    if (seconds !== command.timeoutSeconds) decision.timeoutSeconds = seconds;
    send(decision);
  };
  const deny = () => {
    const text = reason.trim();
    send(text ? { kind: "deny", reason: text } : { kind: "deny" });
  };
  const alwaysAllow = () => {
    if (!ruleOffer) return;
    const prefix = ruleOffer.prefixes[choice.pattern];
    const rule: RuleDraft =
      prefix === undefined
        ? { effect: "allow", match: "exact", pattern: ruleOffer.exact, scope: choice.scope }
        : { effect: "allow", match: "prefix", pattern: prefix, scope: choice.scope };
    send(choices({ kind: "approve" }), rule);
  };
  const back = () => {
    setMode("idle");
    card.current?.focus();
  };

  const onKeyDown = approvalKeys({
    idle: mode === "idle",
    canApprove: mode === "idle" || mode === "edit",
    back,
    openDeny: () => setMode("deny"),
    approve,
  });

  if (!approvalId || command.decidedBy) {
    return (
      <CardFrame command={command}>
        <p className="muted" data-testid={tid("command-waiting")}>
          {command.decidedBy ? t.command.answered : t.command.checking}
        </p>
      </CardFrame>
    );
  }
  return (
    <CardFrame command={command} ref={card} onKeyDown={onKeyDown}>
      <RiskList command={command} />
      {command.writePreview && <WritePreview preview={command.writePreview} />}
      <RuleNotApplied command={command} />
      {mode === "edit" && (
        <EditForm
          command={draft.command}
          timeout={draft.timeout}
          maxTimeoutSeconds={command.maxTimeoutSeconds}
          problem={problem}
          onChange={setDraft}
        />
      )}
      {mode === "deny" && (
        <DenyForm reason={reason} onReason={setReason} onDeny={deny} onBack={back} busy={busy} />
      )}
      {mode === "always" && ruleOffer && (
        <AlwaysAllowForm
          offer={ruleOffer}
          choice={choice}
          onChoice={setChoice}
          onConfirm={alwaysAllow}
          onBack={back}
          busy={busy}
        />
      )}
      {(mode === "idle" || mode === "edit") && (
        <NetworkChoice command={command} api={api} draft={network} onDraft={setNetwork} />
      )}
      {(mode === "idle" || mode === "edit") && (
        <>
          <label className="choice">
            <input
              type="checkbox"
              checked={background}
              onChange={(e) => setBackground(e.target.checked)}
              data-testid={tid("background-toggle")}
            />
            {t.background.toggle}
          </label>
          {background && command.backgroundCapSeconds !== undefined && (
            <p className="muted choice-note">
              {t.background.explain(formatCap(t, command.backgroundCapSeconds))}
            </p>
          )}
        </>
      )}
      {(mode === "idle" || mode === "edit") && (
        <ApprovalActions
          busy={busy}
          approve={{
            label: mode === "edit" ? t.command.runEdited : t.command.approve,
            hint: t.command.approveHint,
            onClick: approve,
            disabled: problem !== null,
          }}
          deny={{ label: t.command.deny, hint: t.command.denyHint, onClick: () => setMode("deny") }}
          change={{
            testId: "edit-button",
            label: mode === "edit" ? t.command.editDone : t.command.edit,
            onClick: () => (mode === "edit" ? back() : setMode("edit")),
            pressed: mode === "edit",
          }}
          always={
            ruleOffer && mode === "idle"
              ? { label: t.command.alwaysAllow, onClick: () => setMode("always") }
              : undefined
          }
        />
      )}
      {error && (
        <p className="error" role="alert" data-testid={tid("decide-error")}>
          {error}
        </p>
      )}
    </CardFrame>
  );
}
