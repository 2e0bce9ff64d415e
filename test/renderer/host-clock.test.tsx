import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { TurnError } from "../../src/renderer/src/features/chat/TurnError";
import { CommandCard } from "../../src/renderer/src/features/commands/CommandCard";
import { hostNow, syncHostClock } from "../../src/renderer/src/lib/host-clock";
import { fakeApi, runningCommand } from "./fixtures";

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(new Date("2030-01-01T00:00:00Z"));
});

afterEach(() => {
  cleanup();
  syncHostClock(Date.now());
  vi.useRealTimers();
});

/** A host whose clock is an hour behind the page's (a remote machine set wrong). */
const HOUR = 3_600_000;

describe("countdowns against a host whose clock differs from the page's", () => {
  it("count a running command's time by the host's clock", () => {
    syncHostClock(Date.now() - HOUR);
    const command = runningCommand({ startedAt: hostNow() - 5_000, timeoutSeconds: 30 });
    render(<CommandCard command={command} api={fakeApi()} />);
    expect(screen.getByTestId("elapsed").textContent).toBe("Running for 0:05");
    expect(screen.getByTestId("countdown").textContent).toBe("times out in 0:25");
  });

  it("count a retry's wait by the host's clock", () => {
    syncHostClock(Date.now() + HOUR);
    render(
      <TurnError
        item={{
          kind: "turn-error",
          id: "e1",
          errorKind: "provider",
          message: "overloaded",
          raw: "overloaded",
          attempts: 1,
          maxRetries: 3,
          state: "retrying",
          retryAt: hostNow() + 4_000,
        }}
      />,
    );
    expect(screen.getByTestId("turn-error-progress").textContent).toContain("next request in 4 s");
  });
});
