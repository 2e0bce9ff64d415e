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

  it("offers Sign in for a server that needs it, then the sign-in page's link and a field for the redirected address", async () => {
    const api = fakeApi();
    const server = {
      name: "sentry",
      status: "needs-sign-in" as const,
      tools: 0,
      transport: "http" as const,
      source: "/a/mcp.json",
      scope: "global" as const,
      oauth: true,
    };
    const { rerender } = render(<McpServersSettings mcp={{ servers: [server], errors: [] }} api={api} />);
    const row = screen.getByTestId("mcp-server");
    expect(row.dataset.state).toBe("needs-sign-in");
    expect(within(row).getByTestId("mcp-server-state").textContent).toBe("Needs sign-in");
    expect(within(row).queryByTestId("mcp-server-error")).toBeNull();
    fireEvent.click(within(row).getByTestId("mcp-sign-in-button"));
    expect(api.signInMcpServer).toHaveBeenCalledWith({ name: "sentry" });
    const page = "http://127.0.0.1:9/authorize?client_id=c&state=s";
    rerender(
      <McpServersSettings
        mcp={{ servers: [{ ...server, signingIn: { authorizationUrl: page } }], errors: [] }}
        api={api}
      />,
    );
    expect(screen.getByTestId("mcp-sign-in-link").getAttribute("href")).toBe(page);
    expect(screen.queryByTestId("mcp-sign-in-button")).toBeNull();
    const back = "http://127.0.0.1:4567/callback?code=abc&state=s";
    fireEvent.change(screen.getByTestId("mcp-redirect-url"), { target: { value: back } });
    await waitFor(() =>
      expect(screen.getByTestId("mcp-redirect-submit").hasAttribute("disabled")).toBe(false),
    );
    fireEvent.click(screen.getByTestId("mcp-redirect-submit"));
    expect(api.pasteMcpRedirectUrl).toHaveBeenCalledWith({ name: "sentry", url: back });
    fireEvent.click(screen.getByTestId("mcp-sign-in-cancel"));
    expect(api.cancelMcpSignIn).toHaveBeenCalledWith({ name: "sentry" });
    rerender(
      <McpServersSettings
        mcp={{ servers: [{ ...server, status: "connected", tools: 3 }], errors: [] }}
        api={api}
      />,
    );
    await waitFor(() =>
      expect(screen.getByTestId("mcp-sign-out-button").hasAttribute("disabled")).toBe(false),
    );
    fireEvent.click(screen.getByTestId("mcp-sign-out-button"));
    expect(api.signOutMcpServer).toHaveBeenCalledWith({ name: "sentry" });
  });

  it("offers no sign-in for a server that does not use OAuth", () => {
    render(<McpServersSettings mcp={state} api={fakeApi()} />);
    expect(screen.queryByTestId("mcp-sign-in-button")).toBeNull();
    expect(screen.queryByTestId("mcp-sign-out-button")).toBeNull();
  });
});
