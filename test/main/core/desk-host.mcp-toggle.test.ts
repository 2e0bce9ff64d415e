import { describe, expect, it } from "vitest";
import type { DeskHost } from "../../../src/main/core/desk-host";
import { calls, waitFor } from "./host-harness";
import { everythingServer, processesMarked, writeUserMcp } from "./mcp-harness";
import { startRealProviderHost } from "./real-provider-host";

function serverIn(host: DeskHost, chatId: string) {
  return host.state(chatId).session?.mcp?.servers.find((one) => one.name === "everything");
}

describe("the host: the workspace's MCP toggle reaches the open chats", () => {
  it("turned off, the server stops in every open chat and its tools leave them; turned on, it is back", async () => {
    const marker = `toggle-${process.pid}-${Date.now()}`;
    const real = await startRealProviderHost(() => ({ text: "ok" }));
    writeUserMcp({ everything: everythingServer(marker) }, real.agentDir);
    await calls(real.host).setApiKey({ provider: "local", key: "test-key" });
    const first = (await calls(real.host).newSession({})).id;
    const second = (await calls(real.host).newSession({})).id;
    const workspaceId = real.host.state().workspaces[0]?.id as string;
    await waitFor(() => serverIn(real.host, first)?.status === "connected");
    await waitFor(() => serverIn(real.host, second)?.status === "connected");
    expect(processesMarked(marker)).toHaveLength(2);
    // The tools offered to the model in a chat's next request.
    const offered = async (chatId: string) => {
      const before = real.server.requests.length;
      await calls(real.host, chatId).prompt({ text: "hello" });
      await waitFor(
        () => real.server.requests.length > before && real.host.state(chatId).session?.running === false,
      );
      return real.server.requests[before]?.tools ?? [];
    };
    expect(await offered(first)).toContain("mcp__everything__echo");
    expect(await offered(second)).toContain("mcp__everything__echo");

    await calls(real.host).setMcpServerEnabled({ workspaceId, name: "everything", enabled: false });
    for (const chatId of [first, second])
      expect(serverIn(real.host, chatId)).toMatchObject({
        status: "disabled",
        offInWorkspace: true,
        tools: 0,
      });
    await waitFor(() => processesMarked(marker).length === 0);
    for (const chatId of [first, second])
      expect((await offered(chatId)).filter((tool) => tool.startsWith("mcp__everything__"))).toEqual([]);

    await calls(real.host).setMcpServerEnabled({ workspaceId, name: "everything", enabled: true });
    await waitFor(() => serverIn(real.host, first)?.status === "connected");
    await waitFor(() => serverIn(real.host, second)?.status === "connected");
    expect(serverIn(real.host, first)?.offInWorkspace).toBeUndefined();
    expect(await offered(first)).toContain("mcp__everything__echo");
  });
});
