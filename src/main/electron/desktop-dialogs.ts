import type { BaseWindow, Dialog, MessageBoxOptions, OpenDialogOptions } from "electron";

/** The desktop app's questions and messages, on its window once it has one. */
export interface DesktopDialogs {
  /** Names the window the dialogs belong to. */
  attach(window: Pick<BaseWindow, "isDestroyed" | "isVisible">): void;
  /** The folder dialog; null when the person cancels. */
  pickFolder(): Promise<string | null>;
  /** Asks before something that stops work: `action` (the default is Cancel) or Cancel; true for `action`. */
  confirm(question: string, action: string): Promise<boolean>;
  /** Tells the person something went wrong: a heading and what happened. */
  tell(message: string, detail: string): void;
}

/**
 * Electron's dialogs, as sheets of the window while it shows; without one (a hidden window on macOS, whose
 * app stays in the dock) they stand alone, since a sheet of a hidden window would never be seen.
 */
export function desktopDialogs(dialog: Pick<Dialog, "showOpenDialog" | "showMessageBox">): DesktopDialogs {
  let window: Pick<BaseWindow, "isDestroyed" | "isVisible"> | undefined;
  const parent = () =>
    window && !window.isDestroyed() && window.isVisible() ? (window as BaseWindow) : undefined;
  const message = (options: MessageBoxOptions) => {
    const on = parent();
    return on ? dialog.showMessageBox(on, options) : dialog.showMessageBox(options);
  };
  return {
    attach: (next) => {
      window = next;
    },
    pickFolder: async () => {
      const options: OpenDialogOptions = { properties: ["openDirectory", "createDirectory"] };
      const on = parent();
      const picked = on ? await dialog.showOpenDialog(on, options) : await dialog.showOpenDialog(options);
      return picked.canceled ? null : (picked.filePaths[0] ?? null);
    },
    confirm: async (question, action) => {
      // Cancel by default: an Enter pressed without reading must not end running work.
      const { response } = await message({
        type: "question",
        message: question,
        buttons: [action, "Cancel"],
        defaultId: 1,
        cancelId: 1,
      });
      return response === 0;
    },
    tell: (text, detail) => {
      void message({ type: "warning", message: text, detail, buttons: ["OK"] });
    },
  };
}
