import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { useWaitingNotifications } from "../../src/renderer/src/features/attention/waiting-notifications";
import { NotificationSettings } from "../../src/renderer/src/features/settings/NotificationSettings";
import { waitingBody, waitingChanges, waitingIds } from "../../src/shared/attention";
import type { HostState } from "../../src/shared/host-state";
import { fakeApi, hostState, pendingCommand, session } from "./fixtures";

/** jsdom has no Notification: a stand-in that records what the page asks of the browser. */
class FakeNotification {
  static permission: NotificationPermission = "granted";
  static requestPermission = vi.fn(async () => FakeNotification.permission);
  static made: FakeNotification[] = [];
  closed = false;
  onclick: (() => void) | null = null;
  constructor(
    readonly title: string,
    readonly options: NotificationOptions,
  ) {
    FakeNotification.made.push(this);
  }
  close() {
    this.closed = true;
  }
}

beforeEach(() => {
  FakeNotification.made = [];
  FakeNotification.permission = "granted";
  FakeNotification.requestPermission.mockClear();
  vi.stubGlobal("Notification", FakeNotification);
  vi.spyOn(document, "hasFocus").mockReturnValue(false);
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

function Probe({ host, focus }: { host: HostState; focus: (id: string) => void }) {
  useWaitingNotifications(host, focus);
  return null;
}

const withWaiting = (ids: string[], more: Partial<HostState> = {}) =>
  hostState({
    session: session({
      commands: Object.fromEntries(
        ids.map((id) => [id, pendingCommand({ id, command: `echo ${id}\necho more` })]),
      ),
    }),
    ...more,
  });

describe("which commands wait", () => {
  it("tells the ones that started waiting from the ones answered", () => {
    expect(waitingChanges(new Set(["a", "b"]), new Set(["b", "c"]))).toEqual({
      started: ["c"],
      answered: ["a"],
    });
    expect(
      waitingIds({ a: pendingCommand({ id: "a" }), b: { ...pendingCommand({ id: "b" }), phase: "running" } }),
    ).toEqual(new Set(["a"]));
  });

  it("counts no command the rules are still checking, nor one already answered on its way to running", () => {
    const { approvalId: _none, ...checking } = pendingCommand({ id: "checking" });
    expect(
      waitingIds({
        checking,
        allowed: pendingCommand({ id: "allowed", decidedBy: "rule" }),
        approved: pendingCommand({ id: "approved", decidedBy: "person" }),
        waits: pendingCommand({ id: "waits" }),
      }),
    ).toEqual(new Set(["waits"]));
  });

  it("puts only the command's first line in a notification, clipped", () => {
    expect(waitingBody({ command: "npm test" })).toBe("npm test");
    expect(waitingBody({ command: "make\nmake install" })).toBe("make…");
    expect(waitingBody({ command: "x".repeat(500) })).toHaveLength(201);
  });
});

describe("the browser host's notifications", () => {
  it("raise one per command that starts waiting while the page is not in front, and withdraw it once answered", () => {
    const focus = vi.fn();
    const { rerender } = render(<Probe host={withWaiting([])} focus={focus} />);
    rerender(<Probe host={withWaiting(["c1"])} focus={focus} />);
    rerender(<Probe host={withWaiting(["c1"])} focus={focus} />);
    expect(FakeNotification.made).toHaveLength(1);
    expect(FakeNotification.made[0]?.title).toBe("Pi Desk: a command waits for your approval");
    expect(FakeNotification.made[0]?.options).toEqual({ body: "echo c1…", tag: "pi-desk:chat-1:c1" });
    act(() => FakeNotification.made[0]?.onclick?.());
    expect(focus).toHaveBeenCalledWith("c1", "chat-1");
    rerender(<Probe host={withWaiting([])} focus={focus} />);
    expect(FakeNotification.made[0]?.closed).toBe(true);
  });

  it("stay quiet while the page is in front, when turned off, without permission, and in the desktop app", () => {
    for (const [host, setUp] of [
      [withWaiting(["c1"]), () => vi.spyOn(document, "hasFocus").mockReturnValue(true)],
      [withWaiting(["c1"], { notifications: false }), () => {}],
      [withWaiting(["c1"]), () => (FakeNotification.permission = "default")],
      [withWaiting(["c1"], { shell: "electron" }), () => {}],
    ] as const) {
      setUp();
      const { rerender } = render(<Probe host={withWaiting([])} focus={() => {}} />);
      rerender(<Probe host={host} focus={() => {}} />);
      cleanup();
    }
    expect(FakeNotification.made).toEqual([]);
  });

  it("are withdrawn when turned off", () => {
    const { rerender } = render(<Probe host={withWaiting([])} focus={() => {}} />);
    rerender(<Probe host={withWaiting(["c1"])} focus={() => {}} />);
    rerender(<Probe host={withWaiting(["c1"], { notifications: false })} focus={() => {}} />);
    expect(FakeNotification.made[0]?.closed).toBe(true);
  });
});

describe("the notifications switch", () => {
  it("asks the browser's permission from the click that turns it on, never before", async () => {
    FakeNotification.permission = "default";
    const api = fakeApi();
    render(<NotificationSettings enabled={false} shell="browser" api={api} />);
    expect(FakeNotification.requestPermission).not.toHaveBeenCalled();
    await act(async () => {
      fireEvent.click(screen.getByTestId("notifications-toggle"));
    });
    expect(FakeNotification.requestPermission).toHaveBeenCalledTimes(1);
    expect(api.setNotifications).toHaveBeenCalledWith({ enabled: true });
  });

  it("says when the browser blocks them, and what to do", () => {
    FakeNotification.permission = "denied";
    render(<NotificationSettings enabled shell="browser" api={fakeApi()} />);
    expect(screen.getByTestId("notifications-permission").textContent).toContain("site settings");
  });
});
