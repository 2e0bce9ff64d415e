import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, openDesk, say, send, shot, UI_TEST_TIMEOUT_MS } from "../harness/desk-page";
import { test } from "./support/desk-test";

test.describe.configure({ timeout: UI_TEST_TIMEOUT_MS });

/** A stdio server whose `media` tool answers with text, a WAV clip and a resource link. */
const MEDIA_SERVER = join(process.cwd(), "test", "fixtures", "mcp-media-server.mjs");

const folders: string[] = [];
test.afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

test("an MCP result's sound plays on its card (the page's policy lets it load) and its resource links are listed", async ({
  page,
  scriptedDesk,
}, testInfo) => {
  const agentDir = mkdtempSync(join(tmpdir(), "pi-desk-e2e-agent-"));
  folders.push(agentDir);
  writeFileSync(
    join(agentDir, "mcp.json"),
    JSON.stringify({ mcpServers: { media: { command: process.execPath, args: [MEDIA_SERVER] } } }),
  );
  const desk = await scriptedDesk(
    [[{ type: "toolCall", id: "m1", name: "mcp__media__media", arguments: {} }], [say("Played.")]],
    { env: { PI_CODING_AGENT_DIR: agentDir } },
  );
  const blocked: string[] = [];
  page.on("console", (message) => {
    if (/Content Security Policy/i.test(message.text())) blocked.push(message.text());
  });
  await openDesk(page, desk);
  await send(page, "play the report's sound");
  const item = page.locator('[data-testid="tray-item"][data-tool-call-id="m1"]');
  await item.getByTestId("tray-approve-button").click();
  const card = page.locator('[data-testid="tool-card"][data-tool-call-id="m1"]');
  await expect(card).toHaveAttribute("data-status", "done");
  const audio = card.getByTestId("tool-audio");
  await expect(audio).toBeVisible();
  // Loaded: the browser read the clip's header (a blocked data: URL never gets there).
  await expect
    .poll(() => audio.evaluate((element) => (element as HTMLAudioElement).readyState))
    .toBeGreaterThanOrEqual(1);
  const link = card.getByTestId("tool-resource-link");
  await expect(link).toHaveAttribute("data-uri", "file:///reports/q3.pdf");
  await expect(link).toContainText("Third-quarter report");
  expect(blocked).toEqual([]);
  await shot(page, testInfo, "an MCP result with a sound and a resource link");
});
