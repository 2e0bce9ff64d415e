import type { BrowserWindow, Notification } from "electron";
import { describe, expect, it } from "vitest";
import { type AttentionShell, watchWaitingCommands } from "../../../src/main/electron/attention";
import { HOST_EVENT_CHANNEL } from "../../../src/shared/desk-api";
import { calls, pendingApproval, runCommand, settled, startHost, waitFor } from "../core/host-harness";

// Electron cannot run here: stand-ins for the window, the app and Notification record what the watch asks
// of them, and a real host (scripted model, real commands) drives it.
class FakeNotification {
  static supported = true;
  static made: FakeNotification[] = [];
  static isSupported = () => FakeNotification.supported;
  shown = false;
  closed = false;
  private readonly handlers = new Map<string, () => void>();
  constructor(readonly options: { title: string; body: string }) {
    FakeNotification.made.push(this);
  }
  on(event: string, handler: () => void) {
    this.handlers.set(event, handler);
    return this;
  }
  show() {
    this.shown = true;
  }
  close() {
    this.closed = true;
    this.handlers.get("close")?.();
  }
  click() {
    this.handlers.get("click")?.();
  }
}

function fakeShell(platform: NodeJS.Platform = "linux") {
  FakeNotification.made = [];
  const calls: string[] = [];
  const sent: [string, unknown][] = [];
  const badges: number[] = [];
  const overlays: (string | null)[] = [];
  let focused = false;
  const window = {
    isDestroyed: () => false,
    isFocused: () => focused,
    isMinimized: () => true,
    restore: () => calls.push("restore"),
    show: () => calls.push("show"),
    focus: () => calls.push("focus"),
    setOverlayIcon: (image: unknown, description: string) => overlays.push(image ? description : null),
    webContents: { send: (channel: string, payload: unknown) => sent.push([channel, payload]) },
  } as unknown as BrowserWindow;
  const shell: AttentionShell = {
    app: { setBadgeCount: (count?: number) => badges.push(count ?? 0) > 0 },
    window,
    Notification: FakeNotification as unknown as typeof Notification,
    nativeImage: { createFromBitmap: () => ({}) as never },
    platform,
  };
  return { shell, calls, sent, badges, overlays, setFocused: (value: boolean) => (focused = value) };
}

const script = [[runCommand("call-1", "echo one\necho two", 10)], [{ type: "text" as const, text: "Done." }]];

describe("the desktop app's attention for a waiting command", () => {
  it("notifies once while the window is not in front, brings the card forward on a click, and withdraws it once answered", async () => {
    const { host } = await startHost(script);
    const fake = fakeShell();
    const stop = watchWaitingCommands(host, fake.shell);
    await calls(host).prompt({ text: "Run it" });
    const approvalId = await pendingApproval(host, "call-1");

    expect(FakeNotification.made).toHaveLength(1);
    const [note] = FakeNotification.made;
    expect(note?.options).toEqual({
      title: "Pi Desk: a command waits for your approval",
      body: "Run it — echo one…",
    });
    expect(note?.shown).toBe(true);
    expect(fake.badges.at(-1)).toBe(1);

    note?.click();
    expect(fake.calls).toEqual(["restore", "show", "focus"]);
    expect(fake.sent).toEqual([
      [HOST_EVENT_CHANNEL, { type: "focus-command", chatId: host.state().chatId, id: "call-1" }],
    ]);

    await host.handlers.decide({ approvalId, decision: { kind: "approve" } });
    await settled(host);
    expect(note?.closed).toBe(true);
    expect(fake.badges.at(-1)).toBe(0);
    expect(FakeNotification.made).toHaveLength(1);
    stop();
  });

  it("stays quiet while the window is in front or notifications are off, but the badge still counts", async () => {
    const { host } = await startHost(script);
    const fake = fakeShell("win32");
    fake.setFocused(true);
    watchWaitingCommands(host, fake.shell);
    await host.handlers.setNotifications({ enabled: false });
    fake.setFocused(false);
    await calls(host).prompt({ text: "Run it" });
    await pendingApproval(host, "call-1");
    expect(FakeNotification.made).toEqual([]);
    expect(fake.overlays.at(-1)).toBe("Pi Desk: a command waits for your approval");
  });

  it("notifies of a file edit waiting too, and of each chat's, naming the chat", async () => {
    const { host } = await startHost({
      "edit it": [
        [{ type: "toolCall", id: "w1", name: "write", arguments: { path: "notes.md", content: "hi\n" } }],
        [{ type: "text", text: "Written." }],
      ],
      "run it": script,
    });
    const fake = fakeShell();
    watchWaitingCommands(host, fake.shell);
    const first = host.state().chatId as string;
    await calls(host, first).prompt({ text: "edit it" });
    await waitFor(() => host.state().inbox.length === 1);
    expect(FakeNotification.made.map((note) => note.options)).toEqual([
      { title: "Pi Desk: a file edit waits for your approval", body: "edit it — write notes.md" },
    ]);
    expect(fake.badges.at(-1)).toBe(1);
    const second = (await calls(host).newSession()).id;
    await calls(host, second).prompt({ text: "run it" });
    await waitFor(() => host.state().inbox.length === 2);
    expect(FakeNotification.made.map((note) => note.options.body)).toEqual([
      "edit it — write notes.md",
      "run it — echo one…",
    ]);
    expect(fake.badges.at(-1)).toBe(2);
    FakeNotification.made[0]?.click();
    expect(fake.sent.at(-1)).toEqual([
      HOST_EVENT_CHANNEL,
      { type: "focus-command", chatId: first, id: "w1" },
    ]);
  });
});
