import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { Page } from "@playwright/test";
import { expect, openDesk, say, send, shot, UI_TEST_TIMEOUT_MS } from "../harness/desk-page";
import type { ScriptBlock } from "../harness/desk-server";
import { test } from "./support/desk-test";

test.describe.configure({ timeout: UI_TEST_TIMEOUT_MS });

const require = createRequire(import.meta.url);
/** server-everything's packaged entry, run with `node <path>` as a person's mcp.json would. */
const EVERYTHING = join(
  dirname(require.resolve("@modelcontextprotocol/server-everything/package.json")),
  "dist",
  "index.js",
);
/** The wrapper that logs every message the server is sent (test/fixtures/mcp-logging-server.mjs). */
const LOGGING = join(process.cwd(), "test", "fixtures", "mcp-logging-server.mjs");

const folders: string[] = [];
test.afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

/** A Pi agent folder whose mcp.json has server-everything (logged to `log`) and one that cannot start. */
function agentWithServers(): { agentDir: string; log: string } {
  const agentDir = mkdtempSync(join(tmpdir(), "pi-desk-e2e-agent-"));
  folders.push(agentDir);
  const log = join(agentDir, "received.jsonl");
  writeFileSync(
    join(agentDir, "mcp.json"),
    JSON.stringify({
      mcpServers: {
        everything: { command: process.execPath, args: [LOGGING, log, EVERYTHING] },
        broken: { command: "/nonexistent/mcp-server" },
      },
    }),
  );
  return { agentDir, log };
}

const echo = (id: string, message: string): ScriptBlock => ({
  type: "toolCall",
  id,
  name: "mcp__everything__echo",
  arguments: { message },
});

function toolCallsReceived(log: string): string[] {
  let text = "";
  try {
    text = readFileSync(log, "utf8");
  } catch {
    return [];
  }
  return text.split("\n").filter((line) => line.includes('"tools/call"'));
}

/** The tray's card of a waiting MCP call, once its decision row is there. */
async function pendingCall(page: Page, id: string) {
  const item = page.locator(`[data-testid="tray-item"][data-tool-call-id="${id}"]`);
  await expect(item).toHaveAttribute("data-status", "pending");
  await expect(item.getByTestId("tray-approve-button")).toBeEnabled();
  return item;
}

test("an MCP call waits in the tray with its server, tool, arguments and hints; denied it never reaches the server, approved it answers", async ({
  page,
  scriptedDesk,
}, testInfo) => {
  const { agentDir, log } = agentWithServers();
  const desk = await scriptedDesk(
    [[say("I'll ask the server."), echo("c1", "first")], [echo("c2", "second")], [say("Done.")]],
    { env: { PI_CODING_AGENT_DIR: agentDir } },
  );
  await openDesk(page, desk);
  await send(page, "echo through the server");

  const first = await pendingCall(page, "c1");
  await expect(first).toHaveAttribute("data-server", "everything");
  await expect(first).toHaveAttribute("data-tool", "echo");
  await expect(first.getByTestId("tray-tool-arguments")).toContainText('"message": "first"');
  await expect(first.getByTestId("tray-tool-hint")).toHaveCount(2);
  await expect(first.locator('[data-testid="tray-tool-hint"][data-hint="read-only"]')).toHaveCount(1);
  await expect(first.getByTestId("tray-edit-arguments-button")).toBeVisible();
  await expect(page.locator('[data-testid="pending-line"][data-tool-call-id="c1"]')).toHaveCount(1);
  await shot(page, testInfo, "an MCP call waiting in the tray");

  await first.getByTestId("tray-deny-button").click();
  await first.getByTestId("tray-deny-reason").fill("not that");
  await first.getByTestId("tray-deny-confirm").click();
  const denied = page.locator('[data-testid="tool-card"][data-tool-call-id="c1"]');
  await expect(denied).toHaveAttribute("data-status", "denied");
  expect(toolCallsReceived(log)).toEqual([]);

  const second = await pendingCall(page, "c2");
  await second.getByTestId("tray-approve-button").click();
  const answered = page.locator('[data-testid="tool-card"][data-tool-call-id="c2"]');
  await expect(answered).toHaveAttribute("data-status", "done");
  await expect(answered.getByTestId("tool-result")).toContainText("Echo: second");
  expect(toolCallsReceived(log)).toHaveLength(1);
  await shot(page, testInfo, "an approved MCP call with its result");
});

test("Settings lists each MCP server with its state: connected with its tools, and one that failed with the reason", async ({
  page,
  scriptedDesk,
}, testInfo) => {
  const { agentDir } = agentWithServers();
  const desk = await scriptedDesk([[say("ok")]], { env: { PI_CODING_AGENT_DIR: agentDir } });
  await openDesk(page, desk);
  await page.getByTestId("nav-settings").click();
  const connected = page.locator('[data-testid="mcp-server"][data-name="everything"]');
  await expect(connected).toHaveAttribute("data-state", "connected");
  await expect(connected.getByTestId("mcp-server-state")).toContainText(/Connected, \d+ tools/);
  const broken = page.locator('[data-testid="mcp-server"][data-name="broken"]');
  await expect(broken).toHaveAttribute("data-state", "failed");
  await expect(broken.getByTestId("mcp-server-error")).toContainText("The program was not found");
  await expect(broken.getByTestId("mcp-reconnect-button")).toBeVisible();
  await shot(page, testInfo, "MCP servers in Settings, one failed");
});
