import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Locator, Page } from "@playwright/test";
import { expect, openDesk, runCommand, say, send, shot, UI_TEST_TIMEOUT_MS } from "../harness/desk-page";
import { test } from "./support/desk-test";

test.describe.configure({ timeout: UI_TEST_TIMEOUT_MS });

/** The sidebar's entry of the chat whose name starts so. */
function chatItem(page: Page, name: string): Locator {
  return page.getByTestId("chat-item").filter({ has: page.locator(".chat-item-title", { hasText: name }) });
}

/** The tray's card waiting in the chat of that name. */
function trayCardOf(page: Page, chatName: string): Locator {
  return page
    .getByTestId("tray-item")
    .filter({ has: page.getByTestId("tray-chat-name").filter({ hasText: chatName }) });
}

/** Starts a new chat in the workspace at `path` (the only one when none is named) and sends its first message. */
async function newChat(page: Page, first: string, path?: string): Promise<void> {
  await page.getByTestId("new-chat-button").click();
  const here = page.getByTestId("new-chat-here");
  await (path ? here.and(page.locator(`[data-path="${path}"]`)) : here.first()).click();
  await expect(page.getByTestId("transcript").or(page.getByTestId("prompt-input")).first()).toBeVisible();
  await expect(page.locator('.chat-item-open[aria-current="true"] .chat-item-title')).toHaveText("New chat");
  await send(page, first);
}

test("two chats wait at once in one tray; approving the second runs it while the first waits; a rule saved in one applies in the other", async ({
  page,
  scriptedDesk,
}, testInfo) => {
  const desk = await scriptedDesk({
    alpha: [
      [say("Alpha asks."), runCommand("call-1", "echo alpha", 10)],
      [runCommand("call-2", "echo shared", 10)],
      [say("Alpha done.")],
    ],
    beta: [[say("Beta asks."), runCommand("call-1", "echo shared", 10)], [say("Beta done.")]],
  });
  await openDesk(page, desk);
  await send(page, "alpha: run it");
  await expect(trayCardOf(page, "alpha: run it")).toHaveAttribute("data-status", "pending");
  await newChat(page, "beta: run it");

  // Both wait at once, each card naming its chat; the sidebar counts each chat's.
  const alphaCard = trayCardOf(page, "alpha: run it");
  const betaCard = trayCardOf(page, "beta: run it");
  await expect(betaCard).toHaveAttribute("data-status", "pending");
  await expect(page.getByTestId("tray-item")).toHaveCount(2);
  await expect(chatItem(page, "alpha")).toHaveAttribute("data-state", "waiting");
  await expect(chatItem(page, "alpha")).toHaveAttribute("data-waiting", "1");
  await expect(chatItem(page, "beta")).toHaveAttribute("data-waiting", "1");
  await expect(chatItem(page, "beta")).toHaveAttribute("data-worktree", "false");
  const alphaId = await chatItem(page, "alpha").getAttribute("data-chat-id");
  await expect(alphaCard).toHaveAttribute("data-chat-id", alphaId as string);
  await expect(page).toHaveTitle(/^\(2\) /);
  await shot(page, testInfo, "two chats waiting in one tray");

  // Beta's card, with an always-allow rule for the workspace: it runs while alpha still waits.
  await betaCard.getByTestId("tray-always-allow-button").click();
  await betaCard.getByTestId("tray-rule-scope-workspace").click();
  await betaCard.getByTestId("tray-always-allow-confirm").click();
  await expect(page.getByTestId("assistant-message").filter({ hasText: "Beta done." })).toBeVisible();
  await expect(page.getByTestId("tray-item")).toHaveCount(1);
  await expect(alphaCard).toHaveAttribute("data-status", "pending");
  await expect(chatItem(page, "alpha")).toHaveAttribute("data-state", "waiting");
  await expect(chatItem(page, "beta")).toHaveAttribute("data-state", "idle");

  // A click on the card's chat name opens that chat; its command is waiting there.
  await alphaCard.getByTestId("tray-chat-name").click();
  await expect(page.locator('.chat-item-open[aria-current="true"] .chat-item-title')).toHaveText(/^alpha/);
  await expect(page.locator('[data-testid="pending-line"][data-command-id="call-1"]')).toHaveCount(1);
  await alphaCard.getByTestId("tray-approve-button").click();
  await expect(page.getByTestId("assistant-message").filter({ hasText: "Alpha done." })).toBeVisible();
  await expect(page.getByTestId("tray-item")).toHaveCount(0);
  // Alpha's next command ran without asking, by the rule saved in beta.
  await expect(page.locator('[data-testid="command-card"][data-command-id="call-2"]')).toContainText(
    "Allowed by the rule",
  );
  await shot(page, testInfo, "both chats done");
});

test("two workspaces in one window: each chat runs in its own folder, and the tray names the chat", async ({
  page,
  scriptedDesk,
}, testInfo) => {
  const other = mkdtempSync(join(tmpdir(), "pi-desk-e2e-other-"));
  try {
    const desk = await scriptedDesk(
      {
        home: [[runCommand("call-1", "pwd", 10)], [say("Home done.")]],
        away: [[runCommand("call-1", "pwd", 10)], [say("Away done.")]],
      },
      { args: ["--workspace", other] },
    );
    await page.goto(desk.url);
    await expect(page.getByTestId("workspace-item")).toHaveCount(2);
    await expect(page.getByTestId("workspace-item").nth(1)).toHaveAttribute("data-path", other);
    // The page shows the newest chat: the second workspace's.
    await send(page, "away: where am I");
    await newChat(page, "home: where am I", desk.workspace);
    await expect(page.getByTestId("tray-item")).toHaveCount(2);
    await expect(trayCardOf(page, "away")).toContainText(other);
    await expect(trayCardOf(page, "home")).toContainText(desk.workspace);
    await shot(page, testInfo, "two workspaces, one tray");
    await trayCardOf(page, "away").getByTestId("tray-approve-button").click();
    await expect(page.getByTestId("tray-item")).toHaveCount(1);
    await chatItem(page, "away").locator(".chat-item-open").click();
    await expect(page.getByTestId("assistant-message").filter({ hasText: "Away done." })).toBeVisible();
    await expect(page.getByTestId("workspace-path")).toHaveText(other);

    // Closing the first workspace, whose chat still waits, asks first; then its chat and card are gone.
    const home = page.locator(`[data-testid="workspace-item"][data-path="${desk.workspace}"]`);
    page.once("dialog", (dialog) => dialog.accept());
    await home.getByTestId("close-workspace-button").click();
    await expect(page.getByTestId("workspace-item")).toHaveCount(1);
    await expect(page.getByTestId("workspace-item")).toHaveAttribute("data-path", other);
    await expect(page.getByTestId("tray-item")).toHaveCount(0);
    await expect(chatItem(page, "home")).toHaveCount(0);
    await expect(page.getByTestId("assistant-message").filter({ hasText: "Away done." })).toBeVisible();
  } finally {
    rmSync(other, { recursive: true, force: true });
  }
});
