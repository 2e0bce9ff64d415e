import { type KeyboardEvent, type ReactNode, type Ref, useContext } from "react";
import type { CommandView } from "../../../../shared/commands";
import { useT } from "../../i18n/i18n";
import { CommandText } from "./CommandText";
import { CardPlaceContext, TrayChatContext, TrayChatName, useTestId } from "./card-scope";
import { cardStatus } from "./command-status";

/** The status badge of a card. */
export function StatusBadge({ command }: { command: CommandView }) {
  const t = useT();
  const status = cardStatus(command.phase);
  return <span className={`status-badge status-${status}`}>{t.command.status[status]}</span>;
}

/**
 * The outside of every command card: its hooks (`data-command-id`, `data-status`), the status, the exact
 * command, where it runs and its timeout. The phase's own part goes in `children`.
 */
export function CardFrame({
  command,
  children,
  detail,
  onKeyDown,
  ref,
}: {
  command: CommandView;
  children: ReactNode;
  detail?: ReactNode;
  onKeyDown?: (e: KeyboardEvent<HTMLElement>) => void;
  ref?: Ref<HTMLElement>;
}) {
  const t = useT();
  const tid = useTestId();
  const place = useContext(CardPlaceContext);
  const status = cardStatus(command.phase);
  const trayChat = useContext(TrayChatContext);
  return (
    <article
      ref={ref}
      className={`command-card command-card-${status}`}
      data-testid={place === "tray" ? "tray-item" : "command-card"}
      data-chat-id={trayChat?.id}
      data-command-id={command.id}
      data-status={status}
      data-parent-tool-call-id={command.parentToolCallId}
      aria-label={t.command.cardLabel(command.command)}
      // Focusable so Enter approves and Esc denies from the card itself.
      tabIndex={status === "pending" ? 0 : -1}
      onKeyDown={onKeyDown}
    >
      <header className="command-card-head">
        <TrayChatName />
        <StatusBadge command={command} />
        {detail}
      </header>
      {command.parentToolCallId && (
        <p
          className="muted from-script"
          data-testid={tid("from-script")}
          data-parent-tool-call-id={command.parentToolCallId}
        >
          {t.mcp.script.fromScript(command.parentToolCallId)}
        </p>
      )}
      <CommandText
        command={command.command}
        parts={command.parts}
        risks={command.risks}
        testId={tid("command-text")}
      />
      <dl className="command-meta">
        <div>
          <dt>{t.command.cwd}</dt>
          <dd className="mono">{command.cwd}</dd>
        </div>
        {/* Zero until the host has applied its default and cap to what the agent asked. */}
        {command.timeoutSeconds > 0 && (
          <div>
            <dt>{t.command.timeout}</dt>
            <dd>{t.command.seconds(command.timeoutSeconds)}</dd>
          </div>
        )}
        {command.sandbox && (
          <div>
            <dt>{t.command.sandbox}</dt>
            <dd data-testid={tid("command-sandbox")}>
              {!command.sandbox.enabled
                ? t.command.sandboxOff
                : command.sandbox.network
                  ? t.command.sandboxOnNetwork
                  : t.command.sandboxOn}
              {command.sandbox.localServices && (
                <span className="muted" data-testid={tid("sandbox-local-services")}>
                  {" "}
                  {t.command.localServices}
                </span>
              )}
            </dd>
          </div>
        )}
      </dl>
      {command.why && (
        <p className="command-why plain">
          <strong>{t.command.why}: </strong>
          {command.why}
        </p>
      )}
      {children}
    </article>
  );
}
