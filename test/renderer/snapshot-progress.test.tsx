import { cleanup, render, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { SettingsView } from "../../src/renderer/src/features/settings/SettingsView";
import { WorkspacePanel } from "../../src/renderer/src/features/workspace/WorkspacePanel";
import { deskReducer } from "../../src/renderer/src/state/desk-reducer";
import type { ChangesState } from "../../src/shared/changes";
import type { HostState } from "../../src/shared/host-state";
import { fakeApi, hostState } from "./fixtures";

/** The panel's props from a state, as the app passes them. */
const panelOf = (host: HostState) => ({
  workspace: host.workspace,
  changes: host.limits?.changes,
  canChooseWorkspace: host.canChooseWorkspace,
});

afterEach(cleanup);

function withChanges(changes: Partial<ChangesState>): HostState {
  const host = hostState();
  const limits = host.limits as NonNullable<HostState["limits"]>;
  return { ...host, limits: { ...limits, changes: { ...limits.changes, ...changes } } };
}

const FIX =
  "echo fs.inotify.max_user_watches=524288 | sudo tee /etc/sysctl.d/60-pi-desk.conf && sudo sysctl --system";
const LIMIT =
  "The workspace has more folders (at least 96,266) than the system lets Pi Desk watch (fs.inotify.max_user_watches is 192,530), " +
  `so each command's changes are found by scanning the whole workspace, which is slower. To raise the limit, run: ${FIX} (then reopen the workspace).`;

describe("the first snapshot's progress", () => {
  it("shows files scanned of the total on the workspace status and in Settings, and that commands go unrecorded", () => {
    const host = withChanges({
      state: { type: "preparing" },
      progress: { scanned: 120_000, total: 300_000 },
    });
    render(<WorkspacePanel {...panelOf(host)} api={fakeApi()} />);
    render(<SettingsView host={host} api={fakeApi()} />);
    const shown = screen.getAllByTestId("changes-progress");
    expect(shown).toHaveLength(2);
    for (const progress of shown) {
      expect(progress.textContent).toContain("120,000 of 300,000 files");
      expect(progress.textContent).toMatch(/not recorded/);
      const bar = within(progress).getByRole("progressbar", {
        name: "First snapshot",
      }) as HTMLProgressElement;
      expect(bar.value).toBe(120_000);
      expect(bar.max).toBe(300_000);
    }
  });

  it("says it is counting before the total is known, and is gone once recording is on", () => {
    const { rerender } = render(
      <WorkspacePanel
        {...panelOf(withChanges({ state: { type: "preparing" }, progress: { scanned: 0, total: 0 } }))}
        api={fakeApi()}
      />,
    );
    expect(screen.getByTestId("changes-progress").textContent).toMatch(/counting its files/);
    rerender(<WorkspacePanel {...panelOf(withChanges({ state: { type: "on" } }))} api={fakeApi()} />);
    expect(screen.queryByTestId("changes-progress")).toBeNull();
  });

  it("moves with the host's changes-state events", () => {
    let host = withChanges({ state: { type: "preparing" } });
    const limits = host.limits as NonNullable<HostState["limits"]>;
    for (const scanned of [1_000, 250_000]) {
      const next = deskReducer(
        { host, connection: { kind: "connecting" }, seq: 0, stale: false },
        {
          type: "changes-state",
          seq: 1,
          workspaceId: host.workspace?.id ?? "",
          changes: { ...limits.changes, state: { type: "preparing" }, progress: { scanned, total: 300_000 } },
        },
      );
      if (!next.host) throw new Error("no host");
      host = next.host;
    }
    render(<WorkspacePanel {...panelOf(host)} api={fakeApi()} />);
    expect(screen.getByTestId("changes-progress").getAttribute("data-scanned")).toBe("250000");
  });
});

describe("the watch-limit message", () => {
  it("is in Settings with the one-line fix apart, ready to copy", () => {
    render(<SettingsView host={withChanges({ watchLimit: LIMIT })} api={fakeApi()} />);
    const note = screen.getByTestId("changes-watch-limit");
    expect(note.textContent).toContain("Folder watching is off");
    expect(note.textContent).toContain("slower");
    expect(screen.getByTestId("changes-watch-limit-fix").textContent).toBe(FIX);
  });

  it("is not there when the watcher covers the tree", () => {
    render(<SettingsView host={withChanges({})} api={fakeApi()} />);
    expect(screen.queryByTestId("changes-watch-limit")).toBeNull();
  });
});

describe("the records' budget in Settings", () => {
  it("says how much of the use is the copy of the workspace's files, and the history's budget on top", () => {
    const GB = 1e9;
    const host = withChanges({
      state: { type: "on" },
      usageBytes: 3.1 * GB,
      copyBytes: 2.9 * GB,
      budgetBytes: 2.9 * GB + 1024 ** 3,
    });
    render(<SettingsView host={host} api={fakeApi()} />);
    const copy = screen.getByTestId("changes-copy").textContent ?? "";
    expect(copy).toMatch(/copy of the workspace's current files, kept whatever the budget/);
    expect(copy).toContain("2.7 GB of it");
    expect(copy).toContain("1.0 GB on top");
  });

  it("says nothing of a copy before it is measured", () => {
    render(<SettingsView host={withChanges({ state: { type: "on" } })} api={fakeApi()} />);
    expect(screen.queryByTestId("changes-copy")).toBeNull();
  });
});
