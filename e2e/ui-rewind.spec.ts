import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "@playwright/test";
import {
  edit,
  expect,
  expectPending,
  openDesk,
  runCommand,
  say,
  send,
  shot,
  UI_TEST_TIMEOUT_MS,
  whenRecording,
} from "../harness/desk-page";
import { test } from "./support/desk-test";

test.describe.configure({ timeout: UI_TEST_TIMEOUT_MS });

const SEED = { "a.txt": "alpha\nbeta\n", "b.txt": "one x\n", "d.txt": "doomed\n" };

/** Approves a waiting edit in the tray. */
async function approveEdit(page: Page, id: string): Promise<void> {
  const found = page.locator(`[data-testid="tray-item"][data-edit-id="${id}"]`);
  await expect(found).toHaveAttribute("data-status", "pending");
  await found.getByTestId("tray-approve-button").click();
}

test("rewind to the first message: the preview lists each file's outcome, the agent's changes go back byte for byte, the person's stay, the text returns to the composer, and Back to where I was returns it all", async ({
  page,
  scriptedDesk,
}, testInfo) => {
  const desk = await scriptedDesk([
    [edit("e1", "a.txt", "beta", "BETA")],
    [runCommand("c1", "sed -i s/x/y/ b.txt")],
    [runCommand("c2", "echo made > c.txt")],
    [runCommand("c3", "rm d.txt")],
    [say("done one")],
    [runCommand("c4", "echo more >> a.txt")],
    [say("done two")],
  ]);
  for (const [path, content] of Object.entries(SEED)) writeFileSync(join(desk.workspace, path), content);
  const file = (path: string) => readFileSync(join(desk.workspace, path), "utf8");
  await openDesk(page, desk);
  await whenRecording(page);

  await send(page, "first");
  await approveEdit(page, "e1");
  for (const id of ["c1", "c2", "c3"])
    await (await expectPending(page, id)).getByTestId("tray-approve-button").click();
  await expect(page.getByTestId("assistant-message").filter({ hasText: "done one" })).toBeVisible();
  writeFileSync(join(desk.workspace, "b.txt"), "one y\nby hand\n"); // the person, meanwhile
  await send(page, "second");
  await (await expectPending(page, "c4")).getByTestId("tray-approve-button").click();
  await expect(page.getByTestId("assistant-message").filter({ hasText: "done two" })).toBeVisible();
  const before = { a: file("a.txt"), b: file("b.txt"), c: file("c.txt") };

  // The transcript draws only the entries near its view: the first message is at its top.
  await page.getByTestId("transcript").evaluate((el) => {
    el.scrollTop = 0;
  });
  const first = page.getByTestId("user-message").filter({ hasText: "first" });
  await expect(first).toHaveAttribute("data-entry-id", /.+/);
  await first.getByTestId("rewind-button").click();
  const preview = page.getByTestId("rewind-preview");
  await expect(preview.getByTestId("rewind-file")).toHaveCount(4);
  const rows = await preview
    .getByTestId("rewind-file")
    .evaluateAll((all) =>
      all.map((row) => `${row.getAttribute("data-path")} ${row.getAttribute("data-outcome")}`),
    );
  expect(rows).toEqual(["a.txt restored", "b.txt kept", "c.txt restored", "d.txt restored"]);
  await preview.locator('[data-path="b.txt"] summary').click();
  await expect(preview.locator('[data-path="b.txt"]').getByTestId("rewind-diff")).toContainText("by hand");
  await shot(page, testInfo, "rewind preview");

  // Cancel leaves everything as it is.
  await preview.getByTestId("rewind-cancel").click();
  await expect(preview).toHaveCount(0);
  expect(file("a.txt")).toBe(before.a);

  await page.getByTestId("transcript").evaluate((el) => {
    el.scrollTop = 0;
  });
  await first.getByTestId("rewind-button").click();
  await page.getByTestId("rewind-confirm").click();
  await expect(page.getByTestId("rewind-preview")).toHaveCount(0);
  await expect(page.getByTestId("user-message")).toHaveCount(0);
  await expect(page.getByTestId("prompt-input")).toHaveValue("first");
  expect(file("a.txt")).toBe(SEED["a.txt"]);
  expect(file("d.txt")).toBe(SEED["d.txt"]);
  expect(existsSync(join(desk.workspace, "c.txt"))).toBe(false);
  expect(file("b.txt")).toBe("one y\nby hand\n");
  await shot(page, testInfo, "after the rewind");

  await page.getByTestId("rewind-undo-button").click();
  await expect(page.getByTestId("user-message")).toHaveCount(2);
  await expect(page.getByTestId("rewind-undo-button")).toHaveCount(0);
  expect(file("a.txt")).toBe(before.a);
  expect(file("b.txt")).toBe(before.b);
  expect(file("c.txt")).toBe(before.c);
  expect(existsSync(join(desk.workspace, "d.txt"))).toBe(false);
  // A reload rebuilds the same conversation from the host.
  await page.reload();
  await expect(page.getByTestId("user-message")).toHaveCount(2);
});

test("edit and resend: the same preview, then one step rewinds and sends the edited text", async ({
  page,
  scriptedDesk,
}) => {
  const desk = await scriptedDesk([
    [runCommand("c1", "echo one > one.txt")],
    [say("made one")],
    [say("answered again")],
  ]);
  await openDesk(page, desk);
  await whenRecording(page);
  await send(page, "make one");
  await (await expectPending(page, "c1")).getByTestId("tray-approve-button").click();
  await expect(page.getByTestId("assistant-message").filter({ hasText: "made one" })).toBeVisible();

  await page.getByTestId("user-message").getByTestId("edit-message-button").click();
  const preview = page.getByTestId("rewind-preview");
  await expect(preview.locator('[data-testid="rewind-file"][data-path="one.txt"]')).toHaveAttribute(
    "data-outcome",
    "restored",
  );
  await preview.getByTestId("edit-message-input").fill("make nothing");
  await preview.getByTestId("rewind-confirm").click();
  await expect(page.getByTestId("user-message")).toHaveText([/make nothing/]);
  await expect(page.getByTestId("assistant-message").filter({ hasText: "answered again" })).toBeVisible();
  expect(existsSync(join(desk.workspace, "one.txt"))).toBe(false);
});

test("fork from here: a new chat from before the message, in the same folder, the message in its composer", async ({
  page,
  scriptedDesk,
}) => {
  const desk = await scriptedDesk([[runCommand("c1", "echo one > one.txt")], [say("made one")]]);
  await openDesk(page, desk);
  await whenRecording(page);
  await send(page, "make one");
  await (await expectPending(page, "c1")).getByTestId("tray-approve-button").click();
  await expect(page.getByTestId("assistant-message").filter({ hasText: "made one" })).toBeVisible();

  await page.getByTestId("user-message").getByTestId("fork-button").click();
  await expect(page.getByTestId("user-message")).toHaveCount(0);
  await expect(page.getByTestId("prompt-input")).toHaveValue("make one");
  // The files are the folder's as they are: a fork moves none.
  expect(readFileSync(join(desk.workspace, "one.txt"), "utf8")).toBe("one\n");
});
