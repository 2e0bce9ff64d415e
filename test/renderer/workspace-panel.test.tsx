import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import type { ChatApi } from "../../src/renderer/src/client/chat-api";
import { WorkspacePanel } from "../../src/renderer/src/features/workspace/WorkspacePanel";
import type { HostState } from "../../src/shared/host-state";
import { fakeApi, hostState } from "./fixtures";

/** The panel's props from a state, as the app passes them. */
const panelOf = (host: HostState) => ({
  workspace: host.workspace,
  changes: host.limits?.changes,
  canChooseWorkspace: host.canChooseWorkspace,
});

afterEach(cleanup);

const base: HostState = hostState({
  workspace: null,
  session: null,
  shell: "electron",
  canChooseWorkspace: true,
});

function apiThatFails(message: string): ChatApi {
  return fakeApi({ chooseWorkspace: () => Promise.reject(new Error(message)) });
}

describe("WorkspacePanel", () => {
  it("shows the open workspace's name and full path", () => {
    const host = { ...base, workspace: { id: "w1", name: "repo", path: "/home/ada/repo" } };
    render(<WorkspacePanel {...panelOf(host)} api={apiThatFails("unused")} />);
    expect(screen.getByTestId("workspace-name").textContent).toBe("repo");
    expect(screen.getByTestId("workspace-path").textContent).toBe("/home/ada/repo");
    expect(screen.getByRole("button", { name: "Open another folder…" })).toBeTruthy();
  });

  it("tells the browser host's person how to choose a folder, with no dead button", () => {
    render(
      <WorkspacePanel {...panelOf({ ...base, canChooseWorkspace: false })} api={apiThatFails("unused")} />,
    );
    expect(screen.getByTestId("no-workspace").textContent).toContain("--workspace <folder>");
    expect(screen.queryByRole("button")).toBeNull();
  });

  it("shows the host's error when opening a folder fails", async () => {
    render(<WorkspacePanel {...panelOf(base)} api={apiThatFails("The folder is gone.")} />);
    fireEvent.click(screen.getByRole("button", { name: "Open folder…" }));
    expect((await screen.findByRole("alert")).textContent).toBe("The folder is gone.");
  });
});
