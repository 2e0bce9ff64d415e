import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { ToolLine } from "../../src/renderer/src/features/chat/TranscriptItems";
import type { ToolItem } from "../../src/shared/transcript";

afterEach(cleanup);

const read = (overrides: Partial<ToolItem> = {}): ToolItem => ({
  kind: "tool",
  id: "t1",
  name: "read",
  summary: "src/sum.ts 1 40",
  state: "done",
  result: "export const sum = (a: number, b: number) => a + b;\n// done",
  ...overrides,
});

function unfold(): HTMLElement {
  const details = screen.getByTestId("tool-call").querySelector("details") as HTMLDetailsElement;
  details.open = true;
  fireEvent(details, new Event("toggle"));
  return details.querySelector("pre") as HTMLElement;
}

describe("a read tool's result", () => {
  it("is highlighted by the file's language once unfolded, its text unchanged", async () => {
    render(<ToolLine item={read()} />);
    const result = screen.getByTestId("tool-call").querySelector("pre") as HTMLElement;
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(result.querySelectorAll(".code-token")).toHaveLength(0);
    unfold();
    await waitFor(() => expect(result.dataset.highlighted).toBe("true"), { timeout: 15_000 });
    expect(result.textContent).toBe(read().result);
    const keyword = [...result.querySelectorAll<HTMLElement>(".code-token")].find(
      (t) => t.textContent === "export",
    );
    expect(keyword?.style.getPropertyValue("--shiki-light")).toMatch(/^#[0-9a-f]{6}$/i);
  });

  it("stays plain for other tools", async () => {
    render(<ToolLine item={read({ name: "grep", summary: "sum src/sum.ts" })} />);
    const result = unfold();
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(result.querySelectorAll(".code-token")).toHaveLength(0);
    expect(result.textContent).toBe(read().result);
  });
});
