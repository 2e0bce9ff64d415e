import { existsSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  approveInBrowser,
  type OAuthMcpServer,
  startOAuthMcpServer,
} from "../../../harness/oauth-mcp-server";
import type { DeskHost } from "../../../src/main/core/desk-host";
import { calls, settled, startHost, waitFor } from "./host-harness";
import { agentFolder, writeUserMcp } from "./mcp-harness";

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

  it("signs in with Pi's flow from the host, then the server's tool is called with the token; signing out deletes it", async () => {
    const secure = await oauthServer();
    writeUserMcp({ secure: { url: secure.url } });
    const { host } = await startHost([
      [{ type: "toolCall", id: "w1", name: "mcp__secure__whoami", arguments: {} }],
      [{ type: "text", text: "Done." }],
    ]);
    await waitFor(() => serverView(host, "secure")?.status === "needs-sign-in");
    await calls(host).signInMcpServer({ name: "secure" });
    const page = serverView(host, "secure")?.signingIn?.authorizationUrl;
    expect(page).toMatch(/\/authorize\?/);
    // The person's browser: the authorization page approves and redirects to Pi's loopback callback.
    const callback = await approveInBrowser(page as string);
    expect(callback).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback/);
    const landed = await fetch(callback);
    expect(landed.status).toBe(200);
    const connected = await waitFor(() => {
      const view = serverView(host, "secure");
      return view?.status === "connected" ? view : undefined;
    });
    expect(connected).toMatchObject({ tools: 1 });
    expect(connected.signingIn).toBeUndefined();
    expect(connected.signInError).toBeUndefined();
    // Pi's own store holds the tokens.
    const stored = readFileSync(join(agentFolder(), "mcp-auth.json"), "utf8");
    expect(stored).toContain(secure.tokens[0]);

    // In the same chat, no restart: the tool is there and an approved call carries the token.
    await calls(host).prompt({ text: "who am I?" });
    const approvalId = await waitFor(() => host.state().session?.mcpCalls?.w1?.approvalId);
    await calls(host).decide({ approvalId, decision: { kind: "approve" } });
    await settled(host);
    expect(host.state().session?.mcpCalls?.w1).toMatchObject({
      status: "done",
      result: expect.stringContaining(`Called with Bearer ${secure.tokens[0]}`),
    });
    expect(secure.calls).toEqual([{ tool: "whoami", authorization: `Bearer ${secure.tokens[0]}` }]);

    await calls(host).signOutMcpServer({ name: "secure" });
    expect(serverView(host, "secure")?.status).toBe("needs-sign-in");
    const left = existsSync(join(agentFolder(), "mcp-auth.json"))
      ? readFileSync(join(agentFolder(), "mcp-auth.json"), "utf8")
      : "";
    expect(left).not.toContain(secure.tokens[0]);
  });

  it("finishes a sign-in with the redirected URL pasted, where the browser could not reach Pi's callback", async () => {
    const secure = await oauthServer();
    writeUserMcp({ secure: { url: secure.url } });
    const { host } = await startHost([[{ type: "text", text: "ok" }]]);
    await waitFor(() => serverView(host, "secure")?.status === "needs-sign-in");
    await calls(host).signInMcpServer({ name: "secure" });
    const redirected = await approveInBrowser(
      serverView(host, "secure")?.signingIn?.authorizationUrl as string,
    );
    await expect(calls(host).pasteMcpRedirectUrl({ name: "secure", url: "not a url" })).rejects.toThrow(
      /paste the whole address/,
    );
    await calls(host).pasteMcpRedirectUrl({ name: "secure", url: redirected });
    await waitFor(() => serverView(host, "secure")?.status === "connected");
    expect(secure.tokens).toHaveLength(1);
  });

  it("gives up a sign-in when the person cancels it, and says why a sign-in cannot start", async () => {
    const secure = await oauthServer();
    writeUserMcp({ secure: { url: secure.url } });
    const { host } = await startHost([[{ type: "text", text: "ok" }]]);
    await waitFor(() => serverView(host, "secure")?.status === "needs-sign-in");
    await expect(calls(host).signInMcpServer({ name: "nope" })).rejects.toThrow(/no MCP server named "nope"/);
    await calls(host).signInMcpServer({ name: "secure" });
    await expect(calls(host).signInMcpServer({ name: "secure" })).rejects.toThrow(/under way/);
    await calls(host).cancelMcpSignIn({ name: "secure" });
    await waitFor(() => serverView(host, "secure")?.signingIn === undefined);
    expect(serverView(host, "secure")).toMatchObject({ status: "needs-sign-in" });
    expect(serverView(host, "secure")?.signInError).toBeUndefined();
    expect(secure.tokens).toEqual([]);
  });

  it("a sign-in in one chat connects the same server in the host's other open chats, without a turn", async () => {
    const secure = await oauthServer();
    writeUserMcp({ secure: { url: secure.url } });
    const { host } = await startHost([[{ type: "text", text: "ok" }]]);
    const first = host.state().chatId as string;
    const second = (await calls(host).newSession({})).id;
    const inChat = (chatId: string) =>
      host.state(chatId).session?.mcp?.servers.find((one) => one.name === "secure");
    await waitFor(
      () => inChat(first)?.status === "needs-sign-in" && inChat(second)?.status === "needs-sign-in",
    );
    await calls(host, second).signInMcpServer({ name: "secure" });
    await fetch(await approveInBrowser(inChat(second)?.signingIn?.authorizationUrl as string));
    await waitFor(() => inChat(second)?.status === "connected");
    await waitFor(() => inChat(first)?.status === "connected");
    expect(inChat(first)?.tools).toBe(1);
    expect(secure.tokens).toHaveLength(1);
  });
});
