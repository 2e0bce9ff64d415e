import { resolve } from "node:path";
import { app, dialog, ipcMain } from "electron";
import { DeskHost } from "./host/desk-host";
import { resolveWorkspace } from "./host/workspace";
import { registerDeskIpc } from "./ipc";
import { createMainWindow, rendererUrl } from "./window";

// Every renderer is sandboxed, whatever a window's own settings say.
app.enableSandbox();

/** `pi-desk --workspace <folder>` opens that folder at start. */
function workspaceArgument(argv: string[]): string | undefined {
  const at = argv.indexOf("--workspace");
  return at >= 0 ? argv[at + 1] : undefined;
}

async function start(): Promise<void> {
  const requested = workspaceArgument(process.argv);
  const workspace = requested ? await resolveWorkspace(resolve(requested)).catch(() => undefined) : undefined;
  const window = createMainWindow();
  const host = new DeskHost({
    shell: "electron",
    version: app.getVersion(),
    workspace,
    pickFolder: async () => {
      const picked = await dialog.showOpenDialog(window, {
        properties: ["openDirectory", "createDirectory"],
      });
      return picked.canceled ? null : (picked.filePaths[0] ?? null);
    },
  });
  const unregister = registerDeskIpc(ipcMain, host, window.webContents, rendererUrl());
  window.on("closed", () => {
    unregister();
    void host.dispose();
  });
}

app.whenReady().then(start, (error: unknown) => {
  dialog.showErrorBox("Pi Desk could not start", String(error));
  app.quit();
});
app.on("window-all-closed", () => app.quit());
