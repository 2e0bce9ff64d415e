import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { Composer } from "../../src/renderer/src/features/chat/Composer";
import { ShowChatContext } from "../../src/renderer/src/features/chat/show-chat";
import { MessageActionsContext } from "../../src/renderer/src/features/rewind/rewind-context";
import type { ModelsState } from "../../src/shared/models";
import { fakeApi, someModels } from "./fixtures";

afterEach(cleanup);

const models: ModelsState = {
  ...someModels,
  options: [
    ...someModels.options,
    {
      provider: "anthropic",
      id: "claude-haiku",
      name: "Claude Haiku",
      hasKey: true,
      thinkingLevels: ["off"],
    },
  ],
};

/** Types `text` in the composer and presses Enter; returns the box. */
function enter(text: string): HTMLTextAreaElement {
  const input = screen.getByTestId("prompt-input") as HTMLTextAreaElement;
  fireEvent.change(input, { target: { value: text } });
  fireEvent.keyDown(input, { key: "Enter" });
  return input;
}

describe("Pi Desk's own / commands in the composer", () => {
  it("/name names the chat, /model picks a usable model by part of its name, /thinking sets a level it has", async () => {
    const api = fakeApi();
    render(<Composer api={api} running={false} models={models} />);
    const input = enter("/name  Parser work ");
    await vi.waitFor(() => expect(input.value).toBe(""));
    expect(api.renameChat).toHaveBeenCalledWith({ name: "Parser work" });
    enter("/model haiku");
    await vi.waitFor(() => expect(input.value).toBe(""));
    expect(api.setModel).toHaveBeenCalledWith({ provider: "anthropic", id: "claude-haiku" });
    enter("/thinking HIGH");
    await vi.waitFor(() => expect(api.setThinkingLevel).toHaveBeenCalledWith({ level: "high" }));
    expect(api.prompt).not.toHaveBeenCalled();
  });

  it("says what to do, keeping the text, when a command cannot be done", async () => {
    const api = fakeApi();
    render(<Composer api={api} running={false} models={models} />);
    const input = enter("/model claude");
    expect((await screen.findByTestId("prompt-error")).textContent).toBe(
      'Could not do that: "claude" names several models (Claude Sonnet, Claude Haiku): type more of the name.',
    );
    expect(input.value).toBe("/model claude");
    enter("/model gpt");
    expect((await screen.findByTestId("prompt-error")).textContent).toContain(
      'No usable model is called "gpt"',
    );
    enter("/thinking max");
    expect((await screen.findByTestId("prompt-error")).textContent).toBe(
      "Could not do that: This model thinks at these levels: off, low, high. Type /thinking and one of them.",
    );
    expect(api.setModel).not.toHaveBeenCalled();
    expect(api.setThinkingLevel).not.toHaveBeenCalled();
  });

  it("/new starts a chat in the workspace and shows it; a template's name goes to Pi as typed", async () => {
    const api = fakeApi({ newSession: vi.fn(async () => ({ id: "chat-2" }) as never) });
    const show = vi.fn();
    render(
      <ShowChatContext.Provider value={show}>
        <Composer api={api} running={false} models={models} />
      </ShowChatContext.Provider>,
    );
    const input = enter("/new");
    await vi.waitFor(() => expect(input.value).toBe(""));
    expect(show).toHaveBeenCalledWith("chat-2");
    enter("/newsletter draft");
    await vi.waitFor(() => expect(api.prompt).toHaveBeenCalledWith({ text: "/newsletter draft" }));
  });

  it("/rewind opens the rewind of the last message, /fork forks from it; with no message yet, it says so", async () => {
    const actions = { open: vi.fn(), fork: vi.fn() };
    const { rerender } = render(
      <MessageActionsContext.Provider value={actions}>
        <Composer api={fakeApi()} running={false} lastAsked="entry-7" lastAskedText="Refactor the parser" />
      </MessageActionsContext.Provider>,
    );
    const input = enter("/rewind");
    await vi.waitFor(() => expect(input.value).toBe(""));
    expect(actions.open).toHaveBeenCalledWith("entry-7", "Refactor the parser", "rewind");
    enter("/fork");
    await vi.waitFor(() => expect(input.value).toBe(""));
    expect(actions.fork).toHaveBeenCalledWith("entry-7");
    rerender(
      <MessageActionsContext.Provider value={actions}>
        <Composer api={fakeApi()} running={false} />
      </MessageActionsContext.Provider>,
    );
    enter("/rewind");
    expect((await screen.findByTestId("prompt-error")).textContent).toBe(
      "Could not do that: There is no message of yours to go back to yet.",
    );
  });
});
