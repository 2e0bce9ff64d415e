import { cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { McpServersSettings } from "../../src/renderer/src/features/mcp/McpServersSettings";
import type { McpServersState } from "../../src/shared/mcp";
import { fakeApi } from "./fixtures";

afterEach(cleanup);

const state: McpServersState = {
  servers: [
    {
      name: "everything",
      status: "connected",
      tools: 14,
      transport: "stdio",
      source: "/a/mcp.json",
      scope: "global",
    },
    {
      name: "broken",
      status: "failed",
      tools: 0,
      error: "spawn /nope ENOENT. The program was not found",
      transport: "stdio",
      source: "/a/mcp.json",
      scope: "global",
    },
    {
      name: "quiet",
      status: "disabled",
      tools: 0,
      transport: "http",
      source: "/a/mcp.json",
      scope: "global",
      offInWorkspace: true,
    },
  ],
  errors: ['/a/mcp.json: server "bad name" is invalid'],
  skippedProjectConfig: "/repo/.pi/mcp.json",
};

describe("Settings' MCP servers", () => {
  it("lists each server with its state, the failure with what to do, the skipped project file and the file's errors", () => {
    render(<McpServersSettings mcp={state} api={fakeApi()} />);
    const rows = screen.getAllByTestId("mcp-server");
    expect(rows.map((row) => [row.dataset.name, row.dataset.state])).toEqual([
      ["everything", "connected"],
      ["broken", "failed"],
      ["quiet", "disabled"],
    ]);
    expect(within(rows[0] as HTMLElement).getByTestId("mcp-server-state").textContent).toBe(
      "Connected, 14 tools",
    );
    expect(within(rows[1] as HTMLElement).getByTestId("mcp-server-error").textContent).toContain("ENOENT");
    expect(rows[1]?.textContent).toContain("then reconnect");
    expect(within(rows[2] as HTMLElement).getByTestId("mcp-server-state").textContent).toBe(
      "Turned off in this workspace",
    );
    expect(screen.getByTestId("mcp-project-skipped").textContent).toContain("/repo/.pi/mcp.json");
    expect(screen.getByTestId("mcp-config-errors").textContent).toContain("bad name");
  });

  it("reconnects a server, and turns one off in the workspace from the next chat", async () => {
    const api = fakeApi();
    render(<McpServersSettings mcp={state} api={api} />);
    const broken = screen.getAllByTestId("mcp-server")[1] as HTMLElement;
    fireEvent.click(within(broken).getByTestId("mcp-reconnect-button"));
    expect(api.reconnectMcpServer).toHaveBeenCalledWith({ name: "broken" });
    const everything = screen.getAllByTestId("mcp-server")[0] as HTMLElement;
    fireEvent.click(within(everything).getByTestId("mcp-server-enabled"));
    expect(api.setMcpServerEnabled).toHaveBeenCalledWith({ name: "everything", enabled: false });
    await waitFor(() => expect(within(everything).getByTestId("mcp-server-next-chat")).toBeTruthy());
  });
});
