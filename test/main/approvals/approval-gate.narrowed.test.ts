import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import { type ApprovalCards, ApprovalGate } from "../../../src/main/approvals/approval-gate";
import { AuditLog } from "../../../src/main/approvals/audit-log";
import { RuleBook } from "../../../src/main/approvals/rule-book";
import { parseCommandLine } from "../../../src/main/run-command/shell/shell-parser";
import type { CommandView } from "../../../src/shared/commands";

// The first miss of a rule saved before the argument table is on record once, across conversations and
// restarts: each gate here is a new conversation over the same rules file and audit log.

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "pi-desk-gate-narrowed-"));
  const rules = [
    { id: "old", effect: "allow", match: "prefix", pattern: "find .", scope: "workspace", createdAt: 1 },
  ];
  await writeFile(join(dir, "rules.json"), JSON.stringify({ version: 1, rules }));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A new conversation's gate; returns it with the cards it drew. */
async function conversation(audit: AuditLog) {
  const views = new Map<string, CommandView>();
  const cards: ApprovalCards = {
    commands: views,
    updateCommand: (id, patch) => views.set(id, { ...(views.get(id) as CommandView), ...patch }),
    updateEdit: () => undefined,
    updateMcpCall: () => undefined,
    reasonFor: () => undefined,
  };
  const rules = await RuleBook.open({ file: join(dir, "rules.json") });
  const gate = new ApprovalGate({ rules, audit, cards, sessionId: () => "s", onRulesChanged: () => {} });
  return { gate, views };
}

/** Asks the gate about a command until it waits for the person, then stops the wait. */
async function ask(gate: ApprovalGate, views: Map<string, CommandView>, id: string, command: string) {
  const stop = new AbortController();
  const answer = gate.approveCommand(
    {
      id,
      toolCallId: id,
      command,
      cwd: dir,
      timeoutSeconds: 30,
      maxTimeoutSeconds: 120,
      parsed: await parseCommandLine(command),
      sandbox: { enabled: false, network: false },
      network: { mode: "full", allowedHosts: [], askedHosts: [], hostRules: false },
      background: false,
      backgroundCapSeconds: 60,
    },
    stop.signal,
  );
  while (!views.get(id)?.approvalId) await new Promise((resolve) => setTimeout(resolve, 5));
  stop.abort();
  await answer;
  await gate.settled();
}

it("records a saved rule's first miss because of the table once, however many conversations follow", async () => {
  const audit = new AuditLog({ file: join(dir, "audit.jsonl") });
  for (const round of [1, 2, 3]) {
    const { gate, views } = await conversation(audit);
    await ask(gate, views, `c${round}a`, "find . -maxdepth 0 -exec touch M \\;");
    await ask(gate, views, `c${round}b`, "find . -delete");
    expect(views.get(`c${round}a`)?.ruleNotApplied).toEqual({
      pattern: "find .",
      argument: "-exec",
      effect: "runs",
    });
  }
  const narrowed = (await audit.read()).filter((entry) => entry.event === "narrowed");
  expect(narrowed).toHaveLength(1);
  expect(narrowed[0]).toMatchObject({
    by: "rule",
    commandId: "c1a",
    rule: 'allow "find ." (prefix, workspace)',
    reason: expect.stringContaining("-exec runs another program for each file"),
  });
});
