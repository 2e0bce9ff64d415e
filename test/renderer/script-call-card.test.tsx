import { cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { CardFrame } from "../../src/renderer/src/features/commands/CardFrame";
import { McpCallCard } from "../../src/renderer/src/features/mcp/McpCallCard";
import { ScriptsSetting } from "../../src/renderer/src/features/mcp/ScriptsSetting";
import type { CommandView } from "../../src/shared/commands";
import type { McpCallView } from "../../src/shared/mcp";
import { fakeApi } from "./fixtures";

afterEach(cleanup);

/** A script longer than any fold: the card must show every line of it. */
const LONG_SCRIPT = [
  ...Array.from(
    { length: 120 },
    (_, line) => `const value${line} = await tools.mcp__everything__echo({ message: "${line}" });`,
  ),
  'return "the last line";',
].join("\n");

function scriptCall(overrides: Partial<McpCallView> = {}): McpCallView {
  return {
    id: "s1",
    server: "pi",
    tool: "codemode",
    piTool: "codemode",
    arguments: { code: LONG_SCRIPT },
    hints: [],
    status: "pending",
    approvalId: "ap-1",
    ...overrides,
  };
}

function renderCard(call: McpCallView, api = fakeApi()) {
  render(<McpCallCard call={call} api={api} />);
  const card = screen.getByTestId("tool-card");
  return { api, card, inCard: within(card) };
}

describe("a codemode call's card", () => {
  it("shows the script in full, never cut, with the hooks, and offers no 'always allow'", () => {
    const { card, inCard } = renderCard(scriptCall());
    expect(card.dataset).toMatchObject({ toolCallId: "s1", tool: "codemode", status: "pending" });
    expect(card.dataset.server).toBeUndefined();
    expect(inCard.getByTestId("codemode-script").textContent).toContain(LONG_SCRIPT);
    expect(inCard.queryByTestId("always-allow-button")).toBeNull();
    expect(inCard.getByTestId("approve-button")).toBeTruthy();
    expect(inCard.getByTestId("deny-button")).toBeTruthy();
  });

  it("a reopened chat's script lists the calls it made, as Pi recorded them", () => {
    const { inCard } = renderCard(
      scriptCall({
        status: "done",
        approvalId: undefined,
        scriptCalls: [
          { id: "s1/1", name: "mcp__everything__echo", status: "ok" },
          { id: "s1/2", name: "run_command", status: "error" },
        ],
      }),
    );
    const listed = inCard.getAllByTestId("script-call");
    expect(listed.map((item) => item.dataset.status)).toEqual(["ok", "error"]);
    expect(listed[1]?.textContent).toContain("run_command");
  });

  it("Edit script sends the edited script as the call's code", () => {
    const { api, inCard } = renderCard(scriptCall({ arguments: { code: "return 1;" } }));
    fireEvent.click(inCard.getByTestId("edit-arguments-button"));
    fireEvent.change(inCard.getByTestId("codemode-script-input"), { target: { value: "return 2;" } });
    fireEvent.click(inCard.getByTestId("codemode-script-apply"));
    expect(api.decide).toHaveBeenCalledWith({
      approvalId: "ap-1",
      decision: { kind: "approve", arguments: { code: "return 2;" } },
    });
  });

  it("a tool_search card shows its query; a script's nested call says it comes from the script", () => {
    renderCard(
      scriptCall({ id: "q1", tool: "tool_search", piTool: "tool_search", arguments: { query: "echo" } }),
    );
    expect(screen.getByTestId("tool-search-query").textContent).toBe("echo");
    expect(screen.getByTestId("tool-card").dataset.tool).toBe("tool_search");
    cleanup();
    const nested = renderCard({
      id: "s1/1",
      server: "everything",
      tool: "echo",
      arguments: { message: "hi" },
      hints: [],
      status: "pending",
      approvalId: "ap-2",
      parentToolCallId: "s1",
    });
    expect(nested.inCard.getByTestId("from-script").dataset.parentToolCallId).toBe("s1");
    expect(nested.inCard.getByTestId("always-allow-button")).toBeTruthy();
  });

  it("a script's command card says it comes from the script", () => {
    const command = {
      id: "s1/1",
      phase: "pending",
      command: "echo hi",
      cwd: "/repo",
      timeoutSeconds: 0,
      maxTimeoutSeconds: 600,
      parts: [],
      risks: [],
      output: "",
      totalBytes: 0,
      totalLines: 0,
      parentToolCallId: "s1",
    } as CommandView;
    render(<CardFrame command={command}>{null}</CardFrame>);
    expect(screen.getByTestId("from-script").dataset.parentToolCallId).toBe("s1");
  });
});

describe("Settings: Scripts and tool search", () => {
  it("is off by default with why, and the switch turns it on for the workspace", () => {
    const api = fakeApi();
    render(<ScriptsSetting scripts={undefined} api={api} />);
    const toggle = screen.getByTestId("codemode-toggle") as HTMLInputElement;
    expect(toggle.checked).toBe(false);
    expect(screen.getByTestId("codemode-why").textContent).toMatch(/runs code the model wrote/);
    fireEvent.click(toggle);
    expect(api.setScriptsEnabled).toHaveBeenCalledWith({ enabled: true });
  });

  it("follows the host once it has told the choice: turned off elsewhere, the switch is off here too", () => {
    const api = fakeApi();
    const { rerender } = render(<ScriptsSetting scripts={{ on: false, inThisChat: false }} api={api} />);
    const toggle = screen.getByTestId("codemode-toggle") as HTMLInputElement;
    fireEvent.click(toggle);
    expect(toggle.checked).toBe(true);
    rerender(<ScriptsSetting scripts={{ on: true, inThisChat: false }} api={api} />);
    expect(toggle.checked).toBe(true);
    rerender(<ScriptsSetting scripts={{ on: false, inThisChat: false }} api={api} />);
    expect(toggle.checked).toBe(false);
    expect(screen.getByTestId("codemode-this-chat").textContent).toContain("This chat started without them.");
  });
});
