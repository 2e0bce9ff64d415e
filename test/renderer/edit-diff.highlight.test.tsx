import { cleanup, render, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { EditDiff } from "../../src/renderer/src/features/edits/EditDiff";
import type { ProposedDiff } from "../../src/shared/edits";

afterEach(cleanup);

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

const texts = () =>
  screen.getAllByTestId("diff-line").map((line) => line.querySelector(".edit-diff-text")?.textContent);

describe("an edit's diff", () => {
  it("is highlighted by the file's language, its changed words still marked and its text unchanged", async () => {
    const { container } = render(<EditDiff diff={SIGN_FIX} testId="edit-diff" path="src/sum.js" />);
    const before = texts();
    await waitFor(() => expect(container.querySelectorAll(".code-token").length).toBeGreaterThan(0), {
      timeout: 15_000,
    });
    expect(texts()).toEqual(before);
    const keyword = [...container.querySelectorAll<HTMLElement>(".code-token")].find(
      (t) => t.textContent === "export",
    );
    expect(keyword?.style.getPropertyValue("--shiki-light")).toMatch(/^#[0-9a-f]{6}$/i);
    const marks = [...container.querySelectorAll("mark")];
    expect(marks.map((mark) => mark.textContent)).toEqual(["-", "+"]);
    expect(marks.every((mark) => mark.querySelector(".code-token"))).toBe(true);
  });

  it("stays plain for a file whose language Shiki does not know", async () => {
    const { container } = render(<EditDiff diff={SIGN_FIX} testId="edit-diff" path="notes.unknownext" />);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(container.querySelectorAll(".code-token")).toHaveLength(0);
    expect([...container.querySelectorAll("mark")].map((mark) => mark.textContent)).toEqual(["-", "+"]);
  });
});
