import { act, cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { CommandCard } from "../../src/renderer/src/features/commands/CommandCard";
import type { CommandPhase, CommandView, RunCommandDetails } from "../../src/shared/commands";
import { fakeApi, runningCommand } from "./fixtures";

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

function details(overrides: Partial<RunCommandDetails> = {}): RunCommandDetails {
  return {
    status: "succeeded",
    command: "npm test > log.txt",
    edited: false,
    cwd: "/home/ada/repo",
    timeoutSeconds: 60,
    exitCode: 0,
    timedOut: false,
    cancelled: false,
    durationMs: 1234,
    truncated: false,
    totalBytes: 6,
    totalLines: 1,
    ...overrides,
  };
}

function finished(
  phase: CommandPhase,
  more: Partial<RunCommandDetails> = {},
  view: Partial<CommandView> = {},
) {
  return runningCommand({
    phase,
    output: "done.\n",
    details: details({ status: phase as RunCommandDetails["status"], ...more }),
    ...view,
  });
}

describe("a running command card", () => {
  it("shows the elapsed time and a countdown to the timeout, ticking", () => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date("2030-01-01T00:00:00Z"));
    const api = fakeApi();
    render(
      <CommandCard
        command={runningCommand({ startedAt: Date.now() - 5_000, timeoutSeconds: 90 })}
        api={api}
      />,
    );
    const card = screen.getByTestId("command-card");
    expect(card.dataset.status).toBe("running");
    expect(within(card).getByTestId("elapsed").textContent).toBe("Running for 0:05");
    expect(within(card).getByTestId("countdown").textContent).toBe("times out in 1:25");
    act(() => vi.advanceTimersByTime(3_000));
    expect(within(card).getByTestId("countdown").textContent).toBe("times out in 1:22");
  });

  it("cancels that command only", () => {
    const api = fakeApi();
    render(<CommandCard command={runningCommand({ id: "call-7" })} api={api} />);
    fireEvent.click(screen.getByTestId("cancel-button"));
    expect(api.cancelCommand).toHaveBeenCalledWith({ commandId: "call-7" });
    expect(api.stop).not.toHaveBeenCalled();
    expect((screen.getByTestId("cancel-button") as HTMLButtonElement).disabled).toBe(true);
  });

  it("says why a cancel failed", async () => {
    const api = fakeApi({ cancelCommand: vi.fn(() => Promise.reject(new Error("It already ended."))) });
    render(<CommandCard command={runningCommand()} api={api} />);
    fireEvent.click(screen.getByTestId("cancel-button"));
    expect((await screen.findByRole("alert")).textContent).toBe("Could not cancel: It already ended.");
  });

  it("shows coloured live output as text", () => {
    const api = fakeApi();
    render(
      <CommandCard command={runningCommand({ output: "\x1b[31mred\x1b[0m <b>plain</b>\n" })} api={api} />,
    );
    const output = screen.getByTestId("command-output");
    expect(output.textContent).toBe("red <b>plain</b>\n");
    expect(output.querySelector(".ansi-fg-1")?.textContent).toBe("red");
    expect(output.querySelector("b")).toBeNull();
  });

  it("keeps the DOM bounded with 50,000 lines pushed, saying how many are not shown", () => {
    const api = fakeApi();
    const lines = Array.from({ length: 50_000 }, (_, i) => `\x1b[32mline ${i + 1}\x1b[0m`).join("\n");
    const { rerender } = render(<CommandCard command={runningCommand({ output: "" })} api={api} />);
    rerender(
      <CommandCard command={runningCommand({ output: `${lines}\n`, totalLines: 50_000 })} api={api} />,
    );
    const output = screen.getByTestId("command-output");
    const text = output.textContent ?? "";
    expect(text.split("\n").filter(Boolean)).toHaveLength(500);
    expect(text.endsWith("line 50000\n")).toBe(true);
    expect(output.querySelectorAll("span").length).toBeLessThanOrEqual(500);
    expect(screen.getByTestId("command-card").textContent).toContain(
      "49,500 earlier lines are not shown here.",
    );
    // The full output is saved only once the command ends.
    expect(screen.queryByTestId("open-full-output")).toBeNull();
  });

  it("names the rule that let it run", () => {
    render(
      <CommandCard
        command={runningCommand({ decidedBy: "rule", rule: "npm test (workspace)" })}
        api={fakeApi()}
      />,
    );
    expect(screen.getByTestId("command-card").textContent).toContain(
      "Allowed by the rule “npm test (workspace)”",
    );
  });
});

