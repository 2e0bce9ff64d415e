import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { _electron as electron, expect, test } from "@playwright/test";
import { card, expectPending, processesMatching, runCommand, say, send } from "../../harness/desk-page";
import { DESK_METHODS } from "../../src/shared/desk-api";
import { findElectronBinary } from "../support/electron-binary";

const binary = findElectronBinary();

/**
 * Starts the built app on a workspace and waits until its window shows it. Each launch gets a config folder
 * of its own (userData, where the single-instance lock and the window's bounds live) unless given one, so a
 * Pi Desk the developer has open never takes the test's launch over.
 */
async function launchOn(workspace: string, env: Record<string, string> = {}) {
  const app = await electron.launch({
    executablePath: binary.path ?? undefined,
    args: ["out/main/index.js", "--workspace", workspace],
    env: {
      ...(process.env as Record<string, string>),
      XDG_CONFIG_HOME: mkdtempSync(join(tmpdir(), "pi-desk-electron-config-")),
      ...env,
    },
  });
  const window = await app.firstWindow();
  await expect(window.getByTestId("workspace-name")).toHaveText(basename(workspace));
  return { app, window, workspace };
}

test("the desktop app opens a hardened window showing the workspace", async () => {
  test.skip(binary.path === null, binary.path === null ? `Electron: ${binary.reason}` : "");
  const { app, window } = await launchOn(mkdtempSync(join(tmpdir(), "pi-desk-electron-")));
  const exposed = await window.evaluate(() => ({
    node: typeof (globalThis as { require?: unknown }).require,
    api: Object.keys((window as unknown as { piDesk: object }).piDesk).sort(),
  }));
  expect(exposed.node).toBe("undefined");
  expect(exposed.api).toEqual([...DESK_METHODS, "onHostEvent"].sort());
  await app.close();
});

test("a crashed renderer is loaded again and shows the workspace", async () => {
  test.skip(binary.path === null, binary.path === null ? `Electron: ${binary.reason}` : "");
  const { app, workspace } = await launchOn(mkdtempSync(join(tmpdir(), "pi-desk-electron-")));
  await app.evaluate(({ BrowserWindow }) =>
    BrowserWindow.getAllWindows()[0]?.webContents.forcefullyCrashRenderer(),
  );
  // Read through the main process: the crashed page's Playwright handle may not follow the reload.
  const shownWorkspace = () =>
    app.evaluate(({ BrowserWindow }) => {
      const contents = BrowserWindow.getAllWindows()[0]?.webContents;
      return contents && !contents.isCrashed()
        ? contents.executeJavaScript(
            'document.querySelector("[data-testid=workspace-name]")?.textContent ?? null',
          )
        : null;
    });
  await expect.poll(shownWorkspace, { timeout: 15_000 }).toBe(basename(workspace));
  await app.close();
});

test("quitting ends a running command's process tree before the app exits", async () => {
  test.skip(binary.path === null, binary.path === null ? `Electron: ${binary.reason}` : "");
  const home = mkdtempSync(join(tmpdir(), "pi-desk-electron-home-"));
  const script = join(home, "script.json");
  writeFileSync(
    script,
    JSON.stringify([[runCommand("call-long", "sleep 327.5", 120)], [say("unreachable")]]),
  );
  const { app, window } = await launchOn(mkdtempSync(join(tmpdir(), "pi-desk-electron-")), {
    PI_DESK_SCRIPT: script,
    PI_OFFLINE: "1",
    PI_CODING_AGENT_DIR: join(home, "agent"),
    PI_DESK_DATA_DIR: join(home, "data"),
  });
  await send(window, "Wait a while");
  await (await expectPending(window, "call-long")).getByTestId("tray-approve-button").click();
  await expect(card(window, "call-long")).toHaveAttribute("data-status", "running");
  // Electron's message box cannot be clicked from here: it is answered in the main process instead,
  // first "Cancel" (the command runs on), then "Quit".
  const answerQuit = (response: number) =>
    app.evaluate(({ dialog }, answer) => {
      const asked: string[] = [];
      (globalThis as { asked?: string[] }).asked = asked;
      dialog.showMessageBox = (async (...args: unknown[]) => {
        asked.push((args.at(-1) as { message: string }).message);
        return { response: answer, checkboxChecked: false };
      }) as typeof dialog.showMessageBox;
    }, response);
  await answerQuit(1);
  await app.evaluate(({ app }) => app.quit());
  await expect
    .poll(() => app.evaluate(() => (globalThis as { asked?: string[] }).asked))
    .toEqual(["Quit and stop 1 running command (sleep 327.5)?"]);
  await expect(card(window, "call-long")).toHaveAttribute("data-status", "running");
  await answerQuit(0);
  await app.close();
  expect(processesMatching("sleep 327.5").filter((line) => line.endsWith(" sleep 327.5"))).toEqual([]);
});

