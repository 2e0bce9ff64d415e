import { act, cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { HistoryView } from "../../src/renderer/src/features/history/HistoryView";
import { SettingsView } from "../../src/renderer/src/features/settings/SettingsView";
import { ChatList } from "../../src/renderer/src/features/workspace/ChatList";
import type { HostState, SessionSummary } from "../../src/shared/host-state";
import type { AuditEntry, CommandRule } from "../../src/shared/rules";
import { chat1, fakeApi, hostState } from "./fixtures";

/** The sidebar's props from a state, as the app passes them. */
const listOf = (host: HostState) => ({
  workspaces: host.workspaces,
  chats: host.chats,
  shownChat: host.chatId,
});

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

const rule: CommandRule = {
  id: "r1",
  effect: "allow",
  match: "prefix",
  pattern: "npm test",
  scope: "workspace",
  createdAt: 1,
};

describe("settings", () => {
  it("shows the limits in force", () => {
    render(<SettingsView host={hostState()} api={fakeApi()} />);
    const limits = screen.getByTestId("limits");
    expect(limits.textContent).toContain("npm");
    expect(limits.textContent).toContain("60 s");
    expect(limits.textContent).toContain("600 s");
    expect(limits.textContent).toContain("HOME");
  });

  it("shows the space saved outputs take, of the quota, and the budget per command", () => {
    render(<SettingsView host={hostState()} api={fakeApi()} />);
    const saved = screen.getByTestId("saved-outputs");
    expect(saved.textContent).toContain("1.2 GB of 2.0 GB");
    expect(saved.textContent).toContain("at most 256 MB per command");
  });

  it("says why the workspace's rules are not in force when their file cannot be read", () => {
    const problem =
      "The rules file /x/rules.json could not be read: it is not valid JSON. It was left untouched.";
    render(<SettingsView host={{ ...hostState(), rulesProblem: problem }} api={fakeApi()} />);
    expect(screen.getByTestId("rules-problem").textContent).toBe(problem);
  });

  it("says when any program may run", () => {
    const host = hostState();
    const limits = host.limits && { ...host.limits, allowedBinaries: [] };
    render(<SettingsView host={{ ...host, limits }} api={fakeApi()} />);
    expect(screen.getByTestId("limits").textContent).toContain("Any program (no allowlist)");
  });

  it("lists, changes and removes rules", async () => {
    const api = fakeApi();
    render(<SettingsView host={hostState({ rules: [rule] })} api={api} />);
    const row = screen.getByTestId("rule-row");
    expect(row.textContent).toContain("npm test");
    fireEvent.click(within(row).getByRole("button", { name: "Remove: npm test" }));
    expect(api.removeRule).toHaveBeenCalledWith({ id: "r1" });
    fireEvent.click(within(row).getByRole("button", { name: "Edit: npm test" }));
    const [editPattern] = screen.getAllByTestId("rule-pattern");
    fireEvent.change(editPattern as HTMLElement, { target: { value: "npm run test" } });
    await act(async () => fireEvent.click(screen.getByRole("button", { name: "Save" })));
    expect(api.updateRule).toHaveBeenCalledWith({
      id: "r1",
      rule: { effect: "allow", match: "prefix", pattern: "npm run test", scope: "workspace" },
    });
  });

  it("adds a rule, refusing an empty pattern", async () => {
    const api = fakeApi();
    render(<SettingsView host={hostState()} api={api} />);
    const add = screen.getByRole("button", { name: "Add rule" });
    fireEvent.click(add);
    expect(screen.getByRole("alert").textContent).toBe("Give the command, or its first words.");
    fireEvent.change(screen.getByTestId("rule-pattern"), { target: { value: " git push " } });
    fireEvent.change(screen.getByLabelText("Effect"), { target: { value: "deny" } });
    await act(async () => fireEvent.click(add));
    expect(api.addRule).toHaveBeenCalledWith({
      effect: "deny",
      match: "prefix",
      pattern: "git push",
      scope: "workspace",
    });
    expect((screen.getByTestId("rule-pattern") as HTMLInputElement).value).toBe("");
  });

  it("turns the sandbox and its network on and off for the workspace", () => {
    const api = fakeApi();
    render(<SettingsView host={hostState()} api={api} />);
    const settings = screen.getByTestId("sandbox-settings");
    expect(settings.textContent).toContain("bubblewrap");
    fireEvent.click(screen.getByTestId("sandbox-network"));
    expect(api.setSandbox).toHaveBeenCalledWith({ enabled: true, network: true });
  });

  it("says why the sandbox cannot run, and offers no way to turn it on", () => {
    const host = hostState();
    const limits = host.limits && {
      ...host.limits,
      sandbox: {
        kind: "bubblewrap" as const,
        available: false,
        problem: "bwrap is not installed: apt install bubblewrap.",
        enabled: false,
        network: false,
        allowedHosts: [],
      },
    };
    render(<SettingsView host={{ ...host, limits }} api={fakeApi()} />);
    expect(screen.getByTestId("sandbox-settings").textContent).toContain("apt install bubblewrap");
    expect((screen.getByTestId("sandbox-enabled") as HTMLInputElement).disabled).toBe(true);
    expect((screen.getByTestId("sandbox-network") as HTMLInputElement).disabled).toBe(true);
  });

  it("switches the language", () => {
    render(<SettingsView host={hostState()} api={fakeApi()} />);
    expect((screen.getByTestId("language-select") as HTMLSelectElement).value).toBe("en");
  });
});

describe("history", () => {
  const entries: AuditEntry[] = [
    {
      at: Date.UTC(2030, 0, 1),
      sessionId: "s1",
      commandId: "c1",
      command: "rm -rf build",
      event: "denied",
      by: "person",
      reason: "Not now.",
    },
    {
      at: Date.UTC(2030, 0, 1),
      sessionId: "s1",
      commandId: "c2",
      command: "npm test",
      event: "finished",
      by: "host",
      status: "failed",
      exitCode: 1,
    },
  ];

  it("lists decisions, newest first, and searches after a pause in typing", async () => {
    vi.useFakeTimers();
    const getHistory = vi.fn(async () => entries);
    render(<HistoryView api={fakeApi({ getHistory })} />);
    await act(async () => vi.advanceTimersByTimeAsync(0));
    expect(getHistory).toHaveBeenCalledWith({ limit: 200 });
    const [denied, finished] = screen.getAllByTestId("history-entry");
    expect(denied?.textContent).toContain("rm -rf build");
    expect(denied?.textContent).toContain("Not now.");
    expect(finished?.textContent).toContain("exit 1");
    fireEvent.change(screen.getByTestId("history-search"), { target: { value: "n" } });
    fireEvent.change(screen.getByTestId("history-search"), { target: { value: "npm" } });
    await act(async () => vi.advanceTimersByTimeAsync(300));
    expect(getHistory).toHaveBeenCalledTimes(2);
    expect(getHistory).toHaveBeenLastCalledWith({ query: "npm", limit: 200 });
  });

  it("says when a chat was rewound, about which message, and what became of its files", async () => {
    const rewound: AuditEntry = {
      at: Date.now(),
      sessionId: "s1",
      commandId: "e1",
      kind: "rewind",
      command: "Rename the parser",
      event: "rewound",
      by: "person",
      files: { restored: 3, kept: 1, notRecorded: 0 },
    };
    render(<HistoryView api={fakeApi({ getHistory: vi.fn(async () => [rewound]) })} />);
    const [entry] = await screen.findAllByTestId("history-entry");
    expect(entry?.textContent).toContain("chat rewound to before this message");
    expect(entry?.textContent).toContain("Rename the parser");
    expect(screen.getByTestId("history-rewind-files").textContent).toBe(
      "Files: 3 put back, 1 kept as changed since, 0 not recorded",
    );
  });

  it("keeps a codemode script's decision with the script as decided", async () => {
    const decided: AuditEntry = {
      at: Date.now(),
      sessionId: "s1",
      commandId: "c1",
      kind: "mcp-call",
      server: "pi",
      tool: "codemode",
      script: 'return await tools.mcp__everything__echo({ message: "hi" });',
      scriptSha256: "ab".repeat(32),
      event: "approved",
      by: "person",
    };
    render(<HistoryView api={fakeApi({ getHistory: vi.fn(async () => [decided]) })} />);
    await screen.findAllByTestId("history-entry");
    expect(screen.getByTestId("history-tool").textContent).toContain("pi/codemode");
    expect(screen.getByTestId("history-script").textContent).toBe(decided.script);
  });

  it("says when nothing matches", async () => {
    render(<HistoryView api={fakeApi({ getHistory: vi.fn(async () => []) })} />);
    expect(await screen.findByText("No decisions recorded yet.")).toBeTruthy();
  });
});

describe("past chats, under each workspace's open ones", () => {
  const past = (path: string, title: string, messageCount = 2): SessionSummary => ({
    path,
    id: path,
    title,
    modified: Date.now(),
    messageCount,
  });

  it("lists the workspace's past chats but not those open, and reads them again when a turn ends", async () => {
    const listSessions = vi.fn(async () => [
      past("/s/2.jsonl", "Fix the build", 4),
      past("/s/1.jsonl", "Open one"),
    ]);
    const api = fakeApi({ listSessions });
    const working = hostState({ chats: [{ ...chat1, activity: "working", file: "/s/1.jsonl" }] });
    const { rerender } = render(<ChatList onShow={() => {}} {...listOf(working)} api={api} />);
    const items = await screen.findAllByTestId("session-item");
    expect(items.map((item) => item.textContent)).toEqual([expect.stringContaining("Fix the build")]);
    expect(items[0]?.textContent).toContain("4 messages");
    expect(listSessions).toHaveBeenCalledWith({ workspaceId: "w1" });
    listSessions.mockResolvedValue([past("/s/3.jsonl", "Another"), ...(await listSessions())]);
    rerender(
      <ChatList
        onShow={() => {}}
        {...listOf(hostState({ chats: [{ ...chat1, file: "/s/1.jsonl" }] }))}
        api={api}
      />,
    );
    await vi.waitFor(() => expect(screen.getAllByTestId("session-item")).toHaveLength(2));
  });

  it("opens a past chat in its workspace, and starts a new chat in a workspace with its +", async () => {
    const onShow = vi.fn();
    const api = fakeApi({
      listSessions: vi.fn(async () => [past("/s/2.jsonl", "Fix the build")]),
      openSession: vi.fn(async () => ({ ...chat1, id: "chat-2" })),
      newSession: vi.fn(async () => ({ ...chat1, id: "chat-3" })),
    });
    render(<ChatList onShow={onShow} {...listOf(hostState())} api={api} />);
    fireEvent.click((await screen.findAllByTestId("session-item"))[0] as HTMLElement);
    expect(api.openSession).toHaveBeenCalledWith({ workspaceId: "w1", path: "/s/2.jsonl" });
    await vi.waitFor(() => expect(onShow).toHaveBeenCalledWith("chat-2"));
    const newChat = screen.getByTestId("new-session") as HTMLButtonElement;
    await vi.waitFor(() => expect(newChat.disabled).toBe(false));
    fireEvent.click(newChat);
    expect(api.newSession).toHaveBeenCalledWith({ workspaceId: "w1" });
    await vi.waitFor(() => expect(onShow).toHaveBeenCalledWith("chat-3"));
  });

  it("says when the workspace has no past chats", async () => {
    render(
      <ChatList
        onShow={() => {}}
        {...listOf(hostState())}
        api={fakeApi({ listSessions: vi.fn(async () => []) })}
      />,
    );
    expect(await screen.findByText("No earlier chats in this workspace.")).toBeTruthy();
  });
});
