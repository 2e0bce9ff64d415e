import { AuditLog } from "../approvals/audit-log";
import { type RunRecord, reapOrphanedRuns } from "../run-command";

/**
 * A host that was killed mid-run left its commands' process trees behind: ends them, and writes down how
 * those commands ended. Only dead hosts' runs: a Pi Desk still running (opened twice, or serving another
 * folder) keeps its commands.
 */
export async function endLastRunsLeftovers(runningDir: string): Promise<void> {
  const orphans = await reapOrphanedRuns(runningDir);
  if (orphans.records > 0) {
    console.warn(
      `Pi Desk: ended ${orphans.killed} process(es) left running by ${orphans.records} command(s) of a previous run.`,
    );
  }
  await auditInterrupted(orphans.reaped);
}

/** An audit line for each command a crashed host left running: its end is not known, only that it was cut. */
async function auditInterrupted(records: readonly RunRecord[]): Promise<void> {
  for (const { owner, commandId, command } of records) {
    if (!owner || !commandId) continue;
    await new AuditLog({ file: owner.auditFile })
      .append({
        at: Date.now(),
        sessionId: owner.sessionId,
        commandId,
        command,
        event: "finished",
        by: "host",
        status: "interrupted",
        reason:
          "Pi Desk stopped before the command ended; what it left running was ended when Pi Desk started again.",
      })
      .catch((error: unknown) => console.error(`Pi Desk: could not write the audit log: ${String(error)}`));
  }
}
