import type { MenuItemConstructorOptions } from "electron";
import { describe, expect, it } from "vitest";
import { menuActions, menuTemplate } from "../../../src/main/electron/app-menu";
import { HOST_EVENT_CHANNEL } from "../../../src/shared/desk-api";
import { startHost } from "../core/host-harness";

// The application menu as a template (Electron builds it where it runs) and its actions over a real host
// and a stand-in for the window's page.

const labels = (items: MenuItemConstructorOptions[]) => items.map((item) => item.label ?? item.role);
const submenu = (items: MenuItemConstructorOptions[], label: string) =>
  (items.find((item) => item.label === label)?.submenu ?? []) as MenuItemConstructorOptions[];
const noop = { openFolder() {}, newChat() {}, settings() {}, runningCommands() {}, help() {} };

describe("the application menu", () => {
  it("has the standard menus and Pi Desk's own items, Settings where each platform keeps it", () => {
    const linux = menuTemplate("linux", noop);
    expect(labels(linux)).toEqual(["File", "editMenu", "viewMenu", "windowMenu", "help"]);
    expect(labels(submenu(linux, "File")).filter(Boolean)).toEqual([
      "Open Folder…",
      "New Chat",
      "Running Commands",
      "Settings",
      "quit",
    ]);
    expect(submenu(linux, "File").find((item) => item.label === "Settings")?.accelerator).toBe("CmdOrCtrl+,");

    const mac = menuTemplate("darwin", noop);
    expect(labels(mac)).toEqual(["Pi Desk", "File", "editMenu", "viewMenu", "windowMenu", "help"]);
    expect(submenu(mac, "Pi Desk").find((item) => item.label === "Settings…")?.accelerator).toBe(
      "CmdOrCtrl+,",
    );
    expect(labels(submenu(mac, "File"))).not.toContain("Settings");
    const accelerators = [...submenu(mac, "File"), ...submenu(mac, "Pi Desk")].map(
      (item) => item.accelerator,
    );
    // None of Pi Desk's shortcuts takes one of the View menu's (Reload is Cmd+R, Force Reload Cmd+Shift+R).
    expect(accelerators).not.toContain("CmdOrCtrl+R");
    expect(accelerators).not.toContain("CmdOrCtrl+Shift+R");
  });

  it("asks the page for Settings and the running commands, starts a new chat, and says when the README will not open", async () => {
    const { host } = await startHost([]);
    const sent: unknown[] = [];
    const told: [string, string][] = [];
    const actions = menuActions({
      handlers: host.handlers,
      contents: {
        send: (channel: string, event: unknown) => sent.push([channel, event]),
        isDestroyed: () => false,
      },
      openPath: async () => "No application knows how to open it",
      readme: "/app/README.md",
      tell: (message, detail) => told.push([message, detail]),
    });
    actions.settings();
    actions.runningCommands();
    actions.newChat();
    expect(sent).toEqual([
      [HOST_EVENT_CHANNEL, { type: "show-view", view: "settings" }],
      [HOST_EVENT_CHANNEL, { type: "show-view", view: "running" }],
      [HOST_EVENT_CHANNEL, { type: "show-view", view: "new-chat" }],
    ]);

    actions.help();
    actions.openFolder(); // the browser host's core has no folder dialog: the error is told
    await expect.poll(() => told.length).toBe(2);
    expect(told).toContainEqual([
      "Pi Desk could not open its README",
      "No application knows how to open it (/app/README.md). Read it in the Pi Desk repository instead.",
    ]);
    expect(told.map(([message]) => message)).toContain("Pi Desk did not open that folder");
  });
});
