import type { Messages } from "../../i18n/en";
import { formatClock } from "../../lib/format";

/** A background cap for people: "4 hours" when it is whole hours, else a clock ("0:30:00"). */
export function formatCap(t: Messages, seconds: number): string {
  return seconds % 3600 === 0 ? t.background.capHours(seconds / 3600) : formatClock(seconds * 1000);
}
