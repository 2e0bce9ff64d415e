import { join } from "node:path";
import { BrowserWindow, session, shell } from "electron";
import { type OpeningBounds, WINDOW_SIZE } from "./window-bounds";

/** Where the renderer comes from: the dev server in `electron-vite dev`, else the built file. */
export function rendererUrl(): string {
  const devServer = process.env.ELECTRON_RENDERER_URL;
  if (devServer) return devServer;
  return new URL(`file://${join(import.meta.dirname, "../renderer/index.html")}`).href;
}

/** How often a crashed page is loaded again within a minute before the window is left as it is. */
const MAX_RELOADS_PER_MINUTE = 3;

/** Opens an http(s) URL in the person's browser; any other scheme (file:, javascript:, custom) is ignored. */
export function openInBrowser(url: string): void {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return;
  }
  if (parsed.protocol === "https:" || parsed.protocol === "http:") void shell.openExternal(parsed.href);
}

/**
 * The main window, hardened per Electron's security checklist: an isolated, sandboxed renderer without
 * Node, which may not navigate, open windows, attach webviews or be granted any permission.
 */
export function createMainWindow(bounds: OpeningBounds): BrowserWindow {
  const window = new BrowserWindow({
    ...(bounds.x === undefined || bounds.y === undefined ? {} : { x: bounds.x, y: bounds.y }),
    width: bounds.width,
    height: bounds.height,
    minWidth: WINDOW_SIZE.minWidth,
    minHeight: WINDOW_SIZE.minHeight,
    show: false,
    title: "Pi Desk",
    webPreferences: {
      preload: join(import.meta.dirname, "../preload/index.cjs"),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      spellcheck: false,
      // A middle click would open links in a new window before setWindowOpenHandler sees it.
      disableBlinkFeatures: "Auxclick",
    },
  });
  const contents = window.webContents;
  const home = rendererUrl();

  // The app is one page: any navigation away from it is refused, and so is every new window. A link to a
  // web page (in the agent's Markdown) opens in the person's browser instead, and nothing else does.
  contents.on("will-navigate", (event, url) => {
    if (url === home) return;
    event.preventDefault();
    openInBrowser(url);
  });
  contents.on("will-redirect", (event) => event.preventDefault());
  contents.setWindowOpenHandler(({ url }) => {
    openInBrowser(url);
    return { action: "deny" };
  });
  contents.on("will-attach-webview", (event) => event.preventDefault());

  // No camera, microphone, notifications, geolocation or anything else: Pi Desk needs none of them.
  const ses = session.defaultSession;
  ses.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  ses.setPermissionCheckHandler(() => false);

  // A crashed renderer leaves a blank window. The host kept everything (pending commands still wait, running
  // ones go on), so loading the page again brings it all back; a page that keeps crashing is not retried
  // forever.
  let crashes: number[] = [];
  contents.on("render-process-gone", (_event, details) => {
    if (details.reason === "clean-exit") return;
    const now = Date.now();
    crashes = [...crashes.filter((at) => now - at < 60_000), now];
    if (crashes.length <= MAX_RELOADS_PER_MINUTE) void contents.loadURL(home);
  });

  window.once("ready-to-show", () => {
    if (bounds.maximized) window.maximize();
    window.show();
  });
  void window.loadURL(home);
  return window;
}
