import { cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ChatView } from "../../src/renderer/src/features/chat/ChatView";
import { Composer } from "../../src/renderer/src/features/chat/Composer";
import type { HostState } from "../../src/shared/host-state";
import type { TranscriptItem } from "../../src/shared/transcript";
import { fakeApi, hostState, pendingCommand, session, someModels } from "./fixtures";

afterEach(cleanup);

const withTranscript = (transcript: TranscriptItem[], more: Partial<HostState> = {}) =>
  hostState({ session: session({ transcript }), ...more });

describe("the composer", () => {
  it("sends with Enter and clears the box once the agent has it", async () => {
    const api = fakeApi();
    render(<Composer api={api} running={false} />);
    const input = screen.getByTestId("prompt-input") as HTMLTextAreaElement;
    fireEvent.change(input, { target: { value: "List the tests" } });
    fireEvent.keyDown(input, { key: "Enter" });
    expect(api.prompt).toHaveBeenCalledWith({ text: "List the tests" });
    await vi.waitFor(() => expect(input.value).toBe(""));
  });

  it("keeps what the person typed while a message was on its way", async () => {
    let arrived = () => {};
    const api = fakeApi({ prompt: vi.fn(() => new Promise<void>((done) => (arrived = done))) });
    render(<Composer api={api} running />);
    const input = screen.getByTestId("prompt-input") as HTMLTextAreaElement;
    fireEvent.change(input, { target: { value: "check the tests" } });
    fireEvent.keyDown(input, { key: "Enter" });
    fireEvent.change(input, { target: { value: "and the docs" } });
    arrived();
    await vi.waitFor(() => expect(api.prompt).toHaveBeenCalledTimes(1));
    await new Promise((done) => setTimeout(done, 0));
    expect(input.value).toBe("and the docs");
  });

  it("does not send on Shift+Enter or while an input method is composing", () => {
    const api = fakeApi();
    render(<Composer api={api} running={false} />);
    const input = screen.getByTestId("prompt-input");
    fireEvent.change(input, { target: { value: "你好" } });
    fireEvent.keyDown(input, { key: "Enter", shiftKey: true });
    fireEvent.keyDown(input, { key: "Enter", isComposing: true });
    expect(api.prompt).not.toHaveBeenCalled();
  });

  it("keeps the text and says why when sending fails", async () => {
    const api = fakeApi({ prompt: vi.fn(() => Promise.reject(new Error("No model is set up."))) });
    render(<Composer api={api} running={false} />);
    const input = screen.getByTestId("prompt-input") as HTMLTextAreaElement;
    fireEvent.change(input, { target: { value: "hello" } });
    fireEvent.click(screen.getByTestId("send-button"));
    expect((await screen.findByTestId("prompt-error")).textContent).toBe(
      "The message was not sent: No model is set up.",
    );
    expect(input.value).toBe("hello");
  });

  it("steers with Enter and queues with Alt+Enter or Queue while the agent works", async () => {
    const api = fakeApi();
    render(<Composer api={api} running />);
    const input = screen.getByTestId("prompt-input") as HTMLTextAreaElement;
    fireEvent.change(input, { target: { value: "look at the tests too" } });
    expect(screen.getByTestId("send-button").textContent).toBe("Steer");
    fireEvent.keyDown(input, { key: "Enter" });
    expect(api.prompt).toHaveBeenLastCalledWith({ text: "look at the tests too", mode: "steer" });
    await vi.waitFor(() => expect(input.value).toBe(""));
    fireEvent.change(input, { target: { value: "then summarise" } });
    fireEvent.keyDown(input, { key: "Enter", altKey: true });
    expect(api.prompt).toHaveBeenLastCalledWith({ text: "then summarise", mode: "follow-up" });
    await vi.waitFor(() => expect(input.value).toBe(""));
    fireEvent.change(input, { target: { value: "and commit" } });
    fireEvent.click(screen.getByTestId("queue-button"));
    expect(api.prompt).toHaveBeenLastCalledWith({ text: "and commit", mode: "follow-up" });
  });

  it("shows the waiting messages, each taken back by its mode and place", () => {
    const api = fakeApi();
    const queued = [
      { mode: "steer" as const, text: "first" },
      { mode: "follow-up" as const, text: "later" },
      { mode: "steer" as const, text: "second" },
    ];
    render(<Composer api={api} running queued={queued} />);
    const items = screen.getAllByTestId("queued-message");
    expect(items.map((item) => [item.dataset.mode, item.textContent])).toEqual([
      ["steer", "after this stepfirst×"],
      ["follow-up", "when donelater×"],
      ["steer", "after this stepsecond×"],
    ]);
    fireEvent.click(within(items[2] as HTMLElement).getByTestId("queued-remove"));
    expect(api.removeQueued).toHaveBeenCalledWith({ mode: "steer", index: 1 });
  });

  it("Stop gives back to the box the messages that were still waiting", async () => {
    const api = fakeApi({
      stop: vi.fn(async () => ({
        unsent: [
          { mode: "steer" as const, text: "first" },
          { mode: "follow-up" as const, text: "later" },
        ],
      })),
    });
    render(<Composer api={api} running />);
    const input = screen.getByTestId("prompt-input") as HTMLTextAreaElement;
    fireEvent.change(input, { target: { value: "typed since" } });
    fireEvent.click(screen.getByTestId("stop-button"));
    expect(api.stop).toHaveBeenCalled();
    await vi.waitFor(() => expect(input.value).toBe("first\n\nlater\n\ntyped since"));
    expect(screen.getByRole("status").textContent).toContain("2 messages still waiting were not sent");
  });

  it("has no Stop button while the agent is idle, and no Send for an empty box", () => {
    render(<Composer api={fakeApi()} running={false} />);
    expect(screen.queryByTestId("stop-button")).toBeNull();
    expect((screen.getByTestId("send-button") as HTMLButtonElement).disabled).toBe(true);
  });
});

