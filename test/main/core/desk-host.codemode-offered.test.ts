import { describe, expect, it } from "vitest";
import type { DeskHost } from "../../../src/main/core/desk-host";
import type { McpCallView } from "../../../src/shared/mcp";
import { calls, waitFor } from "./host-harness";
import { everythingServer, writeUserMcp } from "./mcp-harness";
import { type RealProviderHost, startRealProviderHost } from "./real-provider-host";

function callOf(host: DeskHost, id: string): McpCallView | undefined {
  return host.state().session?.mcpCalls?.[id];
}

/** The tools offered to the model in the chat's next request, after `text`. */
async function offered(real: RealProviderHost, text: string): Promise<string[]> {
  const before = real.server.requests.length;
  await calls(real.host).prompt({ text });
  await waitFor(() => real.server.requests.length > before && real.host.state().session?.running === false);
  return real.server.requests[before]?.tools ?? [];
}

async function connectedChat(real: RealProviderHost): Promise<void> {
  await calls(real.host).newSession({});
  await waitFor(() => real.host.state().session?.mcp?.servers[0]?.status === "connected");
}

describe("the host: Scripts and tool search, per workspace", () => {
  it("off (the default): no codemode or tool_search, every tool direct; on: from the next chat, codemode, as the server's exposure asks", async () => {
    const real = await startRealProviderHost(() => ({ text: "ok" }));
    writeUserMcp({ everything: everythingServer(`offered-${process.pid}`) }, real.agentDir);
    await calls(real.host).setApiKey({ provider: "local", key: "test-key" });
    const workspaceId = real.host.state().workspaces[0]?.id as string;
    await connectedChat(real);
    expect(real.host.state().session?.mcp?.scripts).toEqual({ on: false, inThisChat: false });
    const off = await offered(real, "hello");
    expect(off).toContain("mcp__everything__echo");
    expect(off).not.toContain("codemode");
    expect(off).not.toContain("tool_search");

    await calls(real.host).setScriptsEnabled({ workspaceId, enabled: true });
    // The open chat keeps what it started with, and its Settings say so.
    await waitFor(() => real.host.state().session?.mcp?.scripts?.on === true);
    expect(real.host.state().session?.mcp?.scripts).toEqual({ on: true, inThisChat: false });
    expect(await offered(real, "again")).not.toContain("codemode");

    await connectedChat(real);
    expect(real.host.state().session?.mcp?.scripts).toEqual({ on: true, inThisChat: true });
    const on = await offered(real, "hello");
    expect(on).toContain("codemode");
    // The server's exposure (Pi's default, codemode): its tools are reached from scripts, not declared.
    expect(on).not.toContain("mcp__everything__echo");
  });

  it("tool_search waits with its query; approved, the matched tools are declared in the next request", async () => {
    const real = await startRealProviderHost((_request, index) =>
      index === 0
        ? { toolCall: { id: "search1", name: "tool_search", arguments: { query: "echo" } } }
        : { text: "Found it." },
    );
    writeUserMcp(
      { everything: { ...everythingServer(`search-${process.pid}`), exposure: "deferred" } },
      real.agentDir,
    );
    await calls(real.host).setApiKey({ provider: "local", key: "test-key" });
    const workspaceId = real.host.state().workspaces[0]?.id as string;
    await calls(real.host).setScriptsEnabled({ workspaceId, enabled: true });
    await connectedChat(real);
    await calls(real.host).prompt({ text: "find the echo tool" });
    const approvalId = await waitFor(() => callOf(real.host, "search1")?.approvalId);
    expect(callOf(real.host, "search1")).toMatchObject({
      piTool: "tool_search",
      arguments: { query: "echo" },
    });
    expect(real.server.requests[0]?.tools).toContain("tool_search");
    expect(real.server.requests[0]?.tools).not.toContain("mcp__everything__echo");
    await calls(real.host).decide({ approvalId, decision: { kind: "approve" } });
    await waitFor(() => real.server.requests.length >= 2);
    expect(real.server.requests[1]?.tools).toContain("mcp__everything__echo");
    const history = await calls(real.host).getHistory({});
    expect(history).toContainEqual(
      expect.objectContaining({
        event: "approved",
        by: "person",
        tool: "tool_search",
        arguments: '{"query":"echo"}',
      }),
    );
  });

  it("an approved script's output, after its approved MCP call, reaches the model in the next provider request", async () => {
    const code =
      'const answer = await tools.mcp__everything__echo({ message: "via script" });\nreturn answer.content[0].text;';
    const real = await startRealProviderHost((_request, index) =>
      index === 0
        ? { toolCall: { id: "call_script", name: "codemode", arguments: { code } } }
        : { text: "Read it." },
    );
    writeUserMcp({ everything: everythingServer(`script-real-${process.pid}`) }, real.agentDir);
    await calls(real.host).setApiKey({ provider: "local", key: "test-key" });
    const workspaceId = real.host.state().workspaces[0]?.id as string;
    await calls(real.host).setScriptsEnabled({ workspaceId, enabled: true });
    await connectedChat(real);
    await calls(real.host).prompt({ text: "use a script" });
    await calls(real.host).decide({
      approvalId: await waitFor(() => callOf(real.host, "call_script")?.approvalId),
      decision: { kind: "approve" },
    });
    const nested = await waitFor(() =>
      Object.values(real.host.state().session?.mcpCalls ?? {}).find(
        (call) => call.parentToolCallId === "call_script" && call.approvalId,
      ),
    );
    expect(real.server.requests).toHaveLength(1);
    await calls(real.host).decide({ approvalId: nested.approvalId as string, decision: { kind: "approve" } });
    await waitFor(() => real.server.requests.length >= 2);
    const result = real.server.requests[1]?.messages.find((message) => message.role === "tool");
    expect(result?.tool_call_id).toBe("call_script");
    expect(JSON.stringify(result?.content)).toContain("Echo: via script");
  });
});
