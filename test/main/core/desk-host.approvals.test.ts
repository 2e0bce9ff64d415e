import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { rulesFile, workspaceDataDir } from "../../../src/main/storage/data-folder";
import {
  assistantSaid,
  calls,
  commandOf,
  pendingApproval,
  runCommand,
  startHost,
  waitFor,
} from "./host-harness";

describe("the session host: approvals", () => {
  it("holds a command until the person approves it, then runs it and gives the model the output", async () => {
    const { host, workspace } = await startHost([
      [
        { type: "text", text: "Let me look." },
        runCommand("c1", "echo hello > greeting.txt; cat greeting.txt"),
      ],
      [{ type: "text", text: "All done." }],
    ]);
    await calls(host).prompt({ text: "say hello" });
    const approvalId = await pendingApproval(host, "c1");
    const pending = commandOf(host, "c1");
    expect(pending).toMatchObject({
      phase: "pending",
      cwd: workspace,
      timeoutSeconds: 30,
      why: "Let me look.",
    });
    expect(pending?.parts.map((part) => part.name)).toEqual(["echo", "cat"]);
    expect(pending?.risks.some((risk) => risk.kind === "redirection")).toBe(true);
    expect(existsSync(join(workspace, "greeting.txt"))).toBe(false);

    await calls(host).decide({ approvalId, decision: { kind: "approve" } });
    await assistantSaid(host, "All done.");
    expect(commandOf(host, "c1")).toMatchObject({ phase: "succeeded", output: "hello", decidedBy: "person" });
    expect(commandOf(host, "c1")?.details?.exitCode).toBe(0);
  });

  it("runs nothing when the person denies, and the model reads their reason", async () => {
    const { host, workspace } = await startHost([
      [runCommand("c1", "touch ran")],
      [{ type: "text", text: "OK." }],
    ]);
    await calls(host).prompt({ text: "go" });
    const approvalId = await pendingApproval(host, "c1");
    await calls(host).decide({ approvalId, decision: { kind: "deny", reason: "not in this repo" } });
    await assistantSaid(host, "OK.");
    expect(existsSync(join(workspace, "ran"))).toBe(false);
    expect(commandOf(host, "c1")).toMatchObject({
      phase: "denied",
      output: "The user denied this command; it did not run. Their reason: not in this repo",
    });
  });

  it("validates an edited command again before it runs", async () => {
    const { host, workspace } = await startHost(
      [[runCommand("c1", "echo fine")], [{ type: "text", text: "OK." }]],
      { commands: { allowedBinaries: ["echo"] } },
    );
    await calls(host).prompt({ text: "go" });
    const approvalId = await pendingApproval(host, "c1");
    await calls(host).decide({ approvalId, decision: { kind: "approve", command: "touch ran" } });
    await assistantSaid(host, "OK.");
    expect(commandOf(host, "c1")?.phase).toBe("refused");
    expect(existsSync(join(workspace, "ran"))).toBe(false);
  });

  it("refuses a second decision for the same id, and an id it never issued", async () => {
    const { host } = await startHost([[runCommand("c1", "true")], [{ type: "text", text: "OK." }]]);
    await calls(host).prompt({ text: "go" });
    const approvalId = await pendingApproval(host, "c1");
    await calls(host).decide({ approvalId, decision: { kind: "approve" } });
    await expect(calls(host).decide({ approvalId, decision: { kind: "deny" } })).rejects.toThrow(
      "already decided, cancelled, or never issued",
    );
    await expect(
      calls(host).decide({ approvalId: "made-up", decision: { kind: "approve" } }),
    ).rejects.toThrow("Nothing is waiting");
    await assistantSaid(host, "OK.");
    expect(commandOf(host, "c1")?.phase).toBe("succeeded");
  });

  it("refuses a decision for a command of a closed chat, saying so, and the other chat's command stays waiting", async () => {
    // Each chat plays its own script, by its first message.
    const { host, workspace } = await startHost({
      first: [[runCommand("a1", "touch from-old-session")]],
      second: [[runCommand("b1", "touch from-new-session")], [{ type: "text", text: "Done." }]],
    });
    await calls(host).prompt({ text: "first" });
    const oldApproval = await pendingApproval(host, "a1");
    const oldChat = host.state().chatId as string;
    await calls(host).newSession();
    await calls(host).prompt({ text: "second" });
    const newApproval = await pendingApproval(host, "b1");
    await calls(host).closeChat({ chatId: oldChat });

    await expect(
      calls(host).decide({ approvalId: oldApproval, decision: { kind: "approve" } }),
    ).rejects.toThrow(/The chat "first" was closed, so nothing waits under approval id .* any more/);
    expect(commandOf(host, "b1")).toMatchObject({ phase: "pending", approvalId: newApproval });
    expect(existsSync(join(workspace, "from-old-session"))).toBe(false);

    await calls(host).decide({ approvalId: newApproval, decision: { kind: "deny" } });
    await assistantSaid(host, "Done.");
    expect(existsSync(join(workspace, "from-new-session"))).toBe(false);
    // The old session's command was cancelled when its session closed, never approved (newest first).
    const history = await calls(host).getHistory({});
    expect(
      history.filter((entry) => entry.commandId === "a1").map((entry) => [entry.event, entry.status]),
    ).toEqual([
      ["finished", "cancelled"],
      ["cancelled", undefined],
    ]);
  });

  it("skips the question next time once the person says always allow, and audits both decisions", async () => {
    const { host } = await startHost([
      [runCommand("c1", "echo one")],
      [runCommand("c2", "echo two")],
      [{ type: "text", text: "Both ran." }],
    ]);
    await calls(host).prompt({ text: "go" });
    const approvalId = await pendingApproval(host, "c1");
    expect(commandOf(host, "c1")?.ruleOffer).toEqual({ exact: "echo one", prefixes: ["echo"] });
    await calls(host).decide({
      approvalId,
      decision: { kind: "approve" },
      rule: { effect: "allow", match: "prefix", pattern: "echo", scope: "workspace" },
    });
    await assistantSaid(host, "Both ran.");
    expect(commandOf(host, "c2")).toMatchObject({ phase: "succeeded", decidedBy: "rule", output: "two" });
    expect(commandOf(host, "c2")?.approvalId).toBeUndefined();
    // The audit log is written as things happen; the last entry may land just after the turn ends.
    const history = await waitFor(async () => {
      const entries = await calls(host).getHistory({});
      return entries.length >= 4 ? entries : undefined;
    });
    expect(history.map((entry) => [entry.commandId, entry.event, entry.by])).toEqual(
      expect.arrayContaining([
        ["c1", "approved", "person"],
        ["c2", "approved", "rule"],
        ["c2", "finished", "host"],
      ]),
    );
    expect(host.state().rules).toMatchObject([{ effect: "allow", match: "prefix", pattern: "echo" }]);
  });

  it("says so when the rules file turns unreadable, and saves no rule over it", async () => {
    const { host, events, workspace, root } = await startHost([]);
    const file = rulesFile(workspaceDataDir(join(root, "data"), workspace));
    writeFileSync(file, "{ not json");
    await expect(
      calls(host).addRule({ effect: "allow", match: "prefix", pattern: "ls", scope: "workspace" }),
    ).rejects.toThrow("could not be read");
    expect(readFileSync(file, "utf8")).toBe("{ not json");
    expect(host.state().rulesProblem).toContain("is not valid JSON");
    expect(events.findLast((event) => event.type === "rules-changed")).toMatchObject({
      problem: expect.stringContaining("its rules are not in force"),
    });
  });

  it.runIf(process.platform === "linux")(
    "says on the card that a network the person allows is the host's, this machine's services included",
    async () => {
      const { host } = await startHost([[runCommand("c1", "true")], [{ type: "text", text: "Ran." }]]);
      await calls(host).setSandbox({ enabled: true, network: false });
      await calls(host).prompt({ text: "go" });
      const approvalId = await pendingApproval(host, "c1");
      expect(commandOf(host, "c1")?.sandbox).toEqual({ enabled: true, network: false });
      await calls(host).decide({ approvalId, decision: { kind: "approve", network: true } });
      await assistantSaid(host, "Ran.");
      expect(commandOf(host, "c1")?.sandbox).toEqual({ enabled: true, network: true, localServices: true });
    },
  );

  it("keeps the conversation in a Pi session file that a new host can reopen", async () => {
    const { host } = await startHost([[{ type: "text", text: "Remember me." }]]);
    await calls(host).prompt({ text: "hello" });
    await assistantSaid(host, "Remember me.");
    const file = await waitFor(() => host.state().session?.file);
    expect(readFileSync(file, "utf8")).toContain("Remember me.");
    const sessions = await calls(host).listSessions();
    expect(sessions.map((s) => s.path)).toContain(file);
    await calls(host).newSession();
    expect(host.state().session?.transcript).toEqual([]);
    await calls(host).openSession({ path: file });
    const texts = host.state().session?.transcript.map((item) => ("text" in item ? item.text : ""));
    expect(texts).toEqual(["hello", "Remember me."]);
  });
});