test("a command's changes show on its card, and undo puts them back", async () => {
  test.skip(binary.path === null, binary.path === null ? `Electron: ${binary.reason}` : "");
  const home = mkdtempSync(join(tmpdir(), "pi-desk-electron-home-"));
  const script = join(home, "script.json");
  writeFileSync(script, JSON.stringify([[runCommand("call-edit", "echo new > a.txt")], [say("Edited.")]]));
  const workspace = mkdtempSync(join(tmpdir(), "pi-desk-electron-"));
  writeFileSync(join(workspace, "a.txt"), "old\n");
  const { app, window } = await launchOn(workspace, {
    PI_DESK_SCRIPT: script,
    PI_OFFLINE: "1",
    PI_CODING_AGENT_DIR: join(home, "agent"),
    PI_DESK_DATA_DIR: join(home, "data"),
  });
  await window.getByTestId("nav-settings").click();
  await expect(window.getByTestId("changes-settings")).toHaveAttribute("data-state", "on");
  await window.getByTestId("nav-chat").click();
  await send(window, "Edit it");
  await (await expectPending(window, "call-edit")).getByTestId("tray-approve-button").click();
  const edited = card(window, "call-edit");
  await expect(edited.getByTestId("changes-summary")).toHaveAttribute("data-files", "1");
  await edited.getByTestId("undo-button").click();
  await edited.getByTestId("undo-confirm-button").click();
  await expect(edited.getByTestId("undo-result")).toHaveAttribute("data-state", "done");
  expect(readFileSync(join(workspace, "a.txt"), "utf8")).toBe("old\n");
  await app.close();
});

test("an agent's file edit shows its diff and is written only once approved", async () => {
  test.skip(binary.path === null, binary.path === null ? `Electron: ${binary.reason}` : "");
  const home = mkdtempSync(join(tmpdir(), "pi-desk-electron-home-"));
  const script = join(home, "script.json");
  const edit = {
    type: "toolCall",
    id: "call-e1",
    name: "edit",
    arguments: { path: "a.txt", edits: [{ oldText: "old", newText: "new" }] },
  };
  writeFileSync(script, JSON.stringify([[edit], [say("Edited.")]]));
  const workspace = mkdtempSync(join(tmpdir(), "pi-desk-electron-"));
  writeFileSync(join(workspace, "a.txt"), "old\n");
  const { app, window } = await launchOn(workspace, {
    PI_DESK_SCRIPT: script,
    PI_OFFLINE: "1",
    PI_CODING_AGENT_DIR: join(home, "agent"),
    PI_DESK_DATA_DIR: join(home, "data"),
  });
  await send(window, "Edit it");
  // Decided in the approval tray, where its full card is while it waits.
  const pending = window.locator('[data-testid="tray-item"][data-edit-id="call-e1"]');
  await expect(pending).toHaveAttribute("data-status", "pending");
  await expect(pending.getByTestId("diff-line").and(window.locator('[data-kind="add"]'))).toHaveCount(1);
  expect(readFileSync(join(workspace, "a.txt"), "utf8")).toBe("old\n");
  await pending.getByTestId("tray-approve-button").click();
  const applied = window.locator('[data-testid="edit-card"][data-edit-id="call-e1"]');
  await expect(applied).toHaveAttribute("data-status", "applied");
  expect(readFileSync(join(workspace, "a.txt"), "utf8")).toBe("new\n");
  await app.close();
});

test("a second launch hands over to the first: the window comes forward and opens the folder it names", async () => {
  test.skip(binary.path === null, binary.path === null ? `Electron: ${binary.reason}` : "");
  const config = mkdtempSync(join(tmpdir(), "pi-desk-electron-config-"));
  const { app, window } = await launchOn(mkdtempSync(join(tmpdir(), "pi-desk-electron-")), {
    XDG_CONFIG_HOME: config,
  });
  const other = mkdtempSync(join(tmpdir(), "pi-desk-electron-other-"));
  const second = spawn(binary.path as string, ["out/main/index.js", "--workspace", other], {
    env: { ...process.env, XDG_CONFIG_HOME: config },
    stdio: "ignore",
  });
  // The second one leaves at once, handing its command line over.
  const code = await new Promise((resolve) => second.once("exit", resolve));
  expect(code).toBe(0);
  await expect(window.getByTestId("workspace-name")).toHaveText(basename(other));
  await app.close();
});

test("the window opens where it was left, and the menu has Pi Desk's items", async () => {
  test.skip(binary.path === null, binary.path === null ? `Electron: ${binary.reason}` : "");
  const config = mkdtempSync(join(tmpdir(), "pi-desk-electron-config-"));
  const workspace = mkdtempSync(join(tmpdir(), "pi-desk-electron-"));
  const first = await launchOn(workspace, { XDG_CONFIG_HOME: config });
  const placed = { x: 40, y: 60, width: 900, height: 640 };
  await first.app.evaluate(
    ({ BrowserWindow }, bounds) => BrowserWindow.getAllWindows()[0]?.setBounds(bounds),
    placed,
  );
  const labels = await first.app.evaluate(({ Menu }) =>
    Menu.getApplicationMenu()?.items.map((item) => item.label),
  );
  expect(labels).toEqual(expect.arrayContaining(["File", "Edit", "View", "Window", "Help"]));
  // Settings from the menu shows the Settings view.
  await first.app.evaluate(({ Menu, BrowserWindow }) => {
    const find = (items: Electron.MenuItem[]): Electron.MenuItem | undefined =>
      items
        .map((item) => (/^Settings/.test(item.label) ? item : find(item.submenu?.items ?? [])))
        .find(Boolean);
    const settings = find(Menu.getApplicationMenu()?.items ?? []);
    settings?.click(undefined, BrowserWindow.getAllWindows()[0], undefined as never);
  });
  await expect(first.window.getByTestId("settings-view")).toBeVisible();
  await first.app.close();

  const again = await launchOn(workspace, { XDG_CONFIG_HOME: config });
  const bounds = await again.app.evaluate(({ BrowserWindow }) =>
    BrowserWindow.getAllWindows()[0]?.getBounds(),
  );
  expect(bounds).toEqual(placed);
  await again.app.close();
});
