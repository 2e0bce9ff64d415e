import type { ChangesState } from "../../../../shared/changes";
import { useT } from "../../i18n/i18n";

/**
 * How far the first snapshot of the workspace has come (files scanned of the total), while it is taken:
 * on a big repository it takes minutes, and commands run meanwhile go unrecorded, so the person sees
 * both. Nothing once recording is on or off.
 */
export function SnapshotProgress({ changes }: { changes: ChangesState }) {
  const t = useT().changes;
  if (changes.state.type !== "preparing") return null;
  const progress = changes.progress;
  const counting = !progress || progress.total === 0;
  return (
    <div
      className="snapshot-progress"
      data-testid="changes-progress"
      data-scanned={progress?.scanned ?? 0}
      data-total={progress?.total ?? 0}
    >
      <p>{counting ? t.progressCounting : t.progress(progress.scanned, progress.total)}</p>
      {/* No value while counting: an indeterminate bar. */}
      <progress
        aria-label={t.progressLabel}
        max={counting ? undefined : progress.total}
        value={counting ? undefined : progress.scanned}
      />
      <p className="muted">{t.progressNote}</p>
    </div>
  );
}
