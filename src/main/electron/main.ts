import { join } from "node:path";
import { app, dialog, ipcMain, Menu, Notification, nativeImage, screen, shell } from "electron";
import { DeskHost } from "../core/desk-host";
import { menuActions, menuTemplate } from "./app-menu";
import { watchWaitingCommands } from "./attention";
import { desktopDialogs } from "./desktop-dialogs";
import { registerDeskIpc } from "./ipc";
import { createKeychainSecretStore } from "./keychain-secrets";
import { guardQuit } from "./quit-guard";
import { answerSecondLaunch, claimSingleInstance, type SingleInstance } from "./single-instance";
import { createMainWindow, openInBrowser, rendererUrl } from "./window";
import { openingBounds, readSavedBounds, rememberBounds } from "./window-bounds";
import { applyWindowRules, bringForward } from "./window-rules";

// Every renderer is sandboxed, whatever a window's own settings say.
app.enableSandbox();

async function start(instance: SingleInstance): Promise<void> {
  const dialogs = desktopDialogs(dialog);
  const host = await DeskHost.create({
    shell: "electron",
    version: app.getVersion(),
    secrets: createKeychainSecretStore(join(app.getPath("userData"), "api-keys.json")),
    pickFolder: () => dialogs.pickFolder(),
    // An MCP server's sign-in page, in the system browser (the page shows its link too).
    openExternal: openInBrowser,
  });
  // The window where the person left it, on a display that still exists.
  const boundsFile = join(app.getPath("userData"), "window-bounds.json");
  const primary = screen.getPrimaryDisplay();
  const workAreas = [primary, ...screen.getAllDisplays().filter((d) => d.id !== primary.id)].map(
    (d) => d.workArea,
  );
  const window = createMainWindow(openingBounds(readSavedBounds(boundsFile), workAreas));
  dialogs.attach(window);
  rememberBounds(window, boundsFile);
  // Registered before the page's scripts run (loading is asynchronous), so its first call finds a handler.
  const unregister = registerDeskIpc(ipcMain, host, window.webContents, rendererUrl());
  const unwatch = watchWaitingCommands(host, {
    app,
    window,
    Notification,
    nativeImage,
    platform: process.platform,
  });
  const quit = guardQuit({
    app,
    host,
    ask: (question) => dialogs.confirm(question, "Quit"),
    beforeDispose: () => {
      unregister();
      unwatch();
    },
  });
  applyWindowRules({ app, window, platform: process.platform, quitting: quit.quitting });
  const actions = menuActions({
    handlers: host.handlers,
    contents: window.webContents,
    openPath: (path) => shell.openPath(path),
    readme: join(app.getAppPath(), "README.md"),
    tell: dialogs.tell,
  });
  Menu.setApplicationMenu(Menu.buildFromTemplate(menuTemplate(process.platform, actions)));
  const launches = {
    host,
    bringForward: () => bringForward(window),
    tell: dialogs.tell,
  };
  // `--workspace <folder>` at start is this launch's own forwarding: the same checks, the same refusals
  // (another Pi Desk holds it, it is the home folder), shown in the window that offers another folder.
  window.once(
    "ready-to-show",
    () => void answerSecondLaunch(launches, { argv: process.argv, cwd: process.cwd() }),
  );
  instance.handle((launch) => void answerSecondLaunch(launches, launch));
}

const instance = claimSingleInstance(app);
if (!instance) {
  // Another Pi Desk runs: Electron hands it this launch's command line (`--workspace`), and it takes over.
  app.quit();
} else {
  // A failure in start (the host, the models, the stored keys) too, not only in whenReady: never a running
  // app without a window and without a word.
  app
    .whenReady()
    .then(() => start(instance))
    .catch((error: unknown) => {
      dialog.showErrorBox("Pi Desk could not start", String(error));
      app.quit();
    });
}
