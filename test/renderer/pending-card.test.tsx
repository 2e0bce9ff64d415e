import { cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { CommandCard } from "../../src/renderer/src/features/commands/CommandCard";
import { segmentCommand } from "../../src/renderer/src/features/commands/CommandText";
import { fakeApi, pendingCommand } from "./fixtures";

afterEach(cleanup);

const offer = { exact: "npm test > log.txt", prefixes: ["npm", "npm test"] };

function renderCard(overrides = {}, api = fakeApi()) {
  const command = pendingCommand(overrides);
  render(<CommandCard command={command} api={api} />);
  const card = screen.getByTestId("command-card");
  return { api, card, inCard: within(card) };
}

describe("a pending command card", () => {
  it("shows the exact command, where it runs, its timeout, why, and its risks", () => {
    const { card, inCard } = renderCard({ why: "To run the tests." });
    expect(card.dataset.status).toBe("pending");
    expect(card.dataset.commandId).toBe("call-1");
    expect(inCard.getByTestId("command-text").textContent).toBe("npm test > log.txt");
    expect(card.textContent).toContain("/home/ada/repo");
    expect(card.textContent).toContain("60 s");
    expect(card.textContent).toContain("To run the tests.");
    expect(card.textContent).toContain("Writes to a file.");
    const risk = card.querySelector("mark.command-risk");
    expect(risk?.textContent).toBe("> log.txt");
    expect(risk?.getAttribute("title")).toBe("Writes to a file.");
  });

  it("never drops text when highlighting, even with overlapping or out-of-range spans", () => {
    const command = "a | b $(c) > d";
    const parts = [
      { name: "a", text: "a", start: 0, end: 1 },
      { name: "b", text: "b $(c) > d", start: 4, end: 14 },
    ];
    const risks = [
      { kind: "pipeline", text: "|", start: 2, end: 3, note: "" },
      { kind: "command-substitution", text: "$(c)", start: 6, end: 10, note: "" },
      { kind: "bogus", text: "", start: 40, end: 99, note: "" },
    ];
    const segments = segmentCommand(command, parts, risks);
    expect(segments.map((s) => s.text).join("")).toBe(command);
    expect(segments.find((s) => s.text === "$(c)")).toMatchObject({ part: 1 });
  });

  it("approves as asked with Approve", () => {
    const { api, inCard } = renderCard();
    fireEvent.click(inCard.getByTestId("approve-button"));
    expect(api.decide).toHaveBeenCalledWith({ approvalId: "approval-1", decision: { kind: "approve" } });
  });

  it("approves with Enter on the focused card, and opens the denial with Esc", () => {
    const { api, card } = renderCard();
    card.focus();
    fireEvent.keyDown(card, { key: "Enter" });
    expect(api.decide).toHaveBeenCalledWith({ approvalId: "approval-1", decision: { kind: "approve" } });
    cleanup();
    const second = renderCard();
    fireEvent.keyDown(second.card, { key: "Escape" });
    expect(second.inCard.getByTestId("deny-reason")).toBe(document.activeElement);
    expect(second.api.decide).not.toHaveBeenCalled();
  });

  it("denies with the person's reason, or with none", () => {
    const { api, inCard } = renderCard();
    fireEvent.click(inCard.getByTestId("deny-button"));
    fireEvent.change(inCard.getByTestId("deny-reason"), { target: { value: "  Not on main.  " } });
    fireEvent.click(inCard.getByTestId("deny-confirm"));
    expect(api.decide).toHaveBeenCalledWith({
      approvalId: "approval-1",
      decision: { kind: "deny", reason: "Not on main." },
    });
    cleanup();
    const bare = renderCard();
    fireEvent.click(bare.inCard.getByTestId("deny-button"));
    fireEvent.submit(bare.inCard.getByTestId("deny-reason"));
    expect(bare.api.decide).toHaveBeenCalledWith({ approvalId: "approval-1", decision: { kind: "deny" } });
  });

  it("goes back from the denial with Esc, without deciding", () => {
    const { api, card, inCard } = renderCard();
    fireEvent.click(inCard.getByTestId("deny-button"));
    fireEvent.keyDown(inCard.getByTestId("deny-reason"), { key: "Escape" });
    expect(inCard.queryByTestId("deny-reason")).toBeNull();
    expect(document.activeElement).toBe(card);
    expect(api.decide).not.toHaveBeenCalled();
  });

  it("approves an edited command and timeout, sending only what changed", () => {
    const { api, inCard } = renderCard();
    fireEvent.click(inCard.getByTestId("edit-button"));
    fireEvent.change(inCard.getByTestId("edit-command"), { target: { value: "npm test -- --bail" } });
    fireEvent.change(inCard.getByTestId("edit-timeout"), { target: { value: "120" } });
    fireEvent.click(inCard.getByTestId("approve-button"));
    expect(api.decide).toHaveBeenCalledWith({
      approvalId: "approval-1",
      decision: { kind: "approve", command: "npm test -- --bail", timeoutSeconds: 120 },
    });
  });

  it("sends only the timeout when only the timeout changed", () => {
    const { api, inCard } = renderCard();
    fireEvent.click(inCard.getByTestId("edit-button"));
    fireEvent.change(inCard.getByTestId("edit-timeout"), { target: { value: "5" } });
    fireEvent.click(inCard.getByTestId("approve-button"));
    expect(api.decide).toHaveBeenCalledWith({
      approvalId: "approval-1",
      decision: { kind: "approve", timeoutSeconds: 5 },
    });
  });

  it.each([
    ["601", "at most"],
    ["0", "from 1 to 600"],
    ["2.5", "whole number"],
    ["", "whole number"],
  ])("refuses an edited timeout of %j, naming the cap", (value) => {
    const { api, inCard } = renderCard();
    fireEvent.click(inCard.getByTestId("edit-button"));
    fireEvent.change(inCard.getByTestId("edit-timeout"), { target: { value } });
    expect(inCard.getByTestId("edit-problem").textContent).toContain("from 1 to 600");
    const approve = inCard.getByTestId("approve-button") as HTMLButtonElement;
    expect(approve.disabled).toBe(true);
    fireEvent.click(approve);
    expect(api.decide).not.toHaveBeenCalled();
  });

  it("refuses an empty edited command", () => {
    const { inCard } = renderCard();
    fireEvent.click(inCard.getByTestId("edit-button"));
    fireEvent.change(inCard.getByTestId("edit-command"), { target: { value: "   " } });
    expect(inCard.getByTestId("edit-problem").textContent).toBe("The command cannot be empty.");
  });

  it("offers Always allow only when the host offers a rule", () => {
    expect(renderCard().inCard.queryByTestId("always-allow-button")).toBeNull();
    cleanup();
    expect(renderCard({ ruleOffer: offer }).inCard.getByTestId("always-allow-button")).toBeTruthy();
  });

  it("makes an exact rule for this chat by default, saying so", () => {
    const { api, inCard } = renderCard({ ruleOffer: offer });
    fireEvent.click(inCard.getByTestId("always-allow-button"));
    expect(inCard.getByTestId("rule-summary").textContent).toBe(
      "Exactly “npm test > log.txt” will run without asking: This chat.",
    );
    fireEvent.click(inCard.getByTestId("always-allow-confirm"));
    expect(api.decide).toHaveBeenCalledWith({
      approvalId: "approval-1",
      decision: { kind: "approve" },
      rule: { effect: "allow", match: "exact", pattern: "npm test > log.txt", scope: "session" },
    });
  });

  it("makes a prefix rule for the workspace when the person picks them", () => {
    const { api, inCard } = renderCard({ ruleOffer: offer });
    fireEvent.click(inCard.getByTestId("always-allow-button"));
    fireEvent.click(inCard.getByLabelText("Any command starting with “npm test”"));
    fireEvent.click(inCard.getByTestId("rule-scope-workspace"));
    expect(inCard.getByTestId("rule-summary").textContent).toContain("This workspace");
    fireEvent.click(inCard.getByTestId("always-allow-confirm"));
    expect(api.decide).toHaveBeenCalledWith({
      approvalId: "approval-1",
      decision: { kind: "approve" },
      rule: { effect: "allow", match: "prefix", pattern: "npm test", scope: "workspace" },
    });
  });

  it("lets one command use the network when the sandbox keeps commands off it", () => {
    const { api, inCard } = renderCard({ sandbox: { enabled: true, network: false } });
    expect(inCard.getByTestId("command-sandbox").textContent).toBe("on, no network");
    expect(inCard.queryByTestId("network-local-services")).toBeNull();
    fireEvent.click(inCard.getByTestId("allow-network"));
    // Ticked, the box says what the network includes: this machine's own services.
    expect(inCard.getByTestId("network-local-services").textContent).toMatch(/this machine's own services/);
    fireEvent.click(inCard.getByTestId("approve-button"));
    expect(api.decide).toHaveBeenCalledWith({
      approvalId: "approval-1",
      decision: { kind: "approve", network: true },
    });
  });

  it("says when the host's network lets a command reach this machine's own services", () => {
    const { inCard } = renderCard({ sandbox: { enabled: true, network: true, localServices: true } });
    expect(inCard.getByTestId("command-sandbox").textContent).toBe(
      "on, with network It can reach this machine's own services too: servers on localhost ports, X11 and other abstract sockets.",
    );
    cleanup();
    const quiet = renderCard({ sandbox: { enabled: true, network: true } }).inCard;
    expect(quiet.queryByTestId("sandbox-local-services")).toBeNull();
  });

  it("offers no network choice where commands have the network already, or no sandbox", () => {
    expect(
      renderCard({ sandbox: { enabled: true, network: true } }).inCard.queryByTestId("allow-network"),
    ).toBeNull();
    cleanup();
    expect(
      renderCard({ sandbox: { enabled: false, network: false } }).inCard.queryByTestId("allow-network"),
    ).toBeNull();
    cleanup();
    expect(renderCard().inCard.queryByTestId("allow-network")).toBeNull();
  });

  it("shows the host's refusal and lets the person answer again", async () => {
    const api = fakeApi({ decide: vi.fn(() => Promise.reject(new Error("This approval has expired."))) });
    const { inCard } = renderCard({}, api);
    fireEvent.click(inCard.getByTestId("approve-button"));
    expect((await inCard.findByRole("alert")).textContent).toBe(
      "Your answer was not taken: This approval has expired.",
    );
    expect((inCard.getByTestId("approve-button") as HTMLButtonElement).disabled).toBe(false);
  });

  it("cannot be answered twice while the first answer is on its way", () => {
    const api = fakeApi({ decide: vi.fn(() => new Promise<void>(() => {})) });
    const { inCard } = renderCard({}, api);
    fireEvent.click(inCard.getByTestId("approve-button"));
    fireEvent.click(inCard.getByTestId("approve-button"));
    expect(api.decide).toHaveBeenCalledTimes(1);
  });

  it("shows no actions while the host has not issued an approval id", () => {
    const { inCard } = renderCard({ approvalId: undefined });
    expect(inCard.queryByTestId("approve-button")).toBeNull();
  });

  it("works on its own beside another pending card", () => {
    const api = fakeApi();
    render(
      <>
        <CommandCard command={pendingCommand({ id: "c1", approvalId: "p1" })} api={api} />
        <CommandCard
          command={pendingCommand({ id: "c2", approvalId: "p2", command: "git status" })}
          api={api}
        />
      </>,
    );
    const [first, second] = screen.getAllByTestId("command-card");
    if (!first || !second) throw new Error("two cards expected");
    fireEvent.click(within(first).getByTestId("deny-button"));
    expect(within(second).queryByTestId("deny-reason")).toBeNull();
    fireEvent.click(within(second).getByTestId("approve-button"));
    expect(api.decide).toHaveBeenCalledWith({ approvalId: "p2", decision: { kind: "approve" } });
    fireEvent.click(within(first).getByTestId("deny-confirm"));
    expect(api.decide).toHaveBeenCalledWith({ approvalId: "p1", decision: { kind: "deny" } });
  });
});
