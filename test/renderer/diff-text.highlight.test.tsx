import { cleanup, render, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { DiffText } from "../../src/renderer/src/features/changes/DiffText";

afterEach(cleanup);

const DIFF = [
  "diff --git a/sum.py b/sum.py",
  "--- a/sum.py",
  "+++ b/sum.py",
  "@@ -1,2 +1,2 @@",
  " def total(a, b):",
  "-    return a - b",
  "+    return a + b",
  "\\ No newline at end of file",
  "",
].join("\n");

describe("a change's diff", () => {
  it("is highlighted by the file's language, each line keeping its marker and its text", async () => {
    render(<DiffText text={DIFF} testId="changes-diff" path="src/sum.py" />);
    const diff = screen.getByTestId("changes-diff");
    const before = diff.textContent;
    await waitFor(() => expect(diff.querySelectorAll(".code-token").length).toBeGreaterThan(0), {
      timeout: 15_000,
    });
    expect(diff.textContent).toBe(before);
    const def = [...diff.querySelectorAll<HTMLElement>(".code-token")].find((t) => t.textContent === "def");
    expect(def?.style.getPropertyValue("--shiki-light")).toMatch(/^#[0-9a-f]{6}$/i);
    expect(diff.querySelector(".diff-add")?.textContent).toBe("+    return a + b\n");
    expect(diff.querySelector(".diff-del .code-token")).not.toBeNull();
  });

  it("stays plain without a language Shiki knows", async () => {
    render(<DiffText text={DIFF} testId="changes-diff" path="Makefile" />);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(screen.getByTestId("changes-diff").querySelectorAll(".code-token")).toHaveLength(0);
  });
});
