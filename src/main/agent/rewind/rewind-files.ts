import type { RevertResult } from "../../../shared/changes";
import type { RewindFile } from "../../../shared/rewind";
import type { ChainFile } from "../../changes";

// The files of a rewind's (or a branch switch's) preview and outcome, from what the change engine reports.

/** Why a change has no record where nothing is recorded. */
export const NOT_RECORDING =
  "Changes are not recorded here (recording is off): put it back by hand if you need to.";

/** Why a change has no record when its card does not say. */
export const NOT_KEPT = "Its record is not kept (it was dropped to fit the disk budget, or never made).";

/** A file of the engine's chain preview as a rewind names it. */
export function fileOf(file: ChainFile): RewindFile {
  if (file.outcome === "refused")
    return { path: file.path, outcome: "not-recorded", reason: file.reason ?? "" };
  if (file.outcome === "kept") {
    return {
      path: file.path,
      outcome: "kept",
      ...(file.changedBy ? { changedBy: file.changedBy } : {}),
      ...(file.diff ? { diff: file.diff } : {}),
    };
  }
  return { path: file.path, outcome: "restored" };
}

/** The preview's files as the undo turned out: a file changed since the preview is kept, one refused not put back. */
export function outcomes(files: readonly RewindFile[], results: readonly RevertResult[]): RewindFile[] {
  const conflicts = new Set(results.flatMap((result) => result.conflicts.map((c) => c.path)));
  const refused = new Map(
    results.flatMap((result) => result.refused.map((r) => [r.path, r.reason] as const)),
  );
  return files.map((file) => {
    if (file.outcome !== "restored") return file;
    const reason = refused.get(file.path);
    if (reason !== undefined) return { path: file.path, outcome: "not-recorded", reason };
    if (conflicts.has(file.path)) return { path: file.path, outcome: "kept", changedBy: "person" };
    return file;
  });
}

/** How many files each outcome took, for the audit line. */
export function tally(files: readonly RewindFile[]): { restored: number; kept: number; notRecorded: number } {
  const count = (outcome: RewindFile["outcome"]) => files.filter((file) => file.outcome === outcome).length;
  return { restored: count("restored"), kept: count("kept"), notRecorded: count("not-recorded") };
}
