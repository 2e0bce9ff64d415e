import { cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { CardPlaceContext } from "../../src/renderer/src/features/commands/card-scope";
import { McpCallCard } from "../../src/renderer/src/features/mcp/McpCallCard";
import type { McpCallView } from "../../src/shared/mcp";
import { fakeApi } from "./fixtures";

afterEach(cleanup);

function pendingCall(overrides: Partial<McpCallView> = {}): McpCallView {
  return {
    id: "c1",
    server: "github",
    tool: "delete_branch",
    description: "Deletes a branch",
    arguments: { branch: "main", note: "x".repeat(1000) },
    hints: ["destructive", "open-world"],
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

describe("an MCP call's card", () => {
  it("carries its hooks: the call, server, tool and status, the arguments folded, each of the server's hints", () => {
    const { card, inCard } = renderCard(pendingCall());
    expect(card.dataset).toMatchObject({
      toolCallId: "c1",
      server: "github",
      tool: "delete_branch",
      status: "pending",
    });
    const args = inCard.getByTestId("tool-arguments").textContent ?? "";
    expect(args).toContain('"branch": "main"');
    expect(args).toContain("600 more characters");
    expect(args.length).toBeLessThan(700);
    expect(inCard.getAllByTestId("tool-hint").map((hint) => hint.dataset.hint)).toEqual([
      "destructive",
      "open-world",
    ]);
    expect(card.textContent).toContain("Deletes a branch");
  });

  it("approves with Enter, denies with a reason, and sends edited arguments only when they are a JSON object", () => {
    const first = renderCard(pendingCall());
    fireEvent.keyDown(first.card, { key: "Enter" });
    expect(first.api.decide).toHaveBeenCalledWith({ approvalId: "ap-1", decision: { kind: "approve" } });
    cleanup();
    const second = renderCard(pendingCall());
    fireEvent.click(second.inCard.getByTestId("deny-button"));
    fireEvent.change(second.inCard.getByTestId("deny-reason"), { target: { value: "not main" } });
    fireEvent.click(second.inCard.getByTestId("deny-confirm"));
    expect(second.api.decide).toHaveBeenCalledWith({
      approvalId: "ap-1",
      decision: { kind: "deny", reason: "not main" },
    });
    cleanup();
    const third = renderCard(pendingCall({ arguments: { branch: "main" } }));
    fireEvent.click(third.inCard.getByTestId("edit-arguments-button"));
    const input = third.inCard.getByTestId("tool-arguments-input");
    fireEvent.change(input, { target: { value: "{ branch: " } });
    fireEvent.click(third.inCard.getByTestId("tool-arguments-apply"));
    expect(third.inCard.getByTestId("tool-arguments-problem").textContent).toContain("not JSON");
    expect(third.api.decide).not.toHaveBeenCalled();
    fireEvent.change(input, { target: { value: '{ "branch": "feature" }' } });
    fireEvent.click(third.inCard.getByTestId("tool-arguments-apply"));
    expect(third.api.decide).toHaveBeenCalledWith({
      approvalId: "ap-1",
      decision: { kind: "approve", arguments: { branch: "feature" } },
    });
  });

  it("makes an allow rule for the tool or its whole server, for the chat or the workspace, only from the person's choice", () => {
    const { api, inCard } = renderCard(pendingCall());
    fireEvent.click(inCard.getByTestId("always-allow-button"));
    fireEvent.click(inCard.getByTestId("rule-tools-server"));
    fireEvent.click(inCard.getByTestId("rule-scope-workspace"));
    fireEvent.click(inCard.getByTestId("always-allow-confirm"));
    expect(api.decide).toHaveBeenCalledWith({
      approvalId: "ap-1",
      decision: { kind: "approve" },
      rule: { effect: "allow", match: "mcp-server", pattern: "github", scope: "workspace" },
    });
  });

  it("offers Cancel while the call runs, and is a tray item with prefixed test ids in the tray", () => {
    const { api, inCard } = renderCard(
      pendingCall({ status: "running", approvalId: undefined, decidedBy: "person" }),
    );
    expect(inCard.queryByTestId("approve-button")).toBeNull();
    fireEvent.click(inCard.getByTestId("cancel-button"));
    expect(api.cancelCommand).toHaveBeenCalledWith({ commandId: "c1" });
    cleanup();
    render(
      <CardPlaceContext.Provider value="tray">
        <McpCallCard call={pendingCall()} api={fakeApi()} />
      </CardPlaceContext.Provider>,
    );
    const item = screen.getByTestId("tray-item");
    expect(item.dataset.toolCallId).toBe("c1");
    expect(within(item).getByTestId("tray-approve-button")).toBeTruthy();
  });

  it("plays the result's sounds and lists the resources it points to", () => {
    const { inCard } = renderCard(
      pendingCall({
        status: "done",
        approvalId: undefined,
        result: "Here is the sound.",
        audio: [{ mimeType: "audio/wav", data: "UklGRg==" }],
        links: [
          {
            uri: "file:///reports/q3.pdf",
            name: "q3.pdf",
            title: "Third-quarter report",
            description: "The report",
            mimeType: "application/pdf",
          },
          { uri: "test://static/resource/2", name: "Text Resource 2" },
        ],
      }),
    );
    const audio = inCard.getByTestId("tool-audio") as HTMLAudioElement;
    expect(audio.getAttribute("src")).toBe("data:audio/wav;base64,UklGRg==");
    expect(audio.getAttribute("aria-label")).toBe("Sound 1 of the result");
    const links = inCard.getAllByTestId("tool-resource-link");
    expect(links.map((link) => link.dataset.uri)).toEqual([
      "file:///reports/q3.pdf",
      "test://static/resource/2",
    ]);
    expect(links[0]?.textContent).toContain("Third-quarter report");
    expect(links[0]?.textContent).toContain("application/pdf");
    expect(links[1]?.textContent).toContain("Text Resource 2");
    // Shown, not opened: a resource lives on the server.
    expect(links[0]?.querySelector("a")).toBeNull();
  });
});
