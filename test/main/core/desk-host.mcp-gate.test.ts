import { readFileSync, rmSync } from "node:fs";
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
import { startRealProviderHost } from "./real-provider-host";

afterEach(() => rmSync(join(agentFolder(), "mcp.json"), { force: true }));

const echo = (id: string, message: unknown) => ({
  type: "toolCall" as const,
  id,
  name: "mcp__everything__echo",
  arguments: { message },
});

describe("the host: every MCP tool call waits at the gate", () => {
  it("waits for the person, and a denied call never reaches the server; the audit log says so", async () => {
    const log = freshLog();
    writeUserMcp({ everything: loggedEverythingServer("deny", log) });
    const { host } = await startHost([[echo("c1", "hello")], [{ type: "text", text: "Understood." }]]);
    await calls(host).prompt({ text: "echo hello" });
    const approvalId = await waiting(host, "c1");
    const card = callOf(host, "c1");
    expect(card).toMatchObject({
      status: "pending",
      server: "everything",
      tool: "echo",
      description: "Echoes back the input string",
      arguments: { message: "hello" },
    });
    expect(card?.hints).toEqual(["read-only", "idempotent"]);
    expect(host.state().inbox.map((entry) => entry.kind)).toEqual(["mcp-call"]);
    expect(callsReceived(log)).toEqual([]);

    await calls(host).decide({ approvalId, decision: { kind: "deny", reason: "not that one" } });
    await settled(host);
    expect(callOf(host, "c1")?.status).toBe("denied");
    expect(callsReceived(log)).toEqual([]);
    const told = host.agentOf()?.messages.find((message) => message.role === "toolResult");
    expect(JSON.stringify(told)).toContain("The user denied this call: not that one");
    const history = await calls(host).getHistory({});
    expect(history).toContainEqual(
      expect.objectContaining({
        kind: "mcp-call",
        server: "everything",
        tool: "echo",
        event: "denied",
        by: "person",
        reason: "not that one",
      }),
    );
  });

  it("refuses edited arguments that break the tool's schema before anything is sent, and sends fitting ones", async () => {
    const log = freshLog();
    writeUserMcp({ everything: loggedEverythingServer("edit", log) });
    const { host } = await startHost([[echo("c1", "agent's")], [{ type: "text", text: "Done." }]]);
    await calls(host).prompt({ text: "echo" });
    const approvalId = await waiting(host, "c1");
    await expect(
      calls(host).decide({ approvalId, decision: { kind: "approve", arguments: { message: 42 } } }),
    ).rejects.toThrow(/do not fit the tool's schema \(\/message: must be string\)/);
    expect(callsReceived(log)).toEqual([]);
    expect(callOf(host, "c1")?.approvalId).toBe(approvalId);

    await calls(host).decide({
      approvalId,
      decision: { kind: "approve", arguments: { message: "person's" } },
    });
    await settled(host);
    expect(callsReceived(log)).toEqual([{ name: "echo", arguments: { message: "person's" } }]);
    expect(callOf(host, "c1")).toMatchObject({
      status: "done",
      editedByPerson: true,
      result: expect.stringContaining("Echo: person's"),
    });
  });

  it("Cancel ends a long call while it runs: its AbortSignal reaches the server as a cancellation", async () => {
    const log = freshLog();
    writeUserMcp({ everything: loggedEverythingServer("cancel", log) });
    const long = {
      type: "toolCall" as const,
      id: "long1",
      name: "mcp__everything__trigger_long_running_operation",
      arguments: { duration: 120, steps: 120 },
    };
    const { host } = await startHost([[long], [{ type: "text", text: "Stopped." }]]);
    await calls(host).prompt({ text: "run the long one" });
    const approvalId = await waiting(host, "long1");
    await calls(host).decide({ approvalId, decision: { kind: "approve" } });
    await waitFor(() => callOf(host, "long1")?.status === "running" && callsReceived(log).length === 1);
    await calls(host).cancelCommand({ commandId: "long1" });
    await waitFor(() => callOf(host, "long1")?.status === "cancelled");
    await settled(host);
    expect(callOf(host, "long1")?.reason).toBe("The user cancelled this call while it ran.");
    expect(readFileSync(log, "utf8")).toContain('"notifications/cancelled"');
  });
});

describe("the host: Stop while an MCP call runs", () => {
  it("ends the call as cancelled, and the server is told", async () => {
    const log = freshLog();
    writeUserMcp({ everything: loggedEverythingServer("stop", log) });
    const long = {
      type: "toolCall" as const,
      id: "long2",
      name: "mcp__everything__trigger_long_running_operation",
      arguments: { duration: 120, steps: 120 },
    };
    const { host } = await startHost([[long], [{ type: "text", text: "Stopped." }]]);
    await calls(host).prompt({ text: "run the long one" });
    const approvalId = await waiting(host, "long2");
    await calls(host).decide({ approvalId, decision: { kind: "approve" } });
    await waitFor(() => callOf(host, "long2")?.status === "running" && callsReceived(log).length === 1);
    await calls(host).stop({});
    await waitFor(() => callOf(host, "long2")?.status === "cancelled");
    expect(callOf(host, "long2")?.reason).toBe("The turn was stopped while this call ran.");
    await waitFor(() => readFileSync(log, "utf8").includes('"notifications/cancelled"'));
  });
});

describe("the host: an MCP call's result on its card", () => {
  it("keeps the result's text and its images (as thumbnails), bounded", async () => {
    const log = freshLog();
    writeUserMcp({ everything: loggedEverythingServer("image", log) });
    const tiny = {
      type: "toolCall" as const,
      id: "i1",
      name: "mcp__everything__get_tiny_image",
      arguments: {},
    };
    const { host } = await startHost([[tiny], [{ type: "text", text: "Seen." }]]);
    await calls(host).prompt({ text: "show me" });
    const approvalId = await waiting(host, "i1");
    await calls(host).decide({ approvalId, decision: { kind: "approve" } });
    await settled(host);
    const card = callOf(host, "i1");
    expect(card?.status).toBe("done");
    expect(card?.images).toEqual([{ mimeType: "image/png", data: expect.stringMatching(/^iVBOR/) }]);
  });
});

describe("the host: a reopened chat's MCP calls", () => {
  it("shows each as it ended: denied, and answered with the server's text", async () => {
    const log = freshLog();
    writeUserMcp({ everything: loggedEverythingServer("reopen", log) });
    const { host } = await startHost([
      [echo("r1", "no")],
      [echo("r2", "yes")],
      [{ type: "text", text: "Both." }],
    ]);
    const first = host.state().chatId as string;
    await calls(host).prompt({ text: "twice" });
    await calls(host).decide({ approvalId: await waiting(host, "r1"), decision: { kind: "deny" } });
    await calls(host).decide({ approvalId: await waiting(host, "r2"), decision: { kind: "approve" } });
    await settled(host);
    const file = await waitFor(() => host.state().session?.file);
    await calls(host, first).closeChat({});
    await calls(host).openSession({ path: file });
    const reopened = host.state().session?.mcpCalls;
    expect(reopened?.r1).toMatchObject({ status: "denied", server: "everything", tool: "echo" });
    expect(reopened?.r2).toMatchObject({ status: "done", result: "Echo: yes" });
  });
});

describe("the host: rules for MCP tools", () => {
  it("a rule for a tool lets its calls run without asking, and a deny rule for the server wins over it", async () => {
    const log = freshLog();
    writeUserMcp({ everything: loggedEverythingServer("rules", log) });
    const { host } = await startHost({
      allowed: [[echo("a1", "by rule")], [{ type: "text", text: "Sent." }]],
      denied: [[echo("d1", "never")], [{ type: "text", text: "Refused." }]],
    });
    await expect(
      calls(host).addRule({ effect: "allow", match: "mcp-tool", pattern: "everything", scope: "session" }),
    ).rejects.toThrow(/names it as "server\/tool"/);
    await calls(host).addRule({
      effect: "allow",
      match: "mcp-tool",
      pattern: "everything/echo",
      scope: "workspace",
    });
    await calls(host).prompt({ text: "allowed" });
    await settled(host);
    expect(callOf(host, "a1")).toMatchObject({ status: "done", decidedBy: "rule" });
    expect(callsReceived(log)).toEqual([{ name: "echo", arguments: { message: "by rule" } }]);

    await calls(host).addRule({
      effect: "deny",
      match: "mcp-server",
      pattern: "everything",
      scope: "workspace",
    });
    await calls(host).newSession({});
    await calls(host).prompt({ text: "denied" });
    await settled(host);
    expect(callOf(host, "d1")).toMatchObject({ status: "denied", decidedBy: "rule" });
    expect(callsReceived(log)).toHaveLength(1);
    const history = await calls(host).getHistory({});
    expect(history).toContainEqual(
      expect.objectContaining({ kind: "mcp-call", event: "denied", by: "rule", tool: "echo" }),
    );
  });
});

describe("the host: an approved MCP call's result reaches the model (Pi's real provider)", () => {
  it("sends the server's answer in the next provider request, as the tool's result", async () => {
    const log = freshLog();
    const real = await startRealProviderHost((_request, index) =>
      index === 0
        ? { toolCall: { id: "call_echo", name: "mcp__everything__echo", arguments: { message: "hi there" } } }
        : { text: "It said hi." },
    );
    writeUserMcp({ everything: loggedEverythingServer("real", log) }, real.agentDir);
    await calls(real.host).setApiKey({ provider: "local", key: "test-key" });
    await calls(real.host).newSession({});
    await waitFor(() => real.host.state().session?.mcp?.servers[0]?.status === "connected");
    await calls(real.host).prompt({ text: "say hi through the server" });
    const approvalId = await waiting(real.host, "call_echo");
    expect(real.server.requests).toHaveLength(1);
    await calls(real.host).decide({ approvalId, decision: { kind: "approve" } });
    await waitFor(() => real.server.requests.length >= 2);
    const result = real.server.requests[1]?.messages.find((message) => message.role === "tool");
    expect(result?.tool_call_id).toBe("call_echo");
    expect(JSON.stringify(result?.content)).toContain("Echo: hi there");
    expect(callsReceived(log)).toEqual([{ name: "echo", arguments: { message: "hi there" } }]);
    // The call's end is written once its result is in, a moment after the model was sent it.
    const history = await waitFor(async () => {
      const entries = await calls(real.host).getHistory({});
      return entries.some((entry) => entry.event === "finished") && entries;
    });
    expect(history.map((entry) => `${entry.kind}:${entry.event}:${entry.by}:${entry.status ?? ""}`)).toEqual(
      expect.arrayContaining(["mcp-call:approved:person:", "mcp-call:finished:host:done"]),
    );
  });
});