describe("the / menu", () => {
  const commands = [
    {
      name: "review",
      description: "Review staged git changes",
      argumentHint: "[focus]",
      kind: "template" as const,
    },
    { name: "refactor", description: "Refactor a module", kind: "template" as const },
    { name: "skill:pdf-tools", description: "Extract text from PDFs", kind: "skill" as const },
    { name: "compact", description: "Summarise the conversation", kind: "desk" as const },
  ];

  it("opens on a slash, filters as one types, moves with the arrows and picks with Enter", async () => {
    const api = fakeApi({ listSlashCommands: vi.fn(async () => commands) });
    render(<Composer api={api} running={false} />);
    const input = screen.getByTestId("prompt-input") as HTMLTextAreaElement;
    fireEvent.change(input, { target: { value: "/re" } });
    const names = () => screen.getAllByTestId("slash-item").map((item) => item.dataset.name);
    await vi.waitFor(() => expect(names()).toEqual(["review", "refactor"]));
    expect(screen.getAllByTestId("slash-item")[0]?.getAttribute("aria-selected")).toBe("true");
    fireEvent.keyDown(input, { key: "ArrowDown" });
    expect(screen.getAllByTestId("slash-item")[1]?.getAttribute("aria-selected")).toBe("true");
    fireEvent.keyDown(input, { key: "Enter" });
    expect(input.value).toBe("/refactor ");
    expect(screen.queryByTestId("slash-menu")).toBeNull();
    // Enter now sends what the box holds: Pi expands the template.
    fireEvent.change(input, { target: { value: "/refactor src/a.ts" } });
    fireEvent.keyDown(input, { key: "Enter" });
    expect(api.prompt).toHaveBeenCalledWith({ text: "/refactor src/a.ts" });
  });

  it("closes on Esc, and runs Pi Desk's own /compact with its instruction", async () => {
    const api = fakeApi({ listSlashCommands: vi.fn(async () => commands) });
    render(<Composer api={api} running={false} />);
    const input = screen.getByTestId("prompt-input") as HTMLTextAreaElement;
    fireEvent.change(input, { target: { value: "/" } });
    await screen.findByTestId("slash-menu");
    fireEvent.keyDown(input, { key: "Escape" });
    expect(screen.queryByTestId("slash-menu")).toBeNull();
    fireEvent.change(input, { target: { value: "/compact keep the API notes" } });
    fireEvent.keyDown(input, { key: "Enter" });
    expect(api.compact).toHaveBeenCalledWith({ instructions: "keep the API notes" });
    expect(api.prompt).not.toHaveBeenCalled();
  });

  it("says when the project's own templates and skills were left out because it is not trusted in Pi", async () => {
    const api = fakeApi({ listSlashCommands: vi.fn(async () => commands) });
    const skipped = ["/w/.pi/prompts", "/w/.agents/skills"];
    const { rerender } = render(<Composer api={api} running={false} />);
    const input = screen.getByTestId("prompt-input") as HTMLTextAreaElement;
    fireEvent.change(input, { target: { value: "/" } });
    await screen.findByTestId("slash-menu");
    expect(screen.queryByTestId("slash-project-skipped")).toBeNull();
    rerender(<Composer api={api} running={false} projectSkipped={skipped} />);
    const said = screen.getByTestId("slash-project-skipped");
    expect(said.textContent).toContain("not trusted in Pi");
    expect(said.getAttribute("title")).toBe(skipped.join("\n"));
  });
});

