import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { AuditEntry } from "../../../src/shared/rules";
import {
  assistantSaid,
  calls,
  commandOf,
  pendingApproval,
  runCommand,
  startHost,
  waitFor,
} from "./host-harness";

const DECISIONS: AuditEntry["event"][] = ["approved", "denied", "cancelled"];

/** The audit lines that decide `id`, once its end is written too (so no late decision line can follow). */
async function decisionLines(host: Awaited<ReturnType<typeof startHost>>["host"], id: string) {
  const entries = await waitFor(async () => {
    const all = (await calls(host).getHistory({})).filter((entry) => entry.commandId === id);
    return all.some((entry) => entry.event === "finished" || entry.event === "refused") && all;
  });
  return entries.filter((entry) => DECISIONS.includes(entry.event));
}

/** A command that appends one line per run to a file: how many times it ran. */
const APPEND = "echo ran >> runs.txt";

function runs(workspace: string): number {
  const file = join(workspace, "runs.txt");
  return existsSync(file) ? readFileSync(file, "utf8").split("\n").filter(Boolean).length : 0;
}

describe("the session host: two decisions sent at once", () => {
  it("approve + deny: the first one decides, the second is told it was already decided", async () => {
    const { host, workspace } = await startHost([
      [runCommand("c1", APPEND)],
      [{ type: "text", text: "OK." }],
    ]);
    await calls(host).prompt({ text: "go" });
    const approvalId = await pendingApproval(host, "c1");
    const [approve, deny] = await Promise.allSettled([
      calls(host).decide({ approvalId, decision: { kind: "approve" } }),
      calls(host).decide({ approvalId, decision: { kind: "deny", reason: "no" } }),
    ]);
    expect(approve.status).toBe("fulfilled");
    expect(deny).toMatchObject({
      status: "rejected",
      reason: { message: expect.stringContaining("already decided") },
    });
    await assistantSaid(host, "OK.");
    const lines = await decisionLines(host, "c1");
    expect(lines.map((entry) => [entry.event, entry.by])).toEqual([["approved", "person"]]);
    expect(runs(workspace)).toBe(1);
    expect(commandOf(host, "c1")?.phase).toBe("succeeded");
  });

  it("approve + approve: the command runs once and one line says approved", async () => {
    const { host, workspace } = await startHost([
      [runCommand("c1", APPEND)],
      [{ type: "text", text: "OK." }],
    ]);
    await calls(host).prompt({ text: "go" });
    const approvalId = await pendingApproval(host, "c1");
    const results = await Promise.allSettled([
      calls(host).decide({ approvalId, decision: { kind: "approve" } }),
      calls(host).decide({ approvalId, decision: { kind: "approve" } }),
    ]);
    expect(results.map((result) => result.status).sort()).toEqual(["fulfilled", "rejected"]);
    await assistantSaid(host, "OK.");
    expect((await decisionLines(host, "c1")).map((entry) => entry.event)).toEqual(["approved"]);
    expect(runs(workspace)).toBe(1);
  });

  it("approve + a rule that cannot be saved: the request waits again, and a later decision still works", async () => {
    const { host, workspace } = await startHost([
      [runCommand("c1", APPEND)],
      [{ type: "text", text: "OK." }],
    ]);
    await calls(host).prompt({ text: "go" });
    const approvalId = await pendingApproval(host, "c1");
    // A prefix rule for a program that runs whatever it is given is refused by the rule book.
    await expect(
      calls(host).decide({
        approvalId,
        decision: { kind: "approve" },
        rule: { effect: "allow", match: "prefix", pattern: "bash -c", scope: "workspace" },
      }),
    ).rejects.toThrow();
    expect(commandOf(host, "c1")?.approvalId).toBe(approvalId);
    await calls(host).decide({ approvalId, decision: { kind: "approve" } });
    await assistantSaid(host, "OK.");
    expect((await decisionLines(host, "c1")).map((entry) => entry.event)).toEqual(["approved"]);
    expect(runs(workspace)).toBe(1);
  });

  it("approve + Stop: one decision line, and the command runs at most once", async () => {
    const { host, workspace } = await startHost([
      [runCommand("c1", APPEND)],
      [{ type: "text", text: "OK." }],
    ]);
    await calls(host).prompt({ text: "go" });
    const approvalId = await pendingApproval(host, "c1");
    await Promise.allSettled([
      calls(host).decide({ approvalId, decision: { kind: "approve" } }),
      calls(host).stop(),
    ]);
    await waitFor(() => host.state().session?.running === false);
    const lines = await decisionLines(host, "c1");
    expect(lines).toHaveLength(1);
    expect(runs(workspace)).toBeLessThanOrEqual(1);
  });

  it("Stop + approve: cancelled, and the late approval is refused", async () => {
    const { host, workspace } = await startHost([
      [runCommand("c1", APPEND)],
      [{ type: "text", text: "OK." }],
    ]);
    await calls(host).prompt({ text: "go" });
    const approvalId = await pendingApproval(host, "c1");
    const [, approve] = await Promise.allSettled([
      calls(host).stop(),
      calls(host).decide({ approvalId, decision: { kind: "approve" } }),
    ]);
    expect(approve.status).toBe("rejected");
    await waitFor(() => host.state().session?.running === false);
    expect((await decisionLines(host, "c1")).map((entry) => [entry.event, entry.by])).toEqual([
      ["cancelled", "stop"],
    ]);
    expect(runs(workspace)).toBe(0);
  });
});
