import type { App, BrowserWindow } from "electron";

/** The parts of Electron the window rules use, passed in so they can be tested without Electron. */
export interface WindowRulesShell {
  /** The app: `activate` (a click on the dock icon) and quitting. */
  app: Pick<App, "on" | "quit">;
  /** The main window. */
  window: Pick<BrowserWindow, "on" | "hide" | "show" | "focus" | "isDestroyed" | "isMinimized" | "restore">;
  /** The OS (`process.platform`). */
  platform: NodeJS.Platform;
  /** Whether a quit is under way (see `guardQuit`): the window then really closes. */
  quitting(): boolean;
}

/**
 * Each platform's convention for the one window. On macOS closing the window does not quit: the app stays in
 * the dock, and its commands (a dev server in the background) run on; a click on the dock icon brings the
 * window back (`activate`), and Cmd+Q quits, through the quit guard's question. On Windows and Linux closing
 * the window is quitting, so it goes through the same question first, and the window stays when the person
 * says no (a window closed before the question would leave an app running with nothing to answer it in).
 */
export function applyWindowRules(shell: WindowRulesShell): void {
  const { app, window, platform } = shell;
  window.on("close", (event) => {
    if (shell.quitting()) return;
    event.preventDefault();
    if (platform === "darwin") window.hide();
    else app.quit();
  });
  app.on("activate", () => bringForward(window));
  // Reached only once a quit was decided (the close above keeps the window until then).
  app.on("window-all-closed", () => app.quit());
}

/** Shows the window in front: restored when minimised, shown when hidden. */
export function bringForward(window: WindowRulesShell["window"]): void {
  if (window.isDestroyed()) return;
  if (window.isMinimized()) window.restore();
  window.show();
  window.focus();
}
