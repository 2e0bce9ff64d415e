import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { ChatView } from "../../src/renderer/src/features/chat/ChatView";
import type { TranscriptItem } from "../../src/shared/transcript";
import { fakeApi, hostState, pendingCommand, session } from "./fixtures";

afterEach(cleanup);

/** A chat of `count` messages, with a command waiting for the person at `waitingAt`. */
function longChat(count: number, waitingAt: number) {
  const transcript: TranscriptItem[] = Array.from({ length: count }, (_, i) =>
    i === waitingAt ? { kind: "command", id: "call-1" } : { kind: "user", id: `u${i}`, text: `message ${i}` },
  );
  return hostState({ session: session({ transcript, commands: { "call-1": pendingCommand() } }) });
}

describe("the transcript of a long chat", () => {
  it("draws a window of its entries, each saying where it stands in the whole chat", () => {
    render(<ChatView host={longChat(1000, 999)} api={fakeApi()} />);
    const drawn = [...screen.getByTestId("transcript").querySelectorAll<HTMLElement>(".transcript-item")];
    expect(drawn.length).toBeGreaterThan(0);
    expect(drawn.length).toBeLessThan(50);
    expect(drawn.every((entry) => entry.getAttribute("aria-setsize") === "1000")).toBe(true);
    expect(drawn[0]?.getAttribute("aria-posinset")).toBe(`${Number(drawn[0]?.dataset.index) + 1}`);
  });

  it("keeps the line of what waits for the person drawn, however far from the view it is", () => {
    render(<ChatView host={longChat(1000, 600)} api={fakeApi()} />);
    const line = screen.getByTestId("pending-line");
    expect(line.getAttribute("data-command-id")).toBe("call-1");
    expect(line.closest(".transcript-item")?.getAttribute("aria-posinset")).toBe("601");
  });
});
