import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { _electron as electron, expect, test } from "@playwright/test";
import { DESK_METHODS } from "../../src/shared/desk-api";
import { findElectronBinary } from "../support/electron-binary";

const binary = findElectronBinary();

/** Starts the built app on a workspace and waits until its window shows it. */
async function launchOn(workspace: string) {
  const app = await electron.launch({
    executablePath: binary.path ?? undefined,
    args: ["out/main/index.js", "--workspace", workspace],
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
