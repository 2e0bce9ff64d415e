import type { ChangesState } from "../../../../shared/changes";
import { useT } from "../../i18n/i18n";

/** The command at the end of the host's watch-limit message, shown apart so it can be copied whole. */
const FIX = /run: (.+?)(?: \(then [^)]*\))?\.?$/;

/**
 * Says that the workspace has more folders than inotify lets Pi Desk watch, so each command is
 * recorded by a full scan (slower), with the one-line fix. Nothing when the watcher covers the tree.
 */
export function WatchLimitNote({ changes }: { changes: ChangesState }) {
  const t = useT().changes;
  if (!changes.watchLimit) return null;
  const fix = FIX.exec(changes.watchLimit)?.[1];
  return (
    <div className="watch-limit" role="note" data-testid="changes-watch-limit">
      <p>
        <strong>{t.watchLimitHeading}</strong>
      </p>
      <p>{changes.watchLimit}</p>
      {fix && (
        <>
          <p className="muted">{t.watchLimitFix}</p>
          <pre>
            <code data-testid="changes-watch-limit-fix">{fix}</code>
          </pre>
        </>
      )}
    </div>
  );
}
