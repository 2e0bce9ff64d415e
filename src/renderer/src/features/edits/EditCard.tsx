import { type KeyboardEvent, memo, useContext, useRef, useState } from "react";
import type { EditView } from "../../../../shared/edits";
import type { RuleScope } from "../../../../shared/rules";
import type { ChatApi } from "../../client/chat-api";
import { useT } from "../../i18n/i18n";
import { ChangesSection } from "../changes/ChangesSection";
import { ApprovalActions, approvalKeys } from "../commands/ApprovalActions";
import { CardPlaceContext, TrayChatContext, TrayChatName, useTestId } from "../commands/card-scope";
import { DenyForm } from "../commands/PendingForms";
import { useDecision } from "../commands/use-decision";
import { FromScriptNote } from "../mcp/ScriptCall";
import { AlwaysAllowEditForm, type EditRuleChoice, editRule } from "./AlwaysAllowEditForm";
import { EditDiff } from "./EditDiff";

type Mode = "idle" | "deny" | "change" | "always";

/**
 * One `edit` or `write` call: the file, what it does to it, and its diff. While it waits: Approve (Enter on
 * the card), Deny (Esc) with a reason the agent reads, Change (the whole proposed content in an editor; the
 * person's version is written instead) and "Always allow" for this file or every edit. Once applied: what it
 * changed, with Undo, as a command's card.
 */
