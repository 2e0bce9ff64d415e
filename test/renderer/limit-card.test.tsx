import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { CommandCard } from "../../src/renderer/src/features/commands/CommandCard";
import { I18nProvider, type Language } from "../../src/renderer/src/i18n/i18n";
import type { LimitStop, RunCommandDetails } from "../../src/shared/commands";
import { fakeApi, runningCommand } from "./fixtures";

afterEach(cleanup);

/** A command the host stopped at a resource limit, as its result's details say it. */
function stopped(limit: LimitStop, exitCode: number | null) {
  const details: RunCommandDetails = {
    status: "limit-reached",
    command: "npm test",
    edited: false,
    cwd: "/home/ada/repo",
    timeoutSeconds: 120,
    exitCode,
    timedOut: false,
    cancelled: false,
    limit,
    durationMs: 2_400,
    truncated: false,
    totalBytes: 10,
    totalLines: 1,
  };
  return runningCommand({ phase: "limit-reached", output: "Killed\n", details });
}

function show(language: Language, limit: LimitStop, exitCode: number | null = 137) {
  render(
    <I18nProvider initial={language}>
      <CommandCard command={stopped(limit, exitCode)} api={fakeApi()} />
    </I18nProvider>,
  );
}

describe("a command stopped by a resource limit", () => {
  it("says it was the memory, how much, and what to do, with its own status and the exit code", () => {
    show("en", { kind: "memory", limit: 4 * 1024 ** 3 });
    expect(screen.getByTestId("command-limit").textContent).toBe(
      "Stopped: it used more than 4 GiB of memory. Raise the memory limit in Settings, or run it so that it uses less.",
    );
    expect(screen.getByTestId("command-card").getAttribute("data-status")).toBe("limit-reached");
    expect(screen.getByText("Stopped at a limit")).toBeTruthy();
    expect(screen.getByTestId("exit-code").textContent).toBe("exit 137");
  });

  it("says it was the number of processes", () => {
    show("en", { kind: "processes", limit: 2_048 }, 0);
    expect(screen.getByTestId("command-limit").textContent).toBe(
      "Stopped: it reached 2,048 processes. Raise the process limit in Settings, or run it with fewer processes.",
    );
  });

  it("says it in Chinese on the Chinese page", () => {
    show("zh-CN", { kind: "memory", limit: 64 * 1024 ** 2 });
    expect(screen.getByTestId("command-limit").textContent).toContain("内存超过了 64 MiB");
    expect(screen.getByText("因资源上限停止")).toBeTruthy();
  });
});

describe("the layer a command's limits were held by, on its card", () => {
  function card(command: ReturnType<typeof runningCommand>, language: Language = "en") {
    render(
      <I18nProvider initial={language}>
        <CommandCard command={command} api={fakeApi()} />
      </I18nProvider>,
    );
    return screen.getByTestId("command-limits-layer");
  }

  it("says it on a running command's card, from its first live update", () => {
    const note = card(runningCommand({ limitsLayer: "process" }));
    expect(note.getAttribute("data-layer")).toBe("process");
    expect(note.textContent).toBe("limits: per process only");
  });

  it("says it on a finished command's card, from its record", () => {
    const command = stopped({ kind: "memory", limit: 64 * 1024 ** 2 }, 137);
    const withLayer = {
      ...command,
      details: command.details && { ...command.details, limitsLayer: "cgroup-v1" as const },
    };
    const note = card(withLayer);
    expect(note.getAttribute("data-layer")).toBe("cgroup-v1");
    expect(note.textContent).toBe("limits: cgroup v1");
    cleanup();
    expect(card(withLayer, "zh-CN").textContent).toBe("上限：cgroup v1");
  });

  it("says nothing for a command recorded before the layer was", () => {
    render(
      <I18nProvider initial="en">
        <CommandCard command={stopped({ kind: "processes", limit: 64 }, 0)} api={fakeApi()} />
      </I18nProvider>,
    );
    expect(screen.queryByTestId("command-limits-layer")).toBeNull();
  });
});

describe("a background command stopped at a limit", () => {
  it("says which limit on its card: the workspace's total for background commands", () => {
    const now = Date.now();
    const command = runningCommand({
      phase: "background",
      limitsLayer: "cgroup-v1",
      background: {
        status: "exited",
        ports: [],
        capSeconds: 3600,
        startedAt: now - 5_000,
        endedAt: now,
        exitCode: null,
        limit: { kind: "processes", limit: 24 },
      },
    });
    render(
      <I18nProvider initial="en">
        <CommandCard command={command} api={fakeApi()} />
      </I18nProvider>,
    );
    expect(screen.getByTestId("command-limit").textContent).toBe(
      "Stopped: it reached 24 processes. Raise the process limit in Settings, or run it with fewer processes.",
    );
    expect(screen.getByText(/stopped at a resource limit/)).toBeTruthy();
    expect(screen.getByTestId("command-limits-layer").getAttribute("data-layer")).toBe("cgroup-v1");
  });
});
