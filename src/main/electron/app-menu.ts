import type { MenuItemConstructorOptions, WebContents } from "electron";
import { HOST_EVENT_CHANNEL } from "../../shared/desk-api";
import type { HostEvent, ShowViewEvent } from "../../shared/host-events";
import { errorMessage } from "../base/errors";
import type { DeskHandlers } from "../core/desk-host";

/** What Pi Desk's own menu items do; the shell wires them to the host and the window. */
export interface MenuActions {
  /** Open Folder…: the folder dialog, then that folder. */
  openFolder(): void;
  /** New Chat in the open folder. */
  newChat(): void;
  /** The Settings view. */
  settings(): void;
  /** The panel of the chat's running background commands. */
  runningCommands(): void;
  /** The README, in the person's viewer. */
  help(): void;
}

/**
 * The application menu: the standard roles (Edit, View, Window; the app menu on macOS) so copy, paste, zoom,
 * full screen and window switching work as in every app, and Pi Desk's own items. Settings sits where each
 * platform keeps it: in the app menu on macOS, in File elsewhere; Cmd/Ctrl+, on both.
 */
export function menuTemplate(platform: NodeJS.Platform, actions: MenuActions): MenuItemConstructorOptions[] {
  const mac = platform === "darwin";
  const settings: MenuItemConstructorOptions = {
    label: mac ? "Settings…" : "Settings",
    accelerator: "CmdOrCtrl+,",
    click: () => actions.settings(),
  };
  const file: MenuItemConstructorOptions = {
    label: "File",
    submenu: [
      { label: "Open Folder…", accelerator: "CmdOrCtrl+O", click: () => actions.openFolder() },
      { label: "New Chat", accelerator: "CmdOrCtrl+N", click: () => actions.newChat() },
      { label: "Running Commands", accelerator: "CmdOrCtrl+Shift+B", click: () => actions.runningCommands() },
      ...(mac
        ? []
        : [
            { type: "separator" as const },
            settings,
            { type: "separator" as const },
            { role: "quit" as const },
          ]),
    ],
  };
  const help: MenuItemConstructorOptions = {
    role: "help",
    submenu: [{ label: "Pi Desk README", click: () => actions.help() }],
  };
  const appMenu: MenuItemConstructorOptions = {
    label: "Pi Desk",
    submenu: [
      { role: "about" },
      { type: "separator" },
      settings,
      { type: "separator" },
      { role: "services" },
      { type: "separator" },
      { role: "hide" },
      { role: "hideOthers" },
      { role: "unhide" },
      { type: "separator" },
      { role: "quit" },
    ],
  };
  return [
    ...(mac ? [appMenu] : []),
    file,
    { role: "editMenu" },
    { role: "viewMenu" },
    { role: "windowMenu" },
    help,
  ];
}

/** What the menu's items reach, passed in so they can be tested without Electron. */
export interface MenuShell {
  /** The host's calls: the folder dialog and opening, a new chat. */
  handlers: Pick<DeskHandlers, "chooseWorkspace" | "newSession">;
  /** The window's page, to ask it for a view. */
  contents: Pick<WebContents, "send" | "isDestroyed">;
  /** Opens a file in the person's viewer (`shell.openPath`): resolves to "" or the error. */
  openPath(path: string): Promise<string>;
  /** The README's path. */
  readme: string;
  /** Tells the person something went wrong: a heading and what happened. */
  tell(message: string, detail: string): void;
}

/** The menu's actions over the host and the window: a failure is told, never lost in a click handler. */
export function menuActions(shell: MenuShell): MenuActions {
  const attempt = (what: string, task: () => Promise<unknown>) => () => {
    void task().catch((error: unknown) => shell.tell(what, errorMessage(error)));
  };
  const show = (view: ShowViewEvent["view"]) => () => {
    const event: HostEvent = { type: "show-view", view };
    if (!shell.contents.isDestroyed()) shell.contents.send(HOST_EVENT_CHANNEL, event);
  };
  return {
    openFolder: attempt("Pi Desk did not open that folder", () => shell.handlers.chooseWorkspace()),
    // The page knows which workspace it shows: it starts the chat there.
    newChat: show("new-chat"),
    settings: show("settings"),
    runningCommands: show("running"),
    help: attempt("Pi Desk could not open its README", async () => {
      const problem = await shell.openPath(shell.readme);
      if (problem)
        throw new Error(`${problem} (${shell.readme}). Read it in the Pi Desk repository instead.`);
    }),
  };
}
