import type { KeyboardEvent } from "react";
import { useTestId } from "./card-scope";

/** One button of an approval card's action row. */
export interface ActionButton {
  /** What the button says. */
  label: string;
  /** The tooltip: what the button does, with its key where it has one. */
  hint?: string;
  /** What pressing it does. */
  onClick: () => void;
  /** Disabled beside the row's own `busy` (an edit that cannot be approved, a content not loaded). */
  disabled?: boolean;
  /** Set for a toggle (Edit opens and closes the command's form). */
  pressed?: boolean;
}

/**
 * The action row every approval card shares, in one order: Approve, Deny, the card's own way of changing
 * what it asks (Edit a command, Change a file's content), and "Always allow" when the host offers a rule.
 * The test ids are a contract the e2e specs use: approve-button, deny-button, `change.testId`,
 * always-allow-button.
 */
export function ApprovalActions({
  busy,
  approve,
  deny,
  change,
  always,
}: {
  busy: boolean;
  approve: ActionButton;
  deny: ActionButton;
  change: ActionButton & { testId: string };
  always?: ActionButton;
}) {
  const tid = useTestId();
  return (
    <div className="card-actions">
      <Action button={approve} busy={busy} testId={tid("approve-button")} className="primary" />
      <Action button={deny} busy={busy} testId={tid("deny-button")} className="danger" />
      <Action button={change} busy={busy} testId={tid(change.testId)} />
      {always && <Action button={always} busy={busy} testId={tid("always-allow-button")} />}
    </div>
  );
}

function Action({
  button,
  busy,
  testId,
  className,
}: {
  button: ActionButton;
  busy: boolean;
  testId: string;
  className?: string;
}) {
  return (
    <button
      type="button"
      className={className}
      onClick={button.onClick}
      disabled={busy || button.disabled === true}
      title={button.hint}
      aria-pressed={button.pressed}
      data-testid={testId}
    >
      {button.label}
    </button>
  );
}

/**
 * The keys of a waiting card, the same on every kind: Esc goes back from a form, or opens Deny; Enter on
 * the card itself (not in a form's field) approves while `canApprove`.
 */
export function approvalKeys({
  idle,
  canApprove,
  back,
  openDeny,
  approve,
}: {
  /** No form is open. */
  idle: boolean;
  /** Enter approves now (no form open, or the form is the one Approve sends). */
  canApprove: boolean;
  back: () => void;
  openDeny: () => void;
  approve: () => void;
}) {
  return (e: KeyboardEvent<HTMLElement>) => {
    if (e.defaultPrevented || e.nativeEvent.isComposing) return;
    if (e.key === "Escape") {
      e.preventDefault();
      if (idle) openDeny();
      else back();
    } else if (e.key === "Enter" && e.target === e.currentTarget && canApprove) {
      e.preventDefault();
      approve();
    }
  };
}
