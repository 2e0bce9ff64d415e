import { type KeyboardEvent, memo, useContext, useRef, useState } from "react";
import type { McpCallView } from "../../../../shared/mcp";
import type { ChatApi } from "../../client/chat-api";
import type { Messages } from "../../i18n/en";
import { useT } from "../../i18n/i18n";
import { reasonOf } from "../../lib/format";
import { ChangesSection } from "../changes/ChangesSection";
import { ApprovalActions, approvalKeys } from "../commands/ApprovalActions";
import { CardPlaceContext, TrayChatContext, TrayChatName, useTestId } from "../commands/card-scope";
import { DenyForm } from "../commands/PendingForms";
import { useDecision } from "../commands/use-decision";
import { AlwaysAllowToolForm, type ToolRuleChoice, toolRule } from "./AlwaysAllowToolForm";
import { ArgumentsEditor, ArgumentsView } from "./McpArguments";
import { McpResultMedia } from "./McpResultMedia";
import { FromScriptNote, ScriptCallBody, ScriptEditor } from "./ScriptCall";

type Mode = "idle" | "deny" | "edit" | "always";

/**
 * One call to an MCP tool: the server and the tool, its description, the arguments, the server's own notes
 * (read-only, destructive, open-world) shown as its claims. While it waits: Approve (Enter), Deny (Esc)
 * with a reason the agent reads, Edit arguments (checked against the tool's schema by the host before
 * anything is sent), "Always allow" this tool or its server (a rule the person makes; a hint never does).
 * While it runs: Cancel. Then its result. Pi's codemode and tool_search (`piTool`) use the same card with
 * the script in full (Edit script) or the query in place of the arguments, and no "Always allow": each
 * script is new code, so no rule may approve the next one.
 */
