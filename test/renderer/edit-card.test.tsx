import { cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { EditCard } from "../../src/renderer/src/features/edits/EditCard";
import type { EditView, ProposedDiff } from "../../src/shared/edits";
import { fakeApi } from "./fixtures";

afterEach(cleanup);

const AFTER = "export function sum(a, b) {\n  return a + b;\n}\n";

/** The host's diff of `return a - b` into `return a + b`, as the edit tools send it. */
const SIGN_FIX: ProposedDiff = {
  hunks: [
    {
      lines: [
        { kind: "context", text: "export function sum(a, b) {", oldLine: 1, newLine: 1 },
        { kind: "del", text: "  return a - b;", oldLine: 2 },
        { kind: "add", text: "  return a + b;", newLine: 2 },
        { kind: "context", text: "}", oldLine: 3, newLine: 3 },
      ],
    },
  ],
  added: 1,
  removed: 1,
  truncated: false,
};

function pendingEdit(overrides: Partial<EditView> = {}): EditView {
  return {
    id: "e1",
    tool: "edit",
    path: "src/sum.js",
    status: "pending",
    approvalId: "ap-1",
    shape: "change",
    diff: SIGN_FIX,
    proposed: AFTER,
    ruleOffer: { path: "src/sum.js" },
    ...overrides,
  };
}

function renderCard(edit: EditView, api = fakeApi()) {
  render(<EditCard edit={edit} api={api} />);
  const card = screen.getByTestId("edit-card");
  return { api, card, inCard: within(card) };
}

describe("an edit card", () => {
  it("carries its hooks, and marks the changed words within the changed line", () => {
    const { card, inCard } = renderCard(pendingEdit());
    expect(card.dataset).toMatchObject({ editId: "e1", tool: "edit", path: "src/sum.js", status: "pending" });
    const lines = inCard.getAllByTestId("diff-line");
    expect(lines.map((line) => line.dataset.kind)).toEqual(["context", "del", "add", "context"]);
    expect([...card.querySelectorAll("mark")].map((mark) => mark.textContent)).toEqual(["-", "+"]);
    expect(card.textContent).toContain("changes 1 line");
  });

  it("approves with Enter, and sends the person's version from Change", () => {
    const { api, card } = renderCard(pendingEdit());
    fireEvent.keyDown(card, { key: "Enter" });
    expect(api.decide).toHaveBeenCalledWith({ approvalId: "ap-1", decision: { kind: "approve" } });
    cleanup();
    const second = renderCard(pendingEdit());
    fireEvent.click(second.inCard.getByTestId("change-button"));
    const editor = second.inCard.getByTestId("edit-content") as HTMLTextAreaElement;
    expect(editor.value).toBe(AFTER);
    fireEvent.change(editor, { target: { value: "mine\n" } });
    fireEvent.click(second.inCard.getByTestId("change-apply-button"));
    expect(second.api.decide).toHaveBeenCalledWith({
      approvalId: "ap-1",
      decision: { kind: "approve", content: "mine\n" },
    });
  });

  it("folds a long diff after 400 lines, and shows all on request", () => {
    const lines = Array.from({ length: 1000 }, (_, i) => ({
      kind: "add" as const,
      text: `line ${i}`,
      newLine: i + 1,
    }));
    const diff: ProposedDiff = { hunks: [{ lines }], added: 1000, removed: 0, truncated: false };
    const { inCard } = renderCard(pendingEdit({ shape: "new-file", diff }));
    expect(inCard.getAllByTestId("diff-line")).toHaveLength(400);
    fireEvent.click(inCard.getByText("Show all 1,000 lines"));
    expect(inCard.getAllByTestId("diff-line")).toHaveLength(1000);
    // jsdom draws 1,400 lines here: 2.4 s alone, past the default 5 s on a loaded machine (seen at load 10).
  }, 30_000);

  it("offers no rule for a protected file, and shows why an edit failed", () => {
    const { inCard } = renderCard(pendingEdit({ ruleOffer: undefined }));
    expect(inCard.queryByTestId("always-allow-button")).toBeNull();
    cleanup();
    const failed = renderCard(
      pendingEdit({
        status: "failed",
        approvalId: undefined,
        reason: "src/sum.js changed on disk while the edit waited",
      }),
    );
    expect(failed.inCard.getByTestId("edit-error").textContent).toContain("changed on disk");
    expect(failed.inCard.queryByTestId("approve-button")).toBeNull();
  });
});
