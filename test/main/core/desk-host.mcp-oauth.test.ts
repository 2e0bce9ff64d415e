import { rmSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { DeskHost } from "../../../src/main/core/desk-host";
import { startHost, waitFor } from "./host-harness";
import { agentFolder, writeUserMcp } from "./mcp-harness";
import { type OAuthMcpServer, startOAuthMcpServer } from "./oauth-mcp-server";

const servers: OAuthMcpServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
  rmSync(join(agentFolder(), "mcp.json"), { force: true });
  rmSync(join(agentFolder(), "mcp-auth.json"), { force: true });
});

async function oauthServer(): Promise<OAuthMcpServer> {
  const server = await startOAuthMcpServer();
  servers.push(server);
  return server;
}

function serverView(host: DeskHost, name: string) {
  return host.state().session?.mcp?.servers.find((one) => one.name === name);
}

describe("the host: an MCP server behind OAuth", () => {
  it("shows a server that rejects an unauthenticated connection as needing sign-in, not as failed", async () => {
    const secure = await oauthServer();
    writeUserMcp({ secure: { url: secure.url } });
    const { host } = await startHost([[{ type: "text", text: "ok" }]]);
    const view = await waitFor(() => {
      const found = serverView(host, "secure");
      return found && found.status !== "connecting" ? found : undefined;
    });
    expect(view.status).toBe("needs-sign-in");
    expect(view.error).toBeUndefined();
  });
});
