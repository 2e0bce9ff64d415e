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

async function setUp() {
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
  const mainFrame = { url: "file:///app/out/renderer/index.html", parent: null };
  const host = await DeskHost.create({ shell: "electron", version: "test" });
  const unregister = registerDeskIpc(ipcMain, host, contents, "file:///app/out/renderer/index.html");
  const invoke = (channel: string, frame: object | null, ...args: unknown[]) => {
    const handler = handlers.get(channel);
    if (!handler) return Promise.reject(new Error(`No handler registered for '${channel}'`));
    return handler({ sender: contents, senderFrame: frame } as unknown as IpcMainInvokeEvent, ...args);
  };
  return { handlers, sent, host, mainFrame, invoke, unregister };
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
    // The snapshot the workspace's opening sent (the change records may report their first figures too).
    const snapshots = sent.filter(([, event]) => (event as { type: string }).type === "snapshot");
    expect(snapshots).toEqual([
      [HOST_EVENT_CHANNEL, { type: "snapshot", state: { ...host.state(), hostTime: expect.any(Number) } }],
    ]);
    await host.dispose();
    unregister();
    expect(handlers.size).toBe(0);
  });
});