describe("a finished command card", () => {
  it.each<[CommandPhase, string, string]>([
    ["succeeded", "succeeded", "Succeeded"],
    ["failed", "failed", "Failed"],
    ["timed-out", "timed-out", "Timed out"],
    ["cancelled", "cancelled", "Cancelled"],
    ["denied", "denied", "Denied"],
    ["refused", "refused", "Refused"],
    ["spawn-error", "failed", "Failed"],
  ])("shows %s as data-status %s with its badge", (phase, status, label) => {
    render(<CommandCard command={finished(phase)} api={fakeApi()} />);
    const card = screen.getByTestId("command-card");
    expect(card.dataset.status).toBe(status);
    expect(card.querySelector(".status-badge")?.textContent).toBe(label);
    expect(within(card).queryByTestId("cancel-button")).toBeNull();
    expect(within(card).queryByTestId("approve-button")).toBeNull();
  });

  it("shows the exit code and the duration", () => {
    render(<CommandCard command={finished("failed", { exitCode: 2, durationMs: 2500 })} api={fakeApi()} />);
    expect(screen.getByTestId("exit-code").textContent).toBe("exit 2");
    expect(screen.getByTestId("command-card").textContent).toContain("took 2.5 s");
  });

  it("shows no exit code where there is none (timed out, cancelled)", () => {
    render(
      <CommandCard command={finished("timed-out", { exitCode: null, timedOut: true })} api={fakeApi()} />,
    );
    expect(screen.queryByTestId("exit-code")).toBeNull();
  });

  it("shows why a command was refused or denied", () => {
    render(
      <CommandCard
        command={finished(
          "refused",
          { exitCode: null, durationMs: 0, reason: '"curl" is not on the allowlist.' },
          { output: "" },
        )}
        api={fakeApi()}
      />,
    );
    expect(screen.getByTestId("command-reason").textContent).toBe('Reason: "curl" is not on the allowlist.');
    expect(screen.queryByTestId("command-output")).toBeNull();
  });

  it("marks trimmed output and opens the full output, loading more by offset", async () => {
    const readFullOutput = vi
      .fn()
      .mockResolvedValueOnce({ text: "first\n", nextOffset: 6, totalBytes: 12, path: "/tmp/out.log" })
      .mockResolvedValueOnce({ text: "second\n", nextOffset: 12, totalBytes: 12, path: "/tmp/out.log" });
    const api = fakeApi({ readFullOutput });
    render(
      <CommandCard
        command={finished("succeeded", { truncated: true, fullOutputPath: "/tmp/out.log", totalLines: 2 })}
        api={api}
      />,
    );
    const card = screen.getByTestId("command-card");
    expect(card.textContent).toContain("trimmed");
    fireEvent.click(within(card).getByTestId("full-output-link"));
    const dialog = await screen.findByRole("dialog", { name: "Full output" });
    expect(readFullOutput).toHaveBeenCalledWith({ commandId: "call-1" });
    expect(await within(dialog).findByText("first", { exact: false })).toBeTruthy();
    fireEvent.click(within(dialog).getByTestId("full-output-more"));
    await within(dialog).findByText(/second/);
    expect(readFullOutput).toHaveBeenLastCalledWith({ commandId: "call-1", offset: 6 });
    expect(within(dialog).getByTestId("full-output-text").textContent).toBe("first\nsecond\n");
    expect(within(dialog).queryByTestId("full-output-more")).toBeNull();
    fireEvent.keyDown(dialog, { key: "Escape" });
    expect(screen.queryByRole("dialog")).toBeNull();
  });

  it("says when the saved output was cut to the budget, and by how much", () => {
    const fullOutputCut = {
      droppedBytes: 1.5 * 1024 ** 3,
      droppedLines: 16_106_127,
      budgetBytes: 256 * 1024 ** 2,
    };
    render(
      <CommandCard
        command={finished("timed-out", { truncated: true, fullOutputPath: "/tmp/out.log", fullOutputCut })}
        api={fakeApi()}
      />,
    );
    expect(screen.getByTestId("full-output-cut").textContent).toBe(
      " It passed the 256 MB budget per command, so the file keeps its first and last parts: 1.5 GB (16,106,127 lines) in the middle were left out.",
    );
  });

  it("shows the lines the card left out, from the output it holds, when the host kept it all", () => {
    const output = Array.from({ length: 600 }, (_, i) => `row ${i + 1}`).join("\n");
    const api = fakeApi();
    render(<CommandCard command={finished("succeeded", { totalLines: 600 }, { output })} api={api} />);
    expect(screen.getByTestId("command-card").textContent).toContain("100 earlier lines are not shown here.");
    fireEvent.click(screen.getByTestId("open-full-output"));
    const dialog = screen.getByRole("dialog");
    expect(within(dialog).getByTestId("full-output-text").textContent).toBe(output);
    expect(api.readFullOutput).not.toHaveBeenCalled();
  });

  it("a pending command already answered waits without actions, and leaves the tray", () => {
    render(
      <CommandCard
        command={runningCommand({ phase: "pending", approvalId: "p1", decidedBy: "person" })}
        api={fakeApi()}
      />,
    );
    expect(screen.getByTestId("command-waiting").textContent).toContain("Answered");
    expect(screen.queryByTestId("approve-button")).toBeNull();
  });

  it("lets the person fold the output", () => {
    render(<CommandCard command={finished("succeeded")} api={fakeApi()} />);
    const details = screen.getByTestId("command-card").querySelector("details");
    expect(details?.open).toBe(true);
    expect(details?.querySelector("summary")?.textContent).toBe("Output (1 line)");
  });
});
