import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, openDesk, say, shot, UI_TEST_TIMEOUT_MS } from "../harness/desk-page";
import { type OAuthMcpServer, startOAuthMcpServer } from "../harness/oauth-mcp-server";
import { test } from "./support/desk-test";

test.describe.configure({ timeout: UI_TEST_TIMEOUT_MS });

const folders: string[] = [];
const servers: OAuthMcpServer[] = [];
test.afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

test("Settings signs in to an MCP server behind OAuth: the sign-in page in the browser, back to Pi's callback, connected; then signs out", async ({
  page,
  scriptedDesk,
}, testInfo) => {
  const secure = await startOAuthMcpServer();
  servers.push(secure);
  const agentDir = mkdtempSync(join(tmpdir(), "pi-desk-e2e-agent-"));
  folders.push(agentDir);
  writeFileSync(join(agentDir, "mcp.json"), JSON.stringify({ mcpServers: { secure: { url: secure.url } } }));
  const desk = await scriptedDesk([[say("ok")]], { env: { PI_CODING_AGENT_DIR: agentDir } });
  await openDesk(page, desk);
  await page.getByTestId("nav-settings").click();
  const row = page.locator('[data-testid="mcp-server"][data-name="secure"]');
  await expect(row).toHaveAttribute("data-state", "needs-sign-in");
  await expect(row.getByTestId("mcp-server-state")).toHaveText("Needs sign-in");
  await row.getByTestId("mcp-sign-in-button").click();
  const link = row.getByTestId("mcp-sign-in-link");
  await expect(link).toBeVisible();
  await expect(row.getByTestId("mcp-redirect-url")).toBeVisible();
  await shot(page, testInfo, "an MCP sign-in under way, with the page's link and the paste field");
  // The person opens the page: the authorization server approves and sends the browser to Pi's callback.
  const [signInPage] = await Promise.all([page.waitForEvent("popup"), link.click()]);
  await expect(signInPage.locator("body")).toContainText("Signed in to the MCP server");
  await signInPage.close();
  await expect(row).toHaveAttribute("data-state", "connected");
  await expect(row.getByTestId("mcp-server-state")).toHaveText("Connected, 1 tool");
  expect(secure.tokens).toHaveLength(1);
  await row.getByTestId("mcp-sign-out-button").click();
  await expect(row).toHaveAttribute("data-state", "needs-sign-in");
  await expect(row.getByTestId("mcp-sign-in-button")).toBeVisible();
});
