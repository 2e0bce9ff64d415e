import type { CommandView } from "../../../../shared/commands";
import { useT } from "../../i18n/i18n";

/**
 * What to look at twice before approving, compact: the first risky construct in words (the command text
 * marks them all), and folded beneath it the other notes and the parsed commands of the line, which are
 * there to check, not needed to decide. Notes are worded in the page's language from the host's kind and
 * parameters; a kind this page does not know shows the host's English sentence.
 */
export function RiskList({ command }: { command: CommandView }) {
  const t = useT();
  const [first, ...rest] = command.risks;
  const parts = command.parts.length > 1 ? command.parts : [];
  const folded = rest.length + (parts.length > 0 ? 1 : 0);
  if (!first && parts.length === 0) return null;
  const risk = (r: CommandView["risks"][number]) => (
    <li key={`${r.kind}-${r.start}-${r.end}`}>
      <code className="risk-chip">{r.text}</code> {(r.say && t.risk(r.say)) || r.note}
    </li>
  );
  return (
    <div className="command-risks">
      {first && (
        <>
          <strong>{t.command.risks}</strong>
          <ul>{risk(first)}</ul>
        </>
      )}
      {folded > 0 && (
        <details className="risk-more">
          <summary className="muted">{t.layout.moreDetails(folded)}</summary>
          {rest.length > 0 && <ul>{rest.map(risk)}</ul>}
          {parts.length > 0 && (
            <div className="command-parts">
              <span className="muted">{t.command.parts}: </span>
              {parts.map((part) => (
                <code key={`${part.start}-${part.end}`} className="part-chip">
                  {part.text}
                </code>
              ))}
            </div>
          )}
        </details>
      )}
    </div>
  );
}
