import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { SettingsView } from "../../src/renderer/src/features/settings/SettingsView";
import { I18nProvider, type Language } from "../../src/renderer/src/i18n/i18n";
import type { ResourceLimitsState } from "../../src/shared/host-state";
import { fakeApi, hostState } from "./fixtures";

afterEach(cleanup);

const MiB = 1024 ** 2;

/** A workspace's limits per command as the host reports them on a cgroup v1 machine, defaults in force. */
function resources(overrides: Partial<ResourceLimitsState> = {}): ResourceLimitsState {
  return {
    layer: "cgroup-v1",
    description: "limits: cgroup v1",
    memoryBytes: 8 * 1024 * MiB,
    processes: 2_048,
    cpuWeight: 50,
    defaults: { memoryBytes: 8 * 1024 * MiB, processes: 2_048 },
    fromWorkspace: { memoryBytes: false, processes: false },
    ...overrides,
  };
}

function show(state: ResourceLimitsState, api = fakeApi(), language: Language = "en") {
  const host = hostState();
  const limits = host.limits && { ...host.limits, resources: state };
  render(
    <I18nProvider initial={language}>
      <SettingsView host={{ ...host, limits }} api={api} />
    </I18nProvider>,
  );
  return api;
}

describe("Settings: memory and processes per command", () => {
  it("says which layer holds the limits, and the CPU weight", () => {
    show(resources());
    const layer = screen.getByTestId("limits-layer");
    expect(layer.getAttribute("data-layer")).toBe("cgroup-v1");
    expect(layer.textContent).toContain("Limits: cgroup v1");
    expect(screen.getByTestId("limits-cpu").textContent).toContain("weigh 50 against the app's 100");
  });

  it("says what per-process limits leave open, and that nothing is limited where nothing is", () => {
    show(resources({ layer: "process", cpuWeight: null }));
    expect(screen.getByTestId("limits-layer").textContent).toBe(
      "Per process only: each process's memory is limited on its own, and a command can still start many processes.",
    );
    cleanup();
    show(
      resources({
        layer: "none",
        description: "not limited: Windows: commands are not limited (no Job Object yet).",
      }),
    );
    expect(screen.getByTestId("limits-layer").textContent).toBe(
      "Not limited: Windows: commands are not limited (no Job Object yet).",
    );
    // No fields for limits nothing would enforce.
    expect(screen.queryByTestId("limits-memory")).toBeNull();
  });

  it("says why nothing is limited in the page's language, not the host's English", () => {
    show(
      resources({
        layer: "none",
        description:
          "not limited: this system has no cgroups, and its per-process memory limit is not enforced.",
        notLimited: "no-cgroups",
        cpuWeight: null,
      }),
      fakeApi(),
      "zh-CN",
    );
    expect(screen.getByTestId("limits-layer").textContent).toBe(
      "不受限制：本系统没有 cgroups，且单个进程的内存上限不会被强制执行。",
    );
  });

  it("saves the memory limit typed, in MiB, leaving the process limit at its default", async () => {
    const api = show(resources());
    fireEvent.change(screen.getByTestId("limits-memory"), { target: { value: "512" } });
    fireEvent.click(screen.getByTestId("limits-save"));
    await waitFor(() => expect(screen.getByTestId("limits-saved")).toBeTruthy());
    expect(api.setResourceLimits).toHaveBeenCalledWith({ memoryBytes: 512 * MiB });
  });

  it("refuses a limit below the smallest, saying what to give, without calling the host", () => {
    const api = show(resources({ fromWorkspace: { memoryBytes: false, processes: true }, processes: 64 }));
    expect((screen.getByTestId("limits-processes") as HTMLInputElement).value).toBe("64");
    fireEvent.change(screen.getByTestId("limits-processes"), { target: { value: "4" } });
    fireEvent.click(screen.getByTestId("limits-save"));
    expect(screen.getByTestId("limits-error").textContent).toBe(
      "Give at least 16 processes, or leave it empty for the default.",
    );
    fireEvent.change(screen.getByTestId("limits-processes"), { target: { value: "1.5" } });
    fireEvent.click(screen.getByTestId("limits-save"));
    expect(screen.getByTestId("limits-error").textContent).toBe(
      "Give a whole number, or leave it empty for the default.",
    );
    expect(api.setResourceLimits).not.toHaveBeenCalled();
  });

  it("says the host's reason when it refuses", async () => {
    const api = fakeApi({
      setResourceLimits: async () => {
        throw new Error("Could not write the workspace's settings.");
      },
    });
    show(resources(), api);
    fireEvent.change(screen.getByTestId("limits-processes"), { target: { value: "100" } });
    fireEvent.click(screen.getByTestId("limits-save"));
    await waitFor(() =>
      expect(screen.getByTestId("limits-error").textContent).toBe(
        "The limits were not changed: Could not write the workspace's settings.",
      ),
    );
  });

  it("shows and sets the total of the workspace's background commands, keeping the limits it set before", async () => {
    const api = show(
      resources({
        memoryBytes: 1024 * MiB,
        fromWorkspace: { memoryBytes: true, processes: false },
        backgroundTotal: { memoryBytes: 1024 * MiB, processes: 4_096 },
      }),
    );
    expect(screen.getByTestId("limits-background-total").textContent).toBe(
      "The workspace's background commands together: at most 1 GiB of memory and 4,096 processes.",
    );
    fireEvent.change(screen.getByTestId("limits-background-processes"), { target: { value: "300" } });
    fireEvent.click(screen.getByTestId("limits-save"));
    await waitFor(() => expect(screen.getByTestId("limits-saved")).toBeTruthy());
    expect(api.setResourceLimits).toHaveBeenCalledWith({ memoryBytes: 1024 * MiB, backgroundProcesses: 300 });
  });

  it("speaks Chinese on the Chinese page", () => {
    show(resources(), fakeApi(), "zh-CN");
    expect(screen.getByText("每条命令的内存与进程")).toBeTruthy();
    expect(screen.getByTestId("limits-layer").textContent).toContain("上限：cgroup v1");
  });
});
