import { memo } from "react";
import type { SlashCommand } from "../../../../shared/host-state";
import { useT } from "../../i18n/i18n";

/** The commands whose name starts with what was typed after the slash, then those that hold it elsewhere. */
export function matchingCommands(commands: readonly SlashCommand[], typed: string): SlashCommand[] {
  const query = typed.toLowerCase();
  const starts = commands.filter((command) => command.name.toLowerCase().startsWith(query));
  const holds = commands.filter(
    (command) => !starts.includes(command) && command.name.toLowerCase().includes(query),
  );
  return [...starts, ...holds];
}

/**
 * The `/` menu above the composer: Pi's templates and skills and Pi Desk's own commands, filtered as the
 * person types; the composer's keys move through it (arrows), pick (Enter, Tab) and close it (Esc).
 */
export const SlashMenu = memo(function SlashMenu({
  commands,
  selected,
  onPick,
  projectSkipped,
}: {
  commands: SlashCommand[];
  selected: number;
  onPick: (command: SlashCommand) => void;
  /** The project's folders of templates and skills left out (not trusted in Pi). */
  projectSkipped?: string[] | undefined;
}) {
  const t = useT();
  return (
    <div className="slash-menu" role="listbox" aria-label={t.chat.slashMenu} data-testid="slash-menu">
      {commands.length === 0 && <p className="muted slash-none">{t.chat.slashNone}</p>}
      {projectSkipped && projectSkipped.length > 0 && (
        <p className="muted slash-none" data-testid="slash-project-skipped" title={projectSkipped.join("\n")}>
          {t.chat.slashProjectSkipped}
        </p>
      )}
      {commands.map((command, index) => (
        <div
          key={command.name}
          role="option"
          tabIndex={-1}
          aria-selected={index === selected}
          className="slash-item"
          data-testid="slash-item"
          data-name={command.name}
          // The textarea keeps the focus: a press picks without taking it.
          onMouseDown={(e) => {
            e.preventDefault();
            onPick(command);
          }}
        >
          <span className="slash-name">
            /{command.name}
            {command.argumentHint && <span className="muted"> {command.argumentHint}</span>}
          </span>
          <span className="muted slash-description">{command.description}</span>
          <span className="muted slash-kind">{t.chat.slashKind[command.kind]}</span>
        </div>
      ))}
    </div>
  );
});
