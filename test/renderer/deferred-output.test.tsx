import { cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { bindChat } from "../../src/renderer/src/client/chat-api";
import { ChatView } from "../../src/renderer/src/features/chat/ChatView";
import { CommandCard } from "../../src/renderer/src/features/commands/CommandCard";
import { forgetFetchedOutputs } from "../../src/renderer/src/features/commands/use-command-output";
import type { CommandOutputReply, CommandView } from "../../src/shared/commands";
import { fakeApi, hostState, runningCommand, session } from "./fixtures";

afterEach(() => {
  cleanup();
  forgetFetchedOutputs();
});

const linesOf = (tag: string, count: number) =>
  `${Array.from({ length: count }, (_, k) => `${tag} line ${k + 1}`).join("\n")}\n`;

/** An ended command whose output the state left out, as a reopened chat's snapshot has it. */
function deferred(id: string, sessionId: string, lines: number): CommandView {
  return runningCommand({
    id,
    phase: "succeeded",
    output: "",
    totalLines: lines,
    totalBytes: lines * 20,
    deferredOutput: { sessionId, lines },
    details: {
      status: "succeeded",
      command: "./gen.sh",
      edited: false,
      cwd: "/home/ada/repo",
      timeoutSeconds: 60,
      exitCode: 0,
      timedOut: false,
      cancelled: false,
      durationMs: 10,
      truncated: false,
      totalBytes: lines * 20,
      totalLines: lines,
    },
  });
}

/** A host that answers each `commandOutput` from its chats' outputs, as the real one does. */
function hostWith(outputs: Record<string, Record<string, string>>) {
  const commandOutput = vi.fn(
    async ({ chatId, commandId }: { chatId: string; commandId: string }): Promise<CommandOutputReply> => {
      const output = outputs[chatId]?.[commandId];
      if (output === undefined) throw new Error(`This chat has no command "${commandId}".`);
      return { output, totalBytes: output.length, totalLines: output.split("\n").length - 1 };
    },
  );
  const desk = fakeApi({ commandOutput });
  // Each chat's part of the page has its calls bound to that chat, as the App binds them.
  const api = (chatId: string) => bindChat(desk, { chatId });
  return { api, commandOutput };
}

describe("a card whose output the state left out", () => {
  it("keeps the output's height while it asks, then shows that command's output", async () => {
    const { api, commandOutput } = hostWith({ "chat-a": { c1: linesOf("c1", 40), c2: linesOf("c2", 40) } });
    render(<CommandCard command={deferred("c1", "chat-a", 40)} api={api("chat-a")} />);
    const card = screen.getByTestId("command-card");
    // Until the text comes: as many (empty) lines as it has, marked busy.
    const waiting = within(card).getByTestId("command-output");
    expect(waiting.getAttribute("aria-busy")).toBe("true");
    expect(waiting.textContent).toBe("");
    expect(waiting.querySelector<HTMLElement>(".command-output-space")?.style.height).toBe("40lh");
    expect(commandOutput).toHaveBeenCalledWith({ chatId: "chat-a", commandId: "c1" });
    await vi.waitFor(() =>
      expect(within(card).getByTestId("command-output").textContent).toBe(linesOf("c1", 40)),
    );
    expect(within(card).getByTestId("command-output").getAttribute("aria-busy")).toBeNull();
  });

  it("draws a card again at once from what it fetched, and asks again for another chat's card of the same id", async () => {
    const { api, commandOutput } = hostWith({
      "chat-a": { c1: linesOf("chat a", 30) },
      "chat-b": { c1: linesOf("chat b", 30) },
    });
    const first = render(<CommandCard command={deferred("c1", "chat-a", 30)} api={api("chat-a")} />);
    await vi.waitFor(() =>
      expect(screen.getByTestId("command-output").textContent).toBe(linesOf("chat a", 30)),
    );
    first.unmount();
    // Scrolled away and back: no placeholder, no second request.
    const again = render(<CommandCard command={deferred("c1", "chat-a", 30)} api={api("chat-a")} />);
    expect(screen.getByTestId("command-output").textContent).toBe(linesOf("chat a", 30));
    expect(commandOutput).toHaveBeenCalledTimes(1);
    again.unmount();
    // Another chat reopened, its command named the same: its own output, never the first chat's.
    render(<CommandCard command={deferred("c1", "chat-b", 30)} api={api("chat-b")} />);
    expect(screen.getByTestId("command-output").textContent).not.toContain("chat a");
    await vi.waitFor(() =>
      expect(screen.getByTestId("command-output").textContent).toBe(linesOf("chat b", 30)),
    );
    expect(commandOutput).toHaveBeenLastCalledWith({ chatId: "chat-b", commandId: "c1" });
  });

  it("draws a long fetched output's last lines first, the rest as space, and all of it once the person reaches for it", async () => {
    const { api } = hostWith({ "chat-a": { c1: linesOf("c1", 500) } });
    render(<CommandCard command={deferred("c1", "chat-a", 500)} api={api("chat-a")} />);
    await vi.waitFor(() => expect(screen.getByTestId("command-output").textContent).toContain("c1 line 500"));
    const output = screen.getByTestId("command-output");
    // The box shows about 22 lines: 60 drawn, the 440 above them as a block of their height.
    expect(output.textContent).toBe(linesOf("c1", 500).split("\n").slice(440).join("\n"));
    expect(output.querySelector<HTMLElement>(".command-output-space")?.style.height).toBe("440lh");
    fireEvent.pointerDown(output);
    expect(output.textContent).toBe(linesOf("c1", 500));
    expect(output.querySelector(".command-output-space")).toBeNull();
  });

  it("draws a long fetched output whole after a second when nobody reaches for it", async () => {
    const { api } = hostWith({ "chat-a": { c1: linesOf("c1", 500) } });
    render(<CommandCard command={deferred("c1", "chat-a", 500)} api={api("chat-a")} />);
    await vi.waitFor(() => expect(screen.getByTestId("command-output").textContent).toContain("c1 line 500"));
    expect(screen.getByTestId("command-output").textContent).not.toContain("c1 line 1\n");
    await vi.waitFor(
      () => expect(screen.getByTestId("command-output").textContent).toBe(linesOf("c1", 500)),
      {
        timeout: 3000,
      },
    );
  });

  it("shows a running command's live output as it comes, without asking", () => {
    const { api, commandOutput } = hostWith({});
    const view = runningCommand({ id: "live", output: linesOf("live", 300), totalLines: 300 });
    const { rerender } = render(<CommandCard command={view} api={api("chat-a")} />);
    expect(screen.getByTestId("command-output").textContent).toBe(linesOf("live", 300));
    rerender(
      <CommandCard
        command={{ ...view, output: linesOf("live", 301), totalLines: 301 }}
        api={api("chat-a")}
      />,
    );
    expect(screen.getByTestId("command-output").textContent).toContain("live line 301");
    expect(commandOutput).not.toHaveBeenCalled();
  });

  it("says why when the output cannot be had, and asks again when drawn again", async () => {
    const { api, commandOutput } = hostWith({});
    const first = render(<CommandCard command={deferred("gone", "chat-a", 12)} api={api("chat-a")} />);
    const alert = await screen.findByTestId("command-output-error");
    expect(alert.textContent).toBe(
      'The output could not be loaded: This chat has no command "gone". Scroll away and back to try again.',
    );
    first.unmount();
    render(<CommandCard command={deferred("gone", "chat-a", 12)} api={api("chat-a")} />);
    await screen.findByTestId("command-output-error");
    expect(commandOutput).toHaveBeenCalledTimes(2);
  });
});

/** The ended view a `command-update` brings the page as the command ends: its output as the host keeps it. */
function endedHere(
  id: string,
  output: string,
  cut?: { totalLines: number; fullOutputPath: string },
): CommandView {
  const { deferredOutput: _none, ...view } = deferred(id, "chat-a", 0);
  const totalLines = cut?.totalLines ?? output.split("\n").length - 1;
  return {
    ...view,
    output,
    totalLines,
    totalBytes: totalLines * 20,
    details: {
      ...(view.details as NonNullable<CommandView["details"]>),
      totalLines,
      totalBytes: totalLines * 20,
      truncated: cut !== undefined,
      ...(cut ? { fullOutputPath: cut.fullOutputPath } : {}),
    },
  };
}

/** A chat ("chat-a" unless told) open in the page with one command card. */
const chatWith = (command: CommandView, id = "chat-a") =>
  hostState({
    session: session({
      id,
      transcript: [{ kind: "command", id: command.id }],
      commands: { [command.id]: command },
    }),
  });

describe("a card that ended on the page, when a snapshot leaves its output out", () => {
  // 60 lines of about 24 characters: long enough that the host's state leaves it out (over 1,024).
  const whole = linesOf("c1 build output", 60);

  it("keeps showing the output the page saw end, without a placeholder or a request", () => {
    const { api, commandOutput } = hostWith({ "chat-a": { c1: whole } });
    const view = render(
      <ChatView
        host={chatWith(runningCommand({ id: "c1", output: linesOf("c1 build output", 30) }))}
        api={api("chat-a")}
      />,
    );
    view.rerender(<ChatView host={chatWith(endedHere("c1", whole))} api={api("chat-a")} />);
    expect(screen.getByTestId("command-output").textContent).toBe(whole);
    // A Settings change: the host sends its state again, this output left out of it.
    view.rerender(<ChatView host={chatWith(deferred("c1", "chat-a", 60))} api={api("chat-a")} />);
    const output = screen.getByTestId("command-output");
    expect(output.getAttribute("aria-busy")).toBeNull();
    expect(output.textContent).toBe(whole);
    expect(commandOutput).not.toHaveBeenCalled();
    // Scrolled away and back: drawn at once from what the page kept.
    view.unmount();
    render(<CommandCard command={deferred("c1", "chat-a", 60)} api={api("chat-a")} />);
    expect(screen.getByTestId("command-output").textContent).toBe(whole);
    expect(commandOutput).not.toHaveBeenCalled();
  });

  it("asks the host when the output the page held was trimmed, and shows the host's text", async () => {
    const real = linesOf("host's tail", 60);
    const { api, commandOutput } = hostWith({ "chat-a": { c1: real } });
    const trimmed = endedHere("c1", linesOf("page's copy", 60), {
      totalLines: 5000,
      fullOutputPath: "/data/outputs/c1.log",
    });
    const view = render(<ChatView host={chatWith(trimmed)} api={api("chat-a")} />);
    view.rerender(<ChatView host={chatWith(deferred("c1", "chat-a", 60))} api={api("chat-a")} />);
    expect(screen.getByTestId("command-output").getAttribute("aria-busy")).toBe("true");
    expect(commandOutput).toHaveBeenCalledWith({ chatId: "chat-a", commandId: "c1" });
    await vi.waitFor(() => expect(screen.getByTestId("command-output").textContent).toBe(real));
    expect(commandOutput).toHaveBeenCalledTimes(1);
  });

  it("asks the host when the page saw the command only running (its end came with the snapshot)", async () => {
    // The live output is a rolling tail: as many lines as the end's, but not the same ones.
    const live = linesOf("c1 earlier output", 60);
    const { api, commandOutput } = hostWith({ "chat-a": { c1: whole } });
    const view = render(
      <ChatView host={chatWith(runningCommand({ id: "c1", output: live }))} api={api("chat-a")} />,
    );
    view.rerender(<ChatView host={chatWith(deferred("c1", "chat-a", 60))} api={api("chat-a")} />);
    expect(commandOutput).toHaveBeenCalledTimes(1);
    await vi.waitFor(() => expect(screen.getByTestId("command-output").textContent).toBe(whole));
  });

  it("never shows a chat's output in another chat opened after it, whose command has the same id", async () => {
    const other = linesOf("chat b output", 60);
    const { api, commandOutput } = hostWith({ "chat-b": { c1: other } });
    const view = render(<ChatView host={chatWith(endedHere("c1", whole))} api={api("chat-a")} />);
    view.rerender(<ChatView host={chatWith(deferred("c1", "chat-b", 60), "chat-b")} api={api("chat-b")} />);
    expect(screen.getByTestId("command-output").textContent).not.toContain("c1 build output");
    expect(commandOutput).toHaveBeenCalledWith({ chatId: "chat-b", commandId: "c1" });
    await vi.waitFor(() => expect(screen.getByTestId("command-output").textContent).toBe(other));
  });
});
