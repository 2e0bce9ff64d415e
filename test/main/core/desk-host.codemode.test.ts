import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { DeskHost } from "../../../src/main/core/desk-host";
import type { McpCallView } from "../../../src/shared/mcp";
import { calls, settled, startHost, waitFor } from "./host-harness";
import { agentFolder, callsReceived, loggedEverythingServer, writeUserMcp } from "./mcp-harness";

const logs: string[] = [];
afterEach(() => {
  rmSync(join(agentFolder(), "mcp.json"), { force: true });
  for (const dir of logs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function freshLog(): string {
  const dir = mkdtempSync(join(tmpdir(), "pi-desk-codemode-log-"));
  logs.push(dir);
  return join(dir, "received.jsonl");
}

function callOf(host: DeskHost, id: string): McpCallView | undefined {
  return host.state().session?.mcpCalls?.[id];
}

function waiting(host: DeskHost, id: string): Promise<string> {
  return waitFor(() => callOf(host, id)?.approvalId);
}

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
      [script("s2", ECHO_SCRIPT)],
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
    expect(callsReceived(log)).toEqual([]);
    await calls(host).decide({ approvalId: nested.approvalId as string, decision: { kind: "approve" } });
    await settled(host);
    expect(callsReceived(log)).toEqual([{ name: "echo", arguments: { message: "from the script" } }]);
    expect(callOf(host, "s2")).toMatchObject({
      status: "done",
      result: expect.stringContaining("Echo: from the script"),
    });
    const told = host.agentOf()?.messages.find((message) => message.role === "toolResult");
    expect(JSON.stringify(told)).toContain("Echo: from the script");
  });
});