describe("the context meter", () => {
  it("says how full the context is and what it cost, warns near the limit, and compacts", async () => {
    const api = fakeApi();
    const host = (usedTokens: number | null) =>
      hostState({ session: session({ context: { usedTokens, window: 200_000, costUsd: 0.042 } }) });
    const { rerender } = render(<ChatView host={host(24_000)} api={api} />);
    const meter = screen.getByTestId("context-meter");
    expect([meter.dataset.used, meter.dataset.window]).toEqual(["24000", "200000"]);
    expect(meter.textContent).toBe("Context 12% (24K of 200K) · $0.042");
    expect(screen.queryByText("Nearly full: compact, or start a new chat")).toBeNull();
    rerender(<ChatView host={host(170_000)} api={api} />);
    expect(screen.getByText("Nearly full: compact, or start a new chat")).toBeTruthy();
    rerender(<ChatView host={host(null)} api={api} />);
    expect(screen.getByTestId("context-meter").textContent).toContain("not counted yet");
    fireEvent.click(screen.getByTestId("compact-button"));
    expect(api.compact).toHaveBeenCalledWith({});
  });

  it("shows a compaction as one line, its summary folded under it", () => {
    render(
      <ChatView
        host={withTranscript([
          {
            kind: "compaction",
            id: "c1",
            summary: "The build has three stages.",
            tokensBefore: 41_000,
            reason: "threshold",
          },
        ])}
        api={fakeApi()}
      />,
    );
    const entry = screen.getByTestId("compaction-entry") as HTMLDetailsElement;
    expect(entry.open).toBe(false);
    expect(entry.querySelector("summary")?.textContent).toBe(
      "Compacted automatically: the model reads this summary instead of the 41,000 tokens before",
    );
    expect(entry.textContent).toContain("The build has three stages.");
  });
});

describe("the transcript", () => {
  it("folds the thinking and renders the answer as Markdown", () => {
    const host = withTranscript([
      { kind: "user", id: "u1", text: "Why?" },
      { kind: "assistant", id: "a1", text: "Because `x`.", thinking: "Considering x.", streaming: false },
    ]);
    render(<ChatView host={host} api={fakeApi()} />);
    const answer = screen.getByTestId("assistant-message");
    const thinking = within(answer).getByTestId("thinking") as HTMLDetailsElement;
    expect(thinking?.open).toBe(false);
    expect(thinking?.textContent).toContain("Considering x.");
    expect(answer.querySelector("code")?.textContent).toBe("x");
    expect(screen.getByTestId("user-message").textContent).toContain("Why?");
  });

  it("draws nothing for a failed request's empty message: the turn's error entry speaks for it", () => {
    render(
      <ChatView
        host={withTranscript([{ kind: "assistant", id: "a1", text: "", thinking: "", streaming: false }])}
        api={fakeApi()}
      />,
    );
    expect(screen.queryByTestId("assistant-message")).toBeNull();
  });

  it("shows read-only tools compactly and notices as lines", () => {
    const host = withTranscript([
      {
        kind: "tool",
        id: "t1",
        name: "grep",
        summary: "TODO src/",
        state: "done",
        result: "src/a.ts:1: TODO",
      },
      { kind: "tool", id: "t2", name: "read", summary: "README.md", state: "running" },
      { kind: "notice", id: "n1", level: "error", text: "The provider is down; retrying in 5 s." },
    ]);
    render(<ChatView host={host} api={fakeApi()} />);
    const [grep, read] = screen.getAllByTestId("tool-call");
    expect(grep?.textContent).toContain("grep");
    expect(grep?.textContent).toContain("TODO src/");
    expect(grep?.querySelector("details")?.open).toBe(false);
    expect(read?.dataset.state).toBe("running");
    expect(screen.getByTestId("notice").textContent).toBe("The provider is down; retrying in 5 s.");
  });

  it("puts a waiting command's line where the agent asked for it, and its card once decided", () => {
    const host = hostState({
      session: session({
        transcript: [
          { kind: "user", id: "u1", text: "test it" },
          { kind: "command", id: "call-1" },
          { kind: "assistant", id: "a2", text: "Done.", thinking: "", streaming: false },
        ],
        commands: { "call-1": pendingCommand() },
      }),
    });
    const { rerender } = render(<ChatView host={host} api={fakeApi()} />);
    const items = () => screen.getByTestId("transcript").querySelectorAll(".transcript-item");
    // Waiting: decided in the tray, so the transcript holds one line that leads there, not a second card.
    expect(items()[1]?.querySelector("[data-testid=pending-line]")?.getAttribute("data-command-id")).toBe(
      "call-1",
    );
    expect(screen.queryByTestId("command-card")).toBeNull();
    const session1 = host.session;
    if (!session1) throw new Error("a session expected");
    const decided = {
      ...session1.commands["call-1"],
      phase: "succeeded",
    } as (typeof session1.commands)[string];
    rerender(
      <ChatView
        host={{ ...host, session: { ...session1, commands: { "call-1": decided } } }}
        api={fakeApi()}
      />,
    );
    expect(items()[1]?.querySelector("[data-testid=command-card]")?.getAttribute("data-status")).toBe(
      "succeeded",
    );
    expect(screen.queryByTestId("pending-line")).toBeNull();
  });
});

