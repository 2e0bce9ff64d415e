import { memo } from "react";
import type { FoundFiles } from "../../../../shared/host-state";
import { useT } from "../../i18n/i18n";

/**
 * The `@` menu above the composer: the chat folder's files and folders best matching what follows the `@`,
 * the file's name first and its folder after; the composer's keys move through it (arrows), pick (Enter,
 * Tab) and close it (Esc). Until the folder's first listing is done it says it is listing.
 */
export const FileMenu = memo(function FileMenu({
  found,
  failed,
  selected,
  onPick,
}: {
  found: FoundFiles | null;
  failed: string | null;
  selected: number;
  onPick: (path: string) => void;
}) {
  const t = useT();
  return (
    <div className="slash-menu file-menu" role="listbox" aria-label={t.chat.fileMenu} data-testid="file-menu">
      {failed && (
        <p className="error slash-none" role="alert">
          {t.chat.fileMenuFailed(failed)}
        </p>
      )}
      {!failed && !found && <p className="muted slash-none">{t.chat.fileMenuListing}</p>}
      {!failed && found?.paths.length === 0 && <p className="muted slash-none">{t.chat.fileMenuNone}</p>}
      {found?.paths.map((path, index) => {
        const cut = path.lastIndexOf("/", path.length - 2) + 1;
        return (
          <div
            key={path}
            role="option"
            tabIndex={-1}
            aria-selected={index === selected}
            className="slash-item"
            data-testid="file-item"
            data-path={path}
            // The textarea keeps the focus: a press picks without taking it.
            onMouseDown={(e) => {
              e.preventDefault();
              onPick(path);
            }}
          >
            <span className="slash-name">{path.slice(cut)}</span>
            <span className="muted slash-description">{path.slice(0, cut)}</span>
          </div>
        );
      })}
      {found?.capped && <p className="muted slash-none">{t.chat.fileMenuCapped(found.searched)}</p>}
    </div>
  );
});
