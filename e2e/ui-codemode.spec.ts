import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { expect, openDesk, say, send, shot, UI_TEST_TIMEOUT_MS } from "../harness/desk-page";
import type { ScriptBlock } from "../harness/desk-server";
import { test } from "./support/desk-test";

test.describe.configure({ timeout: UI_TEST_TIMEOUT_MS });

const require = createRequire(import.meta.url);
const EVERYTHING = join(
  dirname(require.resolve("@modelcontextprotocol/server-everything/package.json")),
  "dist",
  "index.js",
);
const LOGGING = join(process.cwd(), "test", "fixtures", "mcp-logging-server.mjs");

const folders: string[] = [];
test.afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

const SCRIPT = [
  "// One call to the server, from a script.",
  'const answer = await tools.mcp__everything__echo({ message: "from the script" });',
  "return answer.content[0].text;",
].join("\n");

const codemode = (id: string, code: string): ScriptBlock => ({
  type: "toolCall",
  id,
  name: "codemode",
  arguments: { code },
});

function toolCallsReceived(log: string): string[] {
  try {
    return readFileSync(log, "utf8")
      .split("\n")
      .filter((line) => line.includes('"tools/call"'));
  } catch {
    return [];
  }
}

test("Scripts on in Settings: a codemode card shows the script in full; approved, its MCP call waits in the tray naming the script", async ({
  page,
  scriptedDesk,
}, testInfo) => {
  const agentDir = mkdtempSync(join(tmpdir(), "pi-desk-e2e-agent-"));
  folders.push(agentDir);
  const log = join(agentDir, "received.jsonl");
  writeFileSync(
    join(agentDir, "mcp.json"),
    JSON.stringify({
      mcpServers: { everything: { command: process.execPath, args: [LOGGING, log, EVERYTHING] } },
    }),
  );
  const desk = await scriptedDesk(
    {
      script: [[say("A script will ask the server."), codemode("s1", SCRIPT)], [say("The script said it.")]],
    },
    { env: { PI_CODING_AGENT_DIR: agentDir } },
  );
  await openDesk(page, desk);

  await page.getByTestId("nav-settings").click();
  const toggle = page.getByTestId("codemode-toggle");
  await expect(toggle).not.toBeChecked();
  await expect(page.getByTestId("codemode-why")).toContainText("runs code the model wrote");
  await toggle.check();
  await expect(page.getByTestId("codemode-this-chat")).toContainText("This chat started without them.");
  await shot(page, testInfo, "Settings: scripts and tool search on");

  await page.getByTestId("new-chat-button").click();
  await page.getByTestId("new-chat-here").first().click();
  // Pi turns codemode on when a server that needs it connects: the new chat's server first, then the ask.
  await expect(page.locator('[data-testid="mcp-server"][data-name="everything"]')).toHaveAttribute(
    "data-state",
    "connected",
  );
  await page.getByTestId("nav-chat").click();
  await send(page, "script: ask the server");

  const script = page.locator('[data-testid="tray-item"][data-tool-call-id="s1"]');
  await expect(script).toHaveAttribute("data-tool", "codemode");
  await expect(script).toHaveAttribute("data-status", "pending");
  await expect(script.getByTestId("tray-codemode-script")).toContainText(
    'tools.mcp__everything__echo({ message: "from the script" })',
  );
  await expect(script.getByTestId("tray-always-allow-button")).toHaveCount(0);
  await expect(script.getByTestId("tray-edit-arguments-button")).toBeVisible();
  await shot(page, testInfo, "a codemode script waiting in the tray");
  await script.getByTestId("tray-approve-button").click();

  const nested = page.locator('[data-testid="tray-item"][data-parent-tool-call-id="s1"]');
  await expect(nested).toHaveAttribute("data-tool", "echo");
  await expect(nested).toHaveAttribute("data-server", "everything");
  await expect(nested.getByTestId("tray-from-script")).toBeVisible();
  expect(toolCallsReceived(log)).toEqual([]);
  await shot(page, testInfo, "the script's MCP call waiting in the tray");
  await nested.getByTestId("tray-approve-button").click();

  const done = page.locator('[data-testid="tool-card"][data-tool-call-id="s1"]');
  await expect(done).toHaveAttribute("data-status", "done");
  await expect(done.getByTestId("tool-result")).toContainText("Echo: from the script");
  expect(toolCallsReceived(log)).toHaveLength(1);
});
