import { act, cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { App, windowTitle } from "../../src/renderer/src/App";
import type { ConnectionStatus, DeskClient } from "../../src/renderer/src/client/desk-client";
import { en } from "../../src/renderer/src/i18n/en";
import { I18nProvider } from "../../src/renderer/src/i18n/i18n";
import type { HostEvent } from "../../src/shared/host-events";
import type { HostState } from "../../src/shared/host-state";
import { chat1, eventStream, fakeApi, hostState, type LooseEvent, pendingCommand, session } from "./fixtures";

afterEach(cleanup);

/** A client the test drives: it pushes host events and connection changes by hand. */
function fakeClient(state: HostState) {
  // As the real clients do, every subscriber hears every event.
  const listeners = new Set<(event: HostEvent) => void>();
  const emit = (event: HostEvent) => {
    for (const listener of listeners) listener(event);
  };
  let connect: (status: ConnectionStatus) => void = () => {};
  const numbered = eventStream(state.seq);
  const api = fakeApi({
    getState: vi.fn(async () => state),
    onHostEvent: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    listSessions: vi.fn(async () => []),
  });
  const client: DeskClient = {
    api,
    onConnection: (listener) => {
      connect = listener;
      listener({ kind: "connected" });
      return () => {};
    },
  };
  return {
    client,
    api,
    /** Sends events and waits for the frame that applies them. */
    push: async (...events: LooseEvent[]) => {
      await act(async () => {
        for (const event of events) emit(numbered(event));
        await new Promise((resolve) => requestAnimationFrame(resolve));
      });
    },
    setConnection: (status: ConnectionStatus) => act(() => connect(status)),
  };
}

async function renderApp(state: HostState) {
  const fake = fakeClient(state);
  render(
    <I18nProvider initial="en">
      <App client={fake.client} />
    </I18nProvider>,
  );
  await screen.findByTestId("workspace-name");
  return fake;
}

const twoWaiting = session({
  transcript: [
    { kind: "command", id: "c2" },
    { kind: "command", id: "c1" },
  ],
  commands: {
    c1: pendingCommand({ id: "c1", approvalId: "p1", command: "git status" }),
    c2: pendingCommand({ id: "c2", approvalId: "p2", command: "npm test" }),
  },
});

describe("the window", () => {
  it("titles itself with the workspace, and the count of commands waiting", () => {
    expect(windowTitle(en, "repo", 0)).toBe("repo — Pi Desk");
    expect(windowTitle(en, "repo", 2)).toBe("(2) repo — Pi Desk");
    expect(windowTitle(en, undefined, 0)).toBe("Pi Desk");
  });

  it("shows a tray of waiting commands, in the order asked, each drawn in full only there", async () => {
    await renderApp(hostState({ session: twoWaiting }));
    // The title follows the view after the batched events are applied: wait for it, not a frame.
    await waitFor(() => expect(document.title).toBe("(2) repo — Pi Desk"));
    const tray = screen.getByTestId("approval-tray");
    expect(within(tray).getByRole("heading").textContent).toBe("Needs approval (2)");
    expect(
      within(tray)
        .getAllByTestId("tray-item")
        .map((item) => item.dataset.commandId),
    ).toEqual(["c2", "c1"]);
    // One full card per command, in the tray; the transcript holds a line for each, in its place.
    expect(screen.queryAllByTestId("command-card")).toHaveLength(0);
    expect(screen.queryAllByTestId("approve-button")).toHaveLength(0);
    expect(screen.getAllByTestId("tray-approve-button")).toHaveLength(2);
    expect(screen.getAllByTestId("pending-line").map((line) => line.dataset.commandId)).toEqual(["c2", "c1"]);
    expect(screen.getAllByTestId("pending-line")[0]?.textContent).toBe("Waiting for you: npm test");
  });

  it("brings the tray's card into focus from the transcript's line", async () => {
    await renderApp(hostState({ session: twoWaiting }));
    const [, line] = screen.getAllByTestId("pending-line");
    if (!line) throw new Error("two pending lines expected");
    fireEvent.click(line);
    const focused = document.activeElement as HTMLElement | null;
    expect(focused?.dataset.testid).toBe("tray-item");
    expect(focused?.dataset.commandId).toBe("c1");
  });

  it("decides from the tray with the command's own approval id", async () => {
    const { api } = await renderApp(hostState({ session: twoWaiting }));
    const [, second] = within(screen.getByTestId("approval-tray")).getAllByTestId("tray-item");
    if (!second) throw new Error("two tray items expected");
    fireEvent.click(within(second).getByTestId("tray-approve-button"));
    expect(api.decide).toHaveBeenCalledWith({ approvalId: "p1", decision: { kind: "approve" } });
  });

  it("follows the host: the tray and title empty as commands are decided", async () => {
    const fake = await renderApp(hostState({ session: twoWaiting }));
    await fake.push({
      type: "command-update",
      command: {
        ...pendingCommand({ id: "c1", command: "git status" }),
        approvalId: undefined,
        phase: "running",
      },
    });
    // The title follows the view after the batched events are applied: wait for it, not a frame.
    await waitFor(() => expect(document.title).toBe("(1) repo — Pi Desk"));
    await fake.push({
      type: "command-update",
      command: { ...pendingCommand({ id: "c2" }), approvalId: undefined, phase: "denied" },
    });
    // The title follows the view after the batched events are applied: wait for it, not a frame.
    await waitFor(() => expect(document.title).toBe("repo — Pi Desk"));
    expect(screen.queryByTestId("approval-tray")).toBeNull();
  });

  it("counts only commands still waiting for the person, not ones already answered", async () => {
    const fake = await renderApp(hostState({ session: twoWaiting }));
    await fake.push({
      type: "command-update",
      command: pendingCommand({ id: "c1", approvalId: "p1", command: "git status", decidedBy: "person" }),
    });
    // The title follows the view after the batched events are applied: wait for it, not a frame.
    await waitFor(() => expect(document.title).toBe("(1) repo — Pi Desk"));
    expect(screen.getAllByTestId("tray-item").map((item) => item.dataset.commandId)).toEqual(["c2"]);
    expect(screen.getByTestId("approval-announcement").textContent).toBe("Needs approval (1)");
  });

  it("hands the focus to the next waiting command once one is decided", async () => {
    const fake = await renderApp(hostState({ session: twoWaiting }));
    const first = screen.getAllByTestId("tray-item")[0] as HTMLElement;
    first.focus();
    await fake.push({
      type: "command-update",
      command: { ...pendingCommand({ id: "c2" }), approvalId: undefined, phase: "running" },
    });
    const [next] = screen.getAllByTestId("tray-item");
    expect(next?.dataset.commandId).toBe("c1");
    expect(document.activeElement).toBe(next);
    await fake.push({
      type: "command-update",
      command: { ...pendingCommand({ id: "c1" }), approvalId: undefined, phase: "denied" },
    });
    expect(document.activeElement).toBe(screen.getByTestId("prompt-input"));
  });

  it("moves through the inbox with j/k and the arrows, and Enter approves the card reached", async () => {
    const fake = await renderApp(hostState({ session: twoWaiting }));
    const [first, second] = screen.getAllByTestId("tray-item") as HTMLElement[];
    first?.focus();
    fireEvent.keyDown(first as HTMLElement, { key: "j" });
    expect(document.activeElement).toBe(second);
    fireEvent.keyDown(second as HTMLElement, { key: "k" });
    expect(document.activeElement).toBe(first);
    fireEvent.keyDown(first as HTMLElement, { key: "ArrowDown" });
    expect(document.activeElement).toBe(second);
    // Past the last card the focus stays.
    fireEvent.keyDown(second as HTMLElement, { key: "ArrowDown" });
    expect(document.activeElement).toBe(second);
    fireEvent.keyDown(second as HTMLElement, { key: "Enter" });
    await waitFor(() =>
      expect(fake.api.decide).toHaveBeenCalledWith({ approvalId: "p1", decision: { kind: "approve" } }),
    );
  });

  it("focuses the card of the command whose notification was clicked (the desktop app asks by event)", async () => {
    const fake = await renderApp(hostState({ session: twoWaiting }));
    (screen.getByTestId("prompt-input") as HTMLElement).focus();
    await fake.push({ type: "focus-command", id: "c2" });
    expect((document.activeElement as HTMLElement).dataset.commandId).toBe("c2");
    expect(document.activeElement?.closest(".approval-tray")).not.toBeNull();
  });

  it("opens the chat of a clicked notification's command, another than the one shown, and focuses its card", async () => {
    const other = { ...chat1, id: "chat-2", title: "other chat" };
    const theirs = pendingCommand({ id: "c9", approvalId: "p9", command: "make" });
    const fake = await renderApp(
      hostState({ chats: [chat1, other], inbox: [{ kind: "command", chatId: "chat-2", command: theirs }] }),
    );
    (screen.getByTestId("prompt-input") as HTMLElement).focus();
    await fake.push({ type: "focus-command", chatId: "chat-2", id: "c9" });
    expect(fake.api.getState).toHaveBeenLastCalledWith({ chatId: "chat-2" });
    expect((document.activeElement as HTMLElement).dataset.commandId).toBe("c9");
    expect(document.activeElement?.closest(".approval-tray")).not.toBeNull();
  });

  it("shows Settings and the running commands when the desktop app's menu asks", async () => {
    const fake = await renderApp(hostState({ session: twoWaiting }));
    expect(screen.queryByTestId("settings-view")).toBeNull();
    await fake.push({ type: "show-view", view: "settings" });
    expect(screen.getByTestId("settings-view")).toBeTruthy();
    expect(screen.getByTestId("nav-settings").getAttribute("aria-current")).toBe("page");
    await fake.push({ type: "show-view", view: "running" });
    expect(screen.getByTestId("background-panel")).toBeTruthy();
    expect(screen.getByTestId("nav-chat").getAttribute("aria-current")).toBe("page");
  });

  it("streams the conversation from events into the transcript", async () => {
    const fake = await renderApp(hostState());
    await fake.push(
      { type: "session-status", running: true },
      { type: "transcript-add", item: { kind: "user", id: "u1", text: "What is here?" } },
      {
        type: "transcript-add",
        item: { kind: "assistant", id: "a1", text: "", thinking: "", streaming: true },
      },
      { type: "assistant-delta", id: "a1", text: "It is **a repo**" },
      { type: "assistant-delta", id: "a1", text: " with tests." },
    );
    const answer = screen.getByTestId("assistant-message");
    expect(answer.textContent).toContain("It is a repo with tests.");
    expect(answer.querySelector("strong")?.textContent).toBe("a repo");
    expect(screen.getByTestId("stop-button")).toBeTruthy();
    await fake.push({ type: "session-status", running: false });
    expect(screen.queryByTestId("stop-button")).toBeNull();
  });

  it("rebuilds from a snapshot on reconnecting, keeping the last state while away", async () => {
    const fake = await renderApp(hostState({ session: twoWaiting }));
    await act(async () => fake.setConnection({ kind: "disconnected", reason: "Lost the connection." }));
    await fake.push();
    expect(screen.getByTestId("connection-problem").textContent).toBe("Lost the connection.");
    expect(screen.getAllByTestId("tray-item")).toHaveLength(2);
  });

  it("switches to history and settings, keeping the tray in view", async () => {
    await renderApp(hostState({ session: twoWaiting }));
    fireEvent.click(screen.getByTestId("nav-settings"));
    expect(screen.getByTestId("settings-view")).toBeTruthy();
    expect(screen.getByTestId("approval-tray")).toBeTruthy();
    fireEvent.click(screen.getByTestId("nav-history"));
    expect(await screen.findByTestId("history-view")).toBeTruthy();
    expect(screen.getByTestId("nav-history").getAttribute("aria-current")).toBe("page");
  });
});
