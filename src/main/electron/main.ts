import { join, resolve } from "node:path";
import {
  app,
  type BrowserWindow,
  dialog,
  ipcMain,
  Notification,
  nativeImage,
  type OpenDialogOptions,
} from "electron";
import { errorMessage } from "../base/errors";
import { DeskHost } from "../core/desk-host";
import { resolveWorkspace } from "../core/workspace";
import { watchWaitingCommands } from "./attention";
import { registerDeskIpc } from "./ipc";
import { createKeychainSecretStore } from "./keychain-secrets";
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
  let refusal: string | undefined;
  const workspace = requested
    ? await resolveWorkspace(resolve(requested)).catch((error: unknown) => {
        refusal = errorMessage(error);
        return undefined;
      })
    : undefined;
  let window: BrowserWindow | undefined;
  const host = await DeskHost.create({
    shell: "electron",
    version: app.getVersion(),
    workspace,
    secrets: createKeychainSecretStore(join(app.getPath("userData"), "api-keys.json")),
    pickFolder: async () => {
      const options: OpenDialogOptions = { properties: ["openDirectory", "createDirectory"] };
      const picked = window
        ? await dialog.showOpenDialog(window, options)
        : await dialog.showOpenDialog(options);
      return picked.canceled ? null : (picked.filePaths[0] ?? null);
    },
  });
  window = createMainWindow();
  // The window opens without a workspace then (the person picks one); say why the asked one was not opened.
  if (refusal) {
    const detail = refusal;
    window.once("ready-to-show", () => {
      if (window)
        void dialog.showMessageBox(window, {
          type: "warning",
          message: "Pi Desk did not open that folder",
          detail,
        });
    });
  }
  // Registered before the page's scripts run (loading is asynchronous), so its first call finds a handler.
  const unregister = registerDeskIpc(ipcMain, host, window.webContents, rendererUrl());
  const unwatch = watchWaitingCommands(host, {
    app,
    window,
    Notification,
    nativeImage,
    platform: process.platform,
  });
  // Quitting kills every running command's process tree and closes the Pi session first: commands run
  // detached, so a quit that did not wait would leave them running (until the next start reaps them).
  let state: "open" | "closing" | "closed" = "open";
  app.on("before-quit", (event) => {
    if (state === "closed") return;
    event.preventDefault();
    if (state === "closing") return;
    state = "closing";
    unregister();
    unwatch();
    void host.dispose().finally(() => {
      state = "closed";
      app.quit();
    });
  });
}

// A failure in start (the host, the models, the stored keys) too, not only in whenReady: never a running
// app without a window and without a word.
app
  .whenReady()
  .then(start)
  .catch((error: unknown) => {
    dialog.showErrorBox("Pi Desk could not start", String(error));
    app.quit();
  });
app.on("window-all-closed", () => app.quit());
