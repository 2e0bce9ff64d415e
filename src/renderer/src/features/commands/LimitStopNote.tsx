import type { LimitStop } from "../../../../shared/commands";
import { useT } from "../../i18n/i18n";
import { useTestId } from "./card-scope";

/** Why a command was stopped by a resource limit, and what the person can do about it. */
export function LimitStopNote({ limit }: { limit: LimitStop }) {
  const t = useT();
  const tid = useTestId();
  const text =
    limit.kind === "memory"
      ? t.command.limitMemory(formatLimitBytes(limit.limit))
      : t.command.limitProcesses(limit.limit.toLocaleString("en-US"));
  return (
    <p className="error" data-testid={tid("command-limit")} data-limit={limit.kind}>
      {text}
    </p>
  );
}

/** A memory limit as a person set it: "4 GiB", "64 MiB", one decimal where it is not whole. */
export function formatLimitBytes(bytes: number): string {
  for (const [unit, size] of [
    ["GiB", 1024 ** 3],
    ["MiB", 1024 ** 2],
  ] as const) {
    if (bytes >= size) {
      const value = bytes / size;
      return `${Number.isInteger(value) ? value : value.toFixed(1)} ${unit}`;
    }
  }
  return `${Math.round(bytes / 1024)} KiB`;
}