describe("models", () => {
  it("picks a model and a thinking level", () => {
    const api = fakeApi();
    render(<ChatView host={hostState()} api={api} />);
    fireEvent.change(screen.getByTestId("thinking-select"), { target: { value: "high" } });
    expect(api.setThinkingLevel).toHaveBeenCalledWith({ level: "high" });
    const option = screen.getByRole("option", { name: /GPT-5/ }) as HTMLOptionElement;
    expect(option.disabled).toBe(true);
    fireEvent.change(screen.getByTestId("model-select"), { target: { value: "anthropic/claude-sonnet" } });
    expect(api.setModel).toHaveBeenCalledWith({ provider: "anthropic", id: "claude-sonnet" });
  });

  it("shows the way to a model when there is none: the problem, a key per provider, and Pi's config", async () => {
    const api = fakeApi();
    const models = { ...someModels, current: null, problem: "No model has a key. Add one below." };
    render(<ChatView host={hostState({ models })} api={api} />);
    const setup = screen.getByTestId("model-setup");
    expect(within(setup).getByTestId("model-problem").textContent).toBe("No model has a key. Add one below.");
    expect(setup.textContent).toContain("~/.pi/agent/models.json");
    expect(setup.textContent).toContain("ANTHROPIC_API_KEY");
    const key = within(setup).getByLabelText("API key for openai") as HTMLInputElement;
    expect(key.type).toBe("password");
    fireEvent.change(key, { target: { value: " sk-test " } });
    fireEvent.click(within(key.closest("form") as HTMLElement).getByRole("button", { name: "Save key" }));
    expect(api.setApiKey).toHaveBeenCalledWith({ provider: "openai", key: "sk-test" });
    expect(await within(setup).findByText("Key saved for openai.")).toBeTruthy();
    expect(key.value).toBe("");
  });

  it("asks for the provider too when Pi knows no model at all", () => {
    const api = fakeApi();
    const models = { options: [], current: null, thinkingLevel: "off" as const, problem: "No models." };
    render(<ChatView host={hostState({ models })} api={api} />);
    fireEvent.change(screen.getByTestId("api-key-provider"), { target: { value: "openrouter" } });
    fireEvent.change(screen.getByTestId("api-key-other"), { target: { value: "sk-or" } });
    fireEvent.click(screen.getByRole("button", { name: "Save key" }));
    expect(api.setApiKey).toHaveBeenCalledWith({ provider: "openrouter", key: "sk-or" });
  });

  it("hides the setup once a model is usable", () => {
    render(<ChatView host={hostState()} api={fakeApi()} />);
    expect(screen.queryByTestId("model-setup")).toBeNull();
  });
});

describe("without a conversation", () => {
  it("offers a new chat", () => {
    const api = fakeApi();
    render(<ChatView host={hostState({ session: null })} api={api} />);
    fireEvent.click(screen.getByRole("button", { name: "New chat" }));
    expect(api.newSession).toHaveBeenCalled();
  });
});