export const EditCard = memo(function EditCard({ edit, api }: { edit: EditView; api: ChatApi }) {
  const t = useT();
  const tid = useTestId();
  const place = useContext(CardPlaceContext);
  const card = useRef<HTMLElement>(null);
  const [mode, setMode] = useState<Mode>("idle");
  const [reason, setReason] = useState("");
  const [content, setContent] = useState<string | undefined>(undefined);
  const [choice, setChoice] = useState<EditRuleChoice>({ what: "file", scope: "session" as RuleScope });
  const { busy, error, send } = useDecision(api, edit.approvalId, t.edits.decideFailed);
  const waiting = edit.status === "pending" && edit.approvalId !== undefined && !edit.decidedBy;

  const approve = () => {
    if (mode === "change" && content !== undefined && content !== edit.proposed) {
      return send({ kind: "approve", content });
    }
    send({ kind: "approve" });
  };
  const deny = () => {
    const text = reason.trim();
    send(text ? { kind: "deny", reason: text } : { kind: "deny" });
  };
  const back = () => {
    setMode("idle");
    card.current?.focus();
  };
  const keys = approvalKeys({
    idle: mode === "idle",
    canApprove: mode === "idle",
    back,
    openDeny: () => setMode("deny"),
    approve,
  });
  const onKeyDown = (e: KeyboardEvent<HTMLElement>) => {
    if (waiting) keys(e);
  };

  const trayChat = useContext(TrayChatContext);
  // A changed line counts once, as removed and added.
  const lines = edit.diff ? Math.max(edit.diff.added, edit.diff.removed) : 0;
  return (
    <article
      ref={card}
      className={`command-card edit-card command-card-${edit.status === "applied" ? "succeeded" : edit.status}`}
      data-testid={place === "tray" ? "tray-item" : "edit-card"}
      data-chat-id={trayChat?.id}
      data-edit-id={edit.id}
      data-tool={edit.tool}
      data-path={edit.path}
      data-status={edit.status}
      data-parent-tool-call-id={edit.parentToolCallId}
      aria-label={t.edits.cardLabel(edit.path)}
      tabIndex={waiting ? 0 : -1}
      onKeyDown={onKeyDown}
    >
      <header className="command-card-head">
        <TrayChatName />
        <span className={`status-badge status-${edit.status === "applied" ? "succeeded" : edit.status}`}>
          {t.edits.status[edit.status]}
        </span>
        <span className="edit-tool">{t.edits.tool[edit.tool]}</span>
        <code className="edit-path">{edit.path}</code>
        {edit.shape && (
          <span className="muted edit-shape">
            {edit.shape === "change" ? t.edits.shape.change(lines) : t.edits.shape[edit.shape]}
          </span>
        )}
        {edit.diff && (
          <span className="edit-counts">{t.edits.counts(edit.diff.added, edit.diff.removed)}</span>
        )}
      </header>
      <FromScriptNote parent={edit.parentToolCallId} />
      {edit.why && waiting && (
        <p className="command-why plain">
          <strong>{t.edits.why}: </strong>
          {edit.why}
        </p>
      )}
      {edit.status === "pending" && !edit.diff && (
        <p className="muted" data-testid={tid("edit-waiting")}>
          {t.edits.preparing}
        </p>
      )}
      {mode === "change" && waiting ? (
        <ChangeEditor
          path={edit.path}
          value={content ?? edit.proposed ?? ""}
          onChange={setContent}
          onApply={approve}
          onBack={back}
          busy={busy}
        />
      ) : (
        edit.diff && <EditDiff diff={edit.diff} testId={tid("edit-diff")} path={edit.path} />
      )}
      {edit.decidedBy === "rule" && edit.rule && <p className="muted">{t.edits.allowedBy(edit.rule)}</p>}
      {edit.changedByPerson && <p className="muted">{t.edits.changedByPerson}</p>}
      {edit.reason && edit.status !== "applied" && (
        <p className={edit.status === "failed" ? "error" : "muted"} data-testid={tid("edit-error")}>
          {(edit.reasonSay && t.editRefusal(edit.reasonSay)) || edit.reason}
        </p>
      )}
      {edit.status === "applied" && (
        <ChangesSection
          command={{
            id: edit.id,
            changes: edit.changes,
            reverts: edit.reverts,
            changesDropped: edit.changesDropped,
          }}
          api={api}
        />
      )}
      {waiting && mode === "deny" && (
        <DenyForm reason={reason} onReason={setReason} onDeny={deny} onBack={back} busy={busy} />
      )}
      {waiting && mode === "always" && edit.ruleOffer && (
        <AlwaysAllowEditForm
          path={edit.ruleOffer.path}
          choice={choice}
          onChoice={setChoice}
          onConfirm={() => send({ kind: "approve" }, editRule(edit.ruleOffer?.path ?? edit.path, choice))}
          onBack={back}
          busy={busy}
        />
      )}
      {waiting && mode === "idle" && (
        <ApprovalActions
          busy={busy}
          approve={{ label: t.edits.approve, hint: t.edits.approveHint, onClick: approve }}
          deny={{ label: t.edits.deny, hint: t.edits.denyHint, onClick: () => setMode("deny") }}
          change={{
            testId: "change-button",
            label: t.edits.change,
            hint: t.edits.changeHint,
            onClick: () => setMode("change"),
            disabled: edit.proposed === undefined,
          }}
          always={
            edit.ruleOffer ? { label: t.edits.alwaysAllow, onClick: () => setMode("always") } : undefined
          }
        />
      )}
      {error && (
        <p className="error" role="alert" data-testid={tid("decide-error")}>
          {error}
        </p>
      )}
    </article>
  );
});

/**
 * The whole proposed content in a plain text box: fast for a 5,000-line file (no editor component to load),
 * and what the person saves is what is written.
 */
function ChangeEditor({
  path,
  value,
  onChange,
  onApply,
  onBack,
  busy,
}: {
  path: string;
  value: string;
  onChange: (value: string) => void;
  onApply: () => void;
  onBack: () => void;
  busy: boolean;
}) {
  const t = useT();
  const tid = useTestId();
  return (
    <div className="card-form">
      <label>
        {t.edits.changeLabel(path)}
        <textarea
          className="mono edit-content"
          value={value}
          onChange={(e) => onChange(e.target.value)}
          spellCheck={false}
          rows={Math.min(30, Math.max(6, value.split("\n").length + 1))}
          data-testid={tid("edit-content")}
          // biome-ignore lint/a11y/noAutofocus: opened on purpose by the person's Change; they type at once.
          autoFocus
        />
      </label>
      <div className="card-actions">
        <button
          type="button"
          className="primary"
          onClick={onApply}
          disabled={busy}
          data-testid={tid("change-apply-button")}
        >
          {t.edits.changeApply}
        </button>
        <button type="button" onClick={onBack}>
          {t.edits.changeBack}
        </button>
      </div>
    </div>
  );
}