export const McpCallCard = memo(function McpCallCard({ call, api }: { call: McpCallView; api: ChatApi }) {
  const t = useT();
  const tid = useTestId();
  const place = useContext(CardPlaceContext);
  const trayChat = useContext(TrayChatContext);
  const card = useRef<HTMLElement>(null);
  const [mode, setMode] = useState<Mode>("idle");
  const [reason, setReason] = useState("");
  const [cancelling, setCancelling] = useState(false);
  const [cancelError, setCancelError] = useState<string | null>(null);
  const [choice, setChoice] = useState<ToolRuleChoice>({ what: "tool", scope: "session" });
  const { busy, error, send } = useDecision(api, call.approvalId, t.mcp.decideFailed);
  const waiting = call.status === "pending" && call.approvalId !== undefined && !call.decidedBy;
  const script = call.piTool === "codemode";
  const label = call.piTool
    ? t.mcp[script ? "script" : "search"].cardLabel
    : t.mcp.cardLabel(call.server, call.tool);

  const approve = () => send({ kind: "approve" });
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
  const cancel = () => {
    setCancelling(true);
    setCancelError(null);
    api.cancelCommand({ commandId: call.id }).catch((e: unknown) => {
      setCancelError(t.mcp.cancelFailed(reasonOf(e)));
      setCancelling(false);
    });
  };

  return (
    <article
      ref={card}
      className={`command-card mcp-card command-card-${call.status === "done" ? "succeeded" : call.status}`}
      data-testid={place === "tray" ? "tray-item" : "tool-card"}
      data-chat-id={trayChat?.id}
      data-tool-call-id={call.id}
      data-server={call.piTool ? undefined : call.server}
      data-tool={call.tool}
      data-status={call.status}
      data-parent-tool-call-id={call.parentToolCallId}
      aria-label={label}
      tabIndex={waiting ? 0 : -1}
      onKeyDown={onKeyDown}
    >
      <header className="command-card-head">
        <TrayChatName />
        <span className={`status-badge status-${call.status === "done" ? "succeeded" : call.status}`}>
          {t.mcp.status[call.status]}
        </span>
        {call.piTool ? (
          <strong className="mcp-tool-name">{t.mcp[script ? "script" : "search"].title}</strong>
        ) : (
          <code className="mcp-tool-name">
            {call.server}/{call.tool}
          </code>
        )}
      </header>
      <FromScriptNote parent={call.parentToolCallId} />
      {call.description && <p className="mcp-description plain">{call.description}</p>}
      {call.hints.length > 0 && (
        <ul className="mcp-hints" title={t.mcp.hintsNote}>
          {call.hints.map((hint) => (
            <li
              key={hint}
              className={`mcp-hint mcp-hint-${hint}`}
              data-testid={tid("tool-hint")}
              data-hint={hint}
            >
              {t.mcp.hint[hint]}
            </li>
          ))}
        </ul>
      )}
      {call.why && waiting && (
        <p className="command-why plain">
          <strong>{t.mcp.why}: </strong>
          {call.why}
        </p>
      )}
      {mode === "edit" && waiting && script ? (
        <ScriptEditor
          initial={typeof call.arguments.code === "string" ? call.arguments.code : ""}
          busy={busy}
          onApply={(code) => send({ kind: "approve", arguments: { code } })}
          onBack={back}
        />
      ) : mode === "edit" && waiting ? (
        <ArgumentsEditor
          initial={call.arguments}
          busy={busy}
          onApply={(args) => send({ kind: "approve", arguments: args })}
          onBack={back}
        />
      ) : call.piTool ? (
        <ScriptCallBody call={call} />
      ) : (
        <ArgumentsView args={call.arguments} />
      )}
      {call.decidedBy === "rule" && call.rule && <p className="muted">{t.mcp.allowedBy(call.rule)}</p>}
      {call.editedByPerson && (
        <p className="muted">{script ? t.mcp.script.editedByPerson : t.mcp.editedByPerson}</p>
      )}
      {call.reason && call.status !== "done" && (
        <p className={call.status === "failed" ? "error" : "muted"} data-testid={tid("tool-reason")}>
          {call.reason}
        </p>
      )}
      {call.result !== undefined && (
        <details className="mcp-result" open={call.result.length < 2000}>
          <summary>{t.mcp.result}</summary>
          <pre className="mono" data-testid={tid("tool-result")}>
            {call.result}
          </pre>
        </details>
      )}
      {call.images && call.images.length > 0 && (
        <div className="mcp-images">
          {call.images.map((image, index) => (
            <img
              // biome-ignore lint/suspicious/noArrayIndexKey: a result's images have no ids, and never reorder.
              key={index}
              className="mcp-image"
              src={`data:${image.mimeType};base64,${image.data}`}
              alt={t.mcp.imageAlt(index + 1)}
              data-testid={tid("tool-image")}
            />
          ))}
        </div>
      )}
      <McpResultMedia call={call} />
      {call.changes && (
        <ChangesSection
          command={{
            id: call.id,
            changes: call.changes,
            reverts: call.reverts,
            changesDropped: call.changesDropped,
          }}
          api={api}
        />
      )}
      {waiting && mode === "deny" && (
        <DenyForm reason={reason} onReason={setReason} onDeny={deny} onBack={back} busy={busy} />
      )}
      {waiting && mode === "always" && (
        <AlwaysAllowToolForm
          server={call.server}
          tool={call.tool}
          choice={choice}
          onChoice={setChoice}
          onConfirm={() => send({ kind: "approve" }, toolRule(call.server, call.tool, choice))}
          onBack={back}
          busy={busy}
        />
      )}
      {waiting && mode === "idle" && (
        <ApprovalActions
          busy={busy}
          approve={{ label: t.mcp.approve, hint: t.mcp.approveHint, onClick: approve }}
          deny={{ label: t.mcp.deny, hint: t.mcp.denyHint, onClick: () => setMode("deny") }}
          change={{
            testId: "edit-arguments-button",
            label: script ? t.mcp.script.edit : t.mcp.editArguments,
            hint: script ? t.mcp.script.editHint : t.mcp.editArgumentsHint,
            onClick: () => setMode("edit"),
          }}
          {...(call.piTool ? {} : { always: { label: t.mcp.alwaysAllow, onClick: () => setMode("always") } })}
        />
      )}
      {call.status === "running" && (
        <div className="card-actions">
          <button
            type="button"
            className="danger"
            onClick={cancel}
            disabled={cancelling}
            data-testid={tid("cancel-button")}
          >
            {cancelling ? t.mcp.cancelling : t.mcp.cancel}
          </button>
        </div>
      )}
      {(error ?? cancelError) && (
        <p className="error" role="alert" data-testid={tid("decide-error")}>
          {error ?? cancelError}
        </p>
      )}
    </article>
  );
});

/** A call in one line (the transcript's pending line): `server/tool`, or Pi's own script or search by name. */
export function mcpCallTitle(t: Messages, call: Pick<McpCallView, "server" | "tool" | "piTool">): string {
  if (call.piTool) return t.mcp[call.piTool === "codemode" ? "script" : "search"].title;
  return `${call.server}/${call.tool}`;
}
