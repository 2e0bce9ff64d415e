import { cleanup, render, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { TurnError } from "../../src/renderer/src/features/chat/TurnError";
import type { TurnErrorItem } from "../../src/shared/transcript";

afterEach(cleanup);

const base: TurnErrorItem = {
  kind: "turn-error",
  id: "e1",
  errorKind: "provider",
  status: 500,
  message: "The upstream server is down",
  raw: '500 {"error":{"message":"The upstream server is down"}}',
  attempts: 1,
  maxRetries: 3,
  state: "failed",
};

describe("a turn's provider error", () => {
  it("says what failed in the provider's words, with advice for the kind, and folds the raw text", () => {
    render(<TurnError item={base} />);
    const entry = screen.getByTestId("turn-error");
    expect(entry.getAttribute("data-kind")).toBe("provider");
    expect(entry.getAttribute("data-attempts")).toBe("1");
    expect(entry.textContent).toContain("The provider failed on its side");
    expect(entry.textContent).toContain("HTTP 500");
    expect(screen.getByTestId("turn-error-message").textContent).toBe("The upstream server is down");
    expect(entry.textContent).toContain("Nothing is wrong with your key or settings");
    expect(entry.textContent).not.toContain("API key in settings");
    const raw = entry.querySelector("details");
    expect(raw?.open).toBe(false);
    expect(raw?.textContent).toContain('{"error"');
  });

  it("shows where the retries stand while Pi retries, and the outcome after", () => {
    const { rerender } = render(
      <TurnError item={{ ...base, state: "retrying", attempts: 2, retryAt: Date.now() + 4000 }} />,
    );
    expect(screen.getByTestId("turn-error-progress").textContent).toMatch(
      /^Retrying \(2 of 3\)… next request in [34] s$/,
    );
    rerender(<TurnError item={{ ...base, attempts: 4 }} />);
    expect(screen.getByTestId("turn-error-progress").textContent).toBe("Failed after 4 requests.");
    rerender(<TurnError item={{ ...base, state: "recovered", attempts: 2 }} />);
    expect(screen.getByTestId("turn-error").getAttribute("role")).toBe("status");
    expect(screen.getByTestId("turn-error-progress").textContent).toBe("Answered on request 2.");
  });

  it("gives each kind its own advice", () => {
    const advice = {
      auth: "Check the key for this provider",
      model: "Check the model name",
      "rate-limit": "Wait a moment",
      network: "baseUrl",
      other: "Try again",
    } as const;
    for (const [errorKind, words] of Object.entries(advice)) {
      render(<TurnError item={{ ...base, errorKind: errorKind as TurnErrorItem["errorKind"] }} />);
      expect(screen.getByTestId("turn-error").textContent).toContain(words);
      cleanup();
    }
  });

  it("says how long the provider asked to wait, in seconds or in minutes", () => {
    render(
      <TurnError item={{ ...base, errorKind: "rate-limit", status: 429, retryAfter: Date.now() + 30_000 }} />,
    );
    expect(within(screen.getByTestId("turn-error")).getByTestId("turn-error-wait").textContent).toMatch(
      /^The provider asks to wait (29|30) s before trying again\.$/,
    );
    // Fresh renders: the countdown's clock is read once a second, and a rerender would keep the old reading.
    cleanup();
    render(<TurnError item={{ ...base, errorKind: "rate-limit", retryAfter: Date.now() + 5 * 60_000 }} />);
    expect(screen.getByTestId("turn-error-wait").textContent).toBe(
      "The provider asks to wait 5 minutes before trying again.",
    );
    cleanup();
    render(<TurnError item={{ ...base, errorKind: "rate-limit", retryAfter: Date.now() - 1 }} />);
    expect(screen.getByTestId("turn-error-wait").textContent).toContain("you can send again");
  });
});
