import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { IpcMain, IpcMainInvokeEvent, WebContents } from "electron";
import { describe, expect, it } from "vitest";
import { DeskHost } from "../../../src/main/core/desk-host";
import { registerDeskIpc } from "../../../src/main/electron/ipc";
import { DESK_METHODS, HOST_EVENT_CHANNEL } from "../../../src/shared/desk-api";

// Electron's binary cannot run on this machine, so these tests stand in the two objects registerDeskIpc
// touches: a handler table with ipcMain's handle/removeHandler, and a window's WebContents.
type Handler = (event: IpcMainInvokeEvent, ...args: unknown[]) => Promise<unknown>;

const APP_FILE = "file:///app/out/renderer/index.html";

/** The handler table, the window's contents and a host, with the page at `appUrl` (the built app's file by default). */
async function setUp(appUrl = APP_FILE) {
  const handlers = new Map<string, Handler>();
  const sent: [string, unknown][] = [];
  const ipcMain = {
    handle: (channel: string, handler: Handler) => handlers.set(channel, handler),
    removeHandler: (channel: string) => handlers.delete(channel),
  } as unknown as IpcMain;
  const contents = {
    isDestroyed: () => false,
    send: (channel: string, payload: unknown) => sent.push([channel, payload]),
  } as unknown as WebContents;
  const mainFrame = { url: appUrl, parent: null };
  const host = await DeskHost.create({ shell: "electron", version: "test" });
  const unregister = registerDeskIpc(ipcMain, host, contents, appUrl);
  // A message as Electron hands it over: from the window's contents unless another sender is given.
  const invokeFrom = (sender: object, channel: string, frame: object | null, ...args: unknown[]) => {
    const handler = handlers.get(channel);
    if (!handler) return Promise.reject(new Error(`No handler registered for '${channel}'`));
    return handler({ sender, senderFrame: frame } as unknown as IpcMainInvokeEvent, ...args);
  };
  const invoke = (channel: string, frame: object | null, ...args: unknown[]) =>
    invokeFrom(contents, channel, frame, ...args);
  return { handlers, sent, host, mainFrame, invoke, invokeFrom, unregister };
}

describe("DeskApi over Electron IPC", () => {
  it("registers one prefixed channel per call, and nothing else", async () => {
    const { handlers } = await setUp();
    expect([...handlers.keys()].sort()).toEqual(
      [...DESK_METHODS].map((method) => `pi-desk:${method}`).sort(),
    );
  });

  it("answers the app's own top frame", async () => {
    const { invoke, mainFrame } = await setUp();
    await expect(invoke("pi-desk:getState", mainFrame)).resolves.toMatchObject({ shell: "electron" });
  });

  it.each([
    ["another page", { url: "https://evil.example/", parent: null }],
    ["an embedded frame", { url: "file:///app/out/renderer/index.html", parent: {} }],
    ["another local file", { url: "file:///tmp/evil.html", parent: null }],
    ["a frame that is gone", null],
  ])("refuses a call from %s", async (_label, frame) => {
    const { invoke } = await setUp();
    await expect(invoke("pi-desk:getState", frame)).rejects.toThrow("did not come from Pi Desk's own page");
  });

  it("refuses a message from another window's contents, even from that window's top frame at the app's URL", async () => {
    const { invokeFrom, mainFrame, host } = await setUp();
    // Another BrowserWindow, a <webview> or a devtools page: its own WebContents, which may load our file too.
    const other = { isDestroyed: () => false, send: () => {} };
    await expect(
      invokeFrom(
        other,
        "pi-desk:openWorkspace",
        { ...mainFrame },
        { path: mkdtempSync(join(tmpdir(), "pi-desk-ipc-")) },
      ),
    ).rejects.toThrow("did not come from Pi Desk's own page");
    expect(host.state().workspace).toBeNull();
  });

  it("refuses a sub-frame of our own page, at our own URL", async () => {
    const { invoke, mainFrame } = await setUp();
    const child = { url: APP_FILE, parent: mainFrame };
    await expect(invoke("pi-desk:getState", child)).rejects.toThrow("did not come from Pi Desk's own page");
  });

  it("answers the top frame until it navigates away, then refuses it", async () => {
    const { invoke, mainFrame } = await setUp();
    await expect(invoke("pi-desk:getState", mainFrame)).resolves.toMatchObject({ shell: "electron" });
    // Electron's senderFrame is the live frame: after a navigation its url is the new page's.
    for (const url of [
      "https://evil.example/",
      "file:///app/out/renderer/other.html",
      "data:text/html,x",
      "about:blank",
    ]) {
      mainFrame.url = url;
      await expect(invoke("pi-desk:getState", mainFrame)).rejects.toThrow(
        "did not come from Pi Desk's own page",
      );
    }
    mainFrame.url = APP_FILE;
    await expect(invoke("pi-desk:getState", mainFrame)).resolves.toMatchObject({ shell: "electron" });
  });

  describe("in development, with the page on the dev server", () => {
    const devUrl = "http://localhost:5173/";

    it.each([
      ["its root", devUrl],
      ["another of its paths", "http://localhost:5173/index.html?reload=1#chat"],
    ])("answers the top frame at %s (same origin)", async (_label, url) => {
      const { invoke } = await setUp(devUrl);
      await expect(invoke("pi-desk:getState", { url, parent: null })).resolves.toMatchObject({
        shell: "electron",
      });
    });

    it.each([
      ["another port", "http://localhost:5174/"],
      ["another host name for the same machine", "http://127.0.0.1:5173/"],
      ["https on the same host and port", "https://localhost:5173/"],
      ["a look-alike host", "http://localhost.evil.example:5173/"],
      ["the built app's file", APP_FILE],
      ["a page elsewhere", "https://evil.example/"],
    ])("refuses the top frame at %s", async (_label, url) => {
      const { invoke } = await setUp(devUrl);
      await expect(invoke("pi-desk:getState", { url, parent: null })).rejects.toThrow(
        "did not come from Pi Desk's own page",
      );
    });
  });

  it("refuses a malformed payload with a clear error and changes nothing", async () => {
    const { invoke, mainFrame, host, sent } = await setUp();
    await expect(invoke("pi-desk:openWorkspace", mainFrame, { path: 1 })).rejects.toThrow(
      /^Invalid parameters for openWorkspace: \/path must be string/,
    );
    await expect(invoke("pi-desk:openWorkspace", mainFrame, { path: "/tmp" }, "extra")).rejects.toThrow(
      "send at most one parameter object",
    );
    expect(host.state().workspace).toBeNull();
    expect(sent).toEqual([]);
  });

  it("has no handler for an unknown channel", async () => {
    const { invoke, mainFrame } = await setUp();
    await expect(invoke("pi-desk:runAnything", mainFrame)).rejects.toThrow("No handler registered");
  });

  it("forwards host events to the window on the event channel, and stops when taken down", async () => {
    const { invoke, mainFrame, sent, unregister, handlers, host } = await setUp();
    const folder = mkdtempSync(join(tmpdir(), "pi-desk-ipc-"));
    await invoke("pi-desk:openWorkspace", mainFrame, { path: folder });
    // The workspace the opening told of, numbered (the chat and the change records' figures follow).
    const state = host.state();
    expect(sent[0]).toEqual([
      HOST_EVENT_CHANNEL,
      { type: "workspaces-changed", workspaces: state.workspaces, seq: 1 },
    ]);
    await host.dispose();
    unregister();
    expect(handlers.size).toBe(0);
  });
});
