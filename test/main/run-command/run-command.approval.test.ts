import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { CommandRequest } from "../../../src/main/run-command/run-command";
import type { ApprovalDecision } from "../../../src/shared/commands";
import { makeWorkspace, runTool } from "./run-command-harness";

/** An approver that records what it was asked and answers with `decision`. */
function approver(decision: ApprovalDecision) {
  const asked: CommandRequest[] = [];
  return {
    asked,
    approve: async (request: CommandRequest) => {
      asked.push(request);
      return decision;
    },
  };
}

describe("run_command: approval", () => {
  it("asks before running, with the command, the folder, the timeout and the parsed commands", async () => {
    const workspace = makeWorkspace();
    const { asked, approve } = approver({ kind: "approve" });
    const { text } = await runTool(
      { workspaceRoot: workspace, approve },
      { command: "echo hi | tr a-z A-Z" },
    );
    expect(text.trim()).toBe("HI");
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({
      toolCallId: "call-1",
      command: "echo hi | tr a-z A-Z",
      cwd: workspace,
      timeoutSeconds: 30,
      maxTimeoutSeconds: 120,
    });
    expect(asked[0]?.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(asked[0]?.parsed.commands.map((c) => c.name)).toEqual(["echo", "tr"]);
  });

  it("runs nothing when the person denies, and gives the model their reason", async () => {
    const workspace = makeWorkspace();
    const { approve } = approver({ kind: "deny", reason: "use the test script instead" });
    const { text, details, result } = await runTool(
      { workspaceRoot: workspace, approve },
      { command: "touch ran" },
    );
    expect(existsSync(join(workspace, "ran"))).toBe(false);
    expect(result.isError).toBe(true);
    expect(details).toMatchObject({
      status: "denied",
      reason: "use the test script instead",
      exitCode: null,
    });
    expect(text).toBe(
      "The user denied this command; it did not run. Their reason: use the test script instead",
    );
  });

  it("runs the person's edited command and timeout instead", async () => {
    const workspace = makeWorkspace();
    const { approve } = approver({ kind: "approve", command: "echo edited", timeoutSeconds: 5 });
    const { text, details } = await runTool({ workspaceRoot: workspace, approve }, { command: "touch ran" });
    expect(text.trim()).toBe("edited");
    expect(details).toMatchObject({
      status: "succeeded",
      command: "echo edited",
      edited: true,
      timeoutSeconds: 5,
    });
    expect(existsSync(join(workspace, "ran"))).toBe(false);
  });

  it("checks an edited command against the allowlist again", async () => {
    const workspace = makeWorkspace();
    const { approve } = approver({ kind: "approve", command: "touch ran" });
    const { text, details } = await runTool(
      { workspaceRoot: workspace, approve, allowedBinaries: ["echo"] },
      { command: "echo fine" },
    );
    expect(details.status).toBe("refused");
    expect(text).toMatch(/^The user's edited command was refused: .*touch/);
    expect(existsSync(join(workspace, "ran"))).toBe(false);
  });

  it("caps an edited timeout and refuses an invalid one", async () => {
    const capped = await runTool(
      { workspaceRoot: makeWorkspace(), approve: approver({ kind: "approve", timeoutSeconds: 999 }).approve },
      { command: "true" },
    );
    expect(capped.details.timeoutSeconds).toBe(120);
    const invalid = await runTool(
      { workspaceRoot: makeWorkspace(), approve: approver({ kind: "approve", timeoutSeconds: -1 }).approve },
      { command: "true" },
    );
    expect(invalid.details.status).toBe("refused");
  });

  it("is cancelled, running nothing, when the turn stops while the person decides", async () => {
    const workspace = makeWorkspace();
    const controller = new AbortController();
    const approve = () => {
      setTimeout(() => controller.abort(), 50);
      return new Promise<ApprovalDecision>(() => {});
    };
    const { text, details } = await runTool(
      { workspaceRoot: workspace, approve },
      { command: "touch ran" },
      { signal: controller.signal },
    );
    expect(details.status).toBe("cancelled");
    expect(text).toBe("Command cancelled by the user before it ran.");
    expect(existsSync(join(workspace, "ran"))).toBe(false);
  });

  it("does not ask about a command the policy refuses", async () => {
    const { asked, approve } = approver({ kind: "approve" });
    const { details } = await runTool(
      { workspaceRoot: makeWorkspace(), approve, allowedBinaries: ["npm"] },
      { command: "cat /etc/passwd" },
    );
    expect(details.status).toBe("refused");
    expect(asked).toEqual([]);
  });
});
