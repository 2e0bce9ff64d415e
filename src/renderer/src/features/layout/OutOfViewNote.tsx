import { useT } from "../../i18n/i18n";
import type { OutOfView } from "./use-out-of-view";

/** "2 more below" for a scroll area whose entries do not all fit; nothing when all are in view. */
export function OutOfViewNote({ count, testId }: { count: OutOfView; testId: string }) {
  const t = useT();
  const hidden = count.above + count.below;
  return (
    <span
      className="out-of-view"
      data-testid={testId}
      data-above={count.above}
      data-below={count.below}
      hidden={hidden === 0}
      aria-live="polite"
    >
      {hidden > 0 ? t.layout.outOfView(count.above, count.below) : ""}
    </span>
  );
}
