import { existsSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { calls, settled, startHost, waitFor } from "./host-harness";
import {
  agentFolder,
  callOf,
  callsReceived,
  freshLog,
  loggedEverythingServer,
  waiting,
  writeUserMcp,
} from "./mcp-harness";

afterEach(() => rmSync(join(agentFolder(), "mcp.json"), { force: true }));

const script = (id: string, code: string) => ({
  type: "toolCall" as const,
  id,
  name: "codemode",
  arguments: { code },
});

const ECHO_SCRIPT =
  'const answer = await tools.mcp__everything__echo({ message: "from the script" });\nreturn answer.content[0].text;';

/** A host whose workspace has scripts on, with a new chat that plays `turns`. */
async function scriptsHost(marker: string, log: string, turns: Parameters<typeof startHost>[0]) {
  writeUserMcp({ everything: loggedEverythingServer(marker, log) });
  const started = await startHost(turns);
  const workspaceId = started.host.state().workspaces[0]?.id as string;
  await calls(started.host).setScriptsEnabled({ workspaceId, enabled: true });
  await calls(started.host).newSession({});
  await waitFor(() => started.host.state().session?.mcp?.servers[0]?.status === "connected");
  return started;
}

describe("the host: a codemode script is a request at the gate", () => {
  it("waits; denied, nothing reaches the server; the audit log keeps the script", async () => {
    const log = freshLog();
    const { host } = await scriptsHost("cm-deny", log, [
      [script("s1", ECHO_SCRIPT)],
      [{ type: "text", text: "OK." }],
    ]);
    await calls(host).prompt({ text: "run a script" });
    const approvalId = await waiting(host, "s1");
    expect(callOf(host, "s1")).toMatchObject({
      status: "pending",
      piTool: "codemode",
      server: "pi",
      tool: "codemode",
      arguments: { code: ECHO_SCRIPT },
    });
    expect(host.state().inbox.map((entry) => entry.kind)).toEqual(["mcp-call"]);
    // The sidebar counts it as waiting and names it as a script, not as a server "pi" and its tool.
    const summary = host.state().chats.find((chat) => chat.id === host.state().chatId);
    expect(summary).toMatchObject({ activity: "waiting", waiting: 1, lastLine: "Script (codemode)" });
    await calls(host).decide({ approvalId, decision: { kind: "deny", reason: "not now" } });
    await settled(host);
    expect(callOf(host, "s1")?.status).toBe("denied");
    expect(callsReceived(log)).toEqual([]);
    const history = await calls(host).getHistory({});
    expect(history).toContainEqual(
      expect.objectContaining({ event: "denied", by: "person", tool: "codemode", script: ECHO_SCRIPT }),
    );
  });

  it("approved, its MCP call waits at the gate naming the script; approved too, the script's output reaches the model", async () => {
    const log = freshLog();
    const { host } = await scriptsHost("cm-approve", log, [
      [{ type: "text", text: "A script can echo it." }, script("s2", ECHO_SCRIPT)],
      [{ type: "text", text: "Done." }],
    ]);
    await calls(host).prompt({ text: "run a script" });
    await calls(host).decide({ approvalId: await waiting(host, "s2"), decision: { kind: "approve" } });
    const nested = await waitFor(() =>
      Object.values(host.state().session?.mcpCalls ?? {}).find(
        (call) => call.parentToolCallId === "s2" && call.approvalId,
      ),
    );
    expect(nested).toMatchObject({
      server: "everything",
      tool: "echo",
      arguments: { message: "from the script" },
    });
    // The agent's words were why it wrote the script: on the script's card, not on each call it makes.
    expect(callOf(host, "s2")?.why).toBe("A script can echo it.");
    expect(nested.why).toBeUndefined();
    expect(callsReceived(log)).toEqual([]);
    await calls(host).decide({ approvalId: nested.approvalId as string, decision: { kind: "approve" } });
    await settled(host);
    expect(callsReceived(log)).toEqual([{ name: "echo", arguments: { message: "from the script" } }]);
    const history = await calls(host).getHistory({});
    expect(history).toContainEqual(
      expect.objectContaining({
        event: "approved",
        server: "everything",
        tool: "echo",
        parentToolCallId: "s2",
      }),
    );
    expect(callOf(host, "s2")).toMatchObject({
      status: "done",
      result: expect.stringContaining("Echo: from the script"),
    });
    const told = host.agentOf()?.messages.find((message) => message.role === "toolResult");
    expect(JSON.stringify(told)).toContain("Echo: from the script");
  });
});

describe("the host: a reopened chat's scripts", () => {
  it("shows each as it ended: the denied one, and the one that ran with its output", async () => {
    const log = freshLog();
    const { host } = await scriptsHost("cm-reopen", log, [
      [script("r1", 'return "never";')],
      [script("r2", 'await tools.mcp__everything__echo({ message: "kept" });\nreturn "ran " + (40 + 2);')],
      [{ type: "text", text: "Both." }],
    ]);
    const chat = host.state().chatId as string;
    await calls(host).prompt({ text: "twice" });
    await calls(host).decide({ approvalId: await waiting(host, "r1"), decision: { kind: "deny" } });
    await calls(host).decide({ approvalId: await waiting(host, "r2"), decision: { kind: "approve" } });
    await calls(host).decide({ approvalId: await waiting(host, "r2/1"), decision: { kind: "approve" } });
    await settled(host);
    const file = await waitFor(() => host.state().session?.file);
    await calls(host, chat).closeChat({});
    await calls(host).openSession({ path: file });
    const reopened = host.state().session?.mcpCalls;
    expect(reopened?.r1).toMatchObject({
      status: "denied",
      piTool: "codemode",
      arguments: { code: 'return "never";' },
    });
    expect(reopened?.r2).toMatchObject({
      status: "done",
      piTool: "codemode",
      result: expect.stringContaining("ran 42"),
      scriptCalls: [{ id: "r2/1", name: "mcp__everything__echo", status: "ok" }],
    });
  });
});

describe("the host: the person's hand on a script", () => {
  it("an edited script runs the edited code, and the model is told", async () => {
    const log = freshLog();
    const { host } = await scriptsHost("cm-edit", log, [
      [script("s3", 'return "the agent\'s";')],
      [{ type: "text", text: "Done." }],
    ]);
    await calls(host).prompt({ text: "run a script" });
    const approvalId = await waiting(host, "s3");
    await calls(host).decide({
      approvalId,
      decision: { kind: "approve", arguments: { code: 'return "the person\'s " + (6 * 7);' } },
    });
    await settled(host);
    expect(callOf(host, "s3")).toMatchObject({
      status: "done",
      editedByPerson: true,
      arguments: { code: 'return "the person\'s " + (6 * 7);' },
      result: expect.stringContaining("the person's 42"),
    });
    expect(callOf(host, "s3")?.result).not.toContain("the agent's");
    const told = host.agentOf()?.messages.find((message) => message.role === "toolResult");
    expect(JSON.stringify(told)).toContain("The user edited the script before approving");
    const history = await calls(host).getHistory({});
    expect(history).toContainEqual(
      expect.objectContaining({
        event: "approved",
        edited: true,
        script: 'return "the person\'s " + (6 * 7);',
      }),
    );
  });

  it("Cancel ends a long script while it runs", async () => {
    const log = freshLog();
    const { host } = await scriptsHost("cm-cancel", log, [
      // The denied command shows the script has started; then it spins until it is stopped.
      [
        script(
          "s4",
          'await tools.run_command({ command: "true" }).catch(() => {});\nlet spins = 0;\nwhile (true) spins++;',
        ),
      ],
      [{ type: "text", text: "Stopped." }],
    ]);
    await calls(host).prompt({ text: "spin" });
    await calls(host).decide({ approvalId: await waiting(host, "s4"), decision: { kind: "approve" } });
    const command = await waitFor(() =>
      Object.values(host.state().session?.commands ?? {}).find(
        (one) => one.parentToolCallId === "s4" && one.approvalId,
      ),
    );
    await calls(host).decide({ approvalId: command.approvalId as string, decision: { kind: "deny" } });
    await waitFor(() => host.state().session?.commands?.[command.id]?.phase === "denied");
    await calls(host).cancelCommand({ commandId: "s4" });
    await waitFor(() => callOf(host, "s4")?.status === "cancelled");
    await settled(host);
    expect(callOf(host, "s4")?.reason).toBe("The user cancelled this call while it ran.");
  });
});

describe("the host: a denied tool_search", () => {
  it("declares nothing, and the model reads why; no rule decides it (an allow rule for every tool does not)", async () => {
    const log = freshLog();
    writeUserMcp({ everything: { ...loggedEverythingServer("cm-search", log), exposure: "deferred" } });
    const { host } = await startHost([
      [{ type: "toolCall", id: "q1", name: "tool_search", arguments: { query: "echo" } }],
      [{ type: "text", text: "OK." }],
    ]);
    const workspaceId = host.state().workspaces[0]?.id as string;
    await calls(host).setScriptsEnabled({ workspaceId, enabled: true });
    await calls(host).newSession({});
    await waitFor(() => host.state().session?.mcp?.servers[0]?.status === "connected");
    await calls(host).addRule({ effect: "allow", match: "mcp-server", pattern: "pi", scope: "workspace" });
    await calls(host).prompt({ text: "search" });
    const approvalId = await waiting(host, "q1");
    expect(callOf(host, "q1")).toMatchObject({ piTool: "tool_search", arguments: { query: "echo" } });
    await calls(host).decide({ approvalId, decision: { kind: "deny", reason: "no new tools" } });
    await settled(host);
    expect(host.agentOf()?.getActiveToolNames()).not.toContain("mcp__everything__echo");
    const told = host.agentOf()?.messages.find((message) => message.role === "toolResult");
    expect(JSON.stringify(told)).toContain("The user denied this call: no new tools");
  });
});

describe("the host: Stop while a script waits on its call", () => {
  it("ends the script and its waiting call as cancelled; nothing reaches the server", async () => {
    const log = freshLog();
    const { host } = await scriptsHost("cm-stop", log, [
      [script("t1", ECHO_SCRIPT)],
      [{ type: "text", text: "Stopped." }],
    ]);
    await calls(host).prompt({ text: "run and stop" });
    await calls(host).decide({ approvalId: await waiting(host, "t1"), decision: { kind: "approve" } });
    const nested = await waitFor(() =>
      Object.values(host.state().session?.mcpCalls ?? {}).find(
        (call) => call.parentToolCallId === "t1" && call.approvalId,
      ),
    );
    await calls(host).stop({});
    await waitFor(() => callOf(host, "t1")?.status === "cancelled");
    await waitFor(() => callOf(host, nested.id)?.status === "cancelled");
    expect(callOf(host, "t1")?.reason).toBe("The turn was stopped while this call ran.");
    expect(host.state().inbox).toEqual([]);
    expect(callsReceived(log)).toEqual([]);
  });
});

describe("the host: what a script may reach", () => {
  it("has no `models` (the person's classifier and image models would cost money and pass no gate)", async () => {
    const log = freshLog();
    const { host } = await scriptsHost("cm-models", log, [
      [script("m1", "return typeof models;")],
      [{ type: "text", text: "OK." }],
    ]);
    await calls(host).prompt({ text: "models?" });
    await calls(host).decide({ approvalId: await waiting(host, "m1"), decision: { kind: "approve" } });
    await settled(host);
    expect(callOf(host, "m1")?.result).toContain("undefined");
  });
});

describe("the host: the calls a script makes", () => {
  it("a run_command from a script gets a command card naming the script; denied, the script sees an error", async () => {
    const log = freshLog();
    const code =
      'try {\n  await tools.run_command({ command: "echo hi" });\n  return "ran";\n} catch (error) {\n  return "refused: " + error.message;\n}';
    const { host } = await scriptsHost("cm-command", log, [
      [script("s5", code)],
      [{ type: "text", text: "OK." }],
    ]);
    await calls(host).prompt({ text: "a command from a script" });
    await calls(host).decide({ approvalId: await waiting(host, "s5"), decision: { kind: "approve" } });
    const command = await waitFor(() =>
      Object.values(host.state().session?.commands ?? {}).find(
        (one) => one.parentToolCallId === "s5" && one.approvalId,
      ),
    );
    expect(command.command).toBe("echo hi");
    await calls(host).decide({
      approvalId: command.approvalId as string,
      decision: { kind: "deny", reason: "no" },
    });
    await settled(host);
    expect(callOf(host, "s5")).toMatchObject({ status: "done", result: expect.stringContaining("refused:") });
  });

  it("a write from a script gets an edit card naming the script; approved, the file is written", async () => {
    const log = freshLog();
    const code =
      'await tools.write({ path: "from-script.txt", content: "written by a script\\n" });\nreturn "wrote";';
    const { host, workspace } = await scriptsHost("cm-edit-file", log, [
      [script("w1", code)],
      [{ type: "text", text: "OK." }],
    ]);
    await calls(host).prompt({ text: "write a file from a script" });
    await calls(host).decide({ approvalId: await waiting(host, "w1"), decision: { kind: "approve" } });
    const edit = await waitFor(() =>
      Object.values(host.state().session?.edits ?? {}).find(
        (one) => one.parentToolCallId === "w1" && one.approvalId,
      ),
    );
    expect(edit.path).toBe("from-script.txt");
    expect(existsSync(join(workspace, "from-script.txt"))).toBe(false);
    await calls(host).decide({ approvalId: edit.approvalId as string, decision: { kind: "approve" } });
    await settled(host);
    expect(readFileSync(join(workspace, "from-script.txt"), "utf8")).toBe("written by a script\n");
    expect(callOf(host, "w1")?.result).toContain("wrote");
  });

  it("a rule allowing the MCP tool lets the script's call through without a card; a deny rule wins", async () => {
    const log = freshLog();
    const { host } = await scriptsHost("cm-rules", log, {
      allowed: [[script("a1", ECHO_SCRIPT)], [{ type: "text", text: "Sent." }]],
      denied: [[script("d1", ECHO_SCRIPT)], [{ type: "text", text: "Refused." }]],
    });
    await calls(host).addRule({
      effect: "allow",
      match: "mcp-tool",
      pattern: "everything/echo",
      scope: "workspace",
    });
    await calls(host).prompt({ text: "allowed" });
    await calls(host).decide({ approvalId: await waiting(host, "a1"), decision: { kind: "approve" } });
    await settled(host);
    expect(callsReceived(log)).toEqual([{ name: "echo", arguments: { message: "from the script" } }]);
    const nested = Object.values(host.state().session?.mcpCalls ?? {}).find(
      (call) => call.parentToolCallId === "a1",
    );
    expect(nested).toMatchObject({ status: "done", decidedBy: "rule" });
    expect(callOf(host, "a1")?.result).toContain("Echo: from the script");

    await calls(host).addRule({
      effect: "deny",
      match: "mcp-server",
      pattern: "everything",
      scope: "workspace",
    });
    await calls(host).newSession({});
    await waitFor(() => host.state().session?.mcp?.servers[0]?.status === "connected");
    await calls(host).prompt({ text: "denied" });
    await calls(host).decide({ approvalId: await waiting(host, "d1"), decision: { kind: "approve" } });
    await settled(host);
    expect(callsReceived(log)).toHaveLength(1);
    expect(callOf(host, "d1")).toMatchObject({
      status: "failed",
      result: expect.stringContaining("A rule denies it"),
    });
  });
});
