import { cleanup, render, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { Markdown } from "../../src/renderer/src/features/chat/Markdown";

afterEach(cleanup);

const tokens = (container: HTMLElement) => [...container.querySelectorAll<HTMLElement>(".code-token")];

describe("a code block", () => {
  it("is highlighted by its language in both themes, its text unchanged, with its name and a Copy button", async () => {
    const code = "const answer: number = 42;\n// why\nexport { answer };";
    const { container } = render(<Markdown text={`\`\`\`ts\n${code}\n\`\`\``} />);
    await waitFor(() => expect(container.querySelector('code[data-highlighted="true"]')).not.toBeNull(), {
      timeout: 15_000,
    });
    const drawn = tokens(container);
    const keyword = drawn.find((token) => token.textContent === "const");
    expect(keyword?.style.getPropertyValue("--shiki-light")).toMatch(/^#[0-9a-f]{6}$/i);
    expect(keyword?.style.getPropertyValue("--shiki-dark")).toMatch(/^#[0-9a-f]{6}$/i);
    const comment = drawn.find((token) => token.textContent === "// why");
    expect(comment?.style.getPropertyValue("--shiki-light")).not.toBe(
      keyword?.style.getPropertyValue("--shiki-light"),
    );
    expect(container.querySelector("pre code")?.textContent).toBe(code);
    expect(container.querySelector(".code-language")?.textContent).toBe("ts");
    expect(screen.getByRole("button", { name: "Copy this ts code" })).toBeTruthy();
  });

  it("stays plain in a language Shiki does not know, and without a language", async () => {
    const { container } = render(<Markdown text={"```nosuchlang\nx = 1\n```\n\n```\ny = 2\n```"} />);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(tokens(container)).toHaveLength(0);
    expect([...container.querySelectorAll("pre code")].map((code) => code.textContent)).toEqual([
      "x = 1",
      "y = 2",
    ]);
  });

  it("stays plain while it streams, whole, and is highlighted once it is finished", async () => {
    const lines = Array.from({ length: 12 }, (_, index) => `let v${index} = ${index};`);
    const { container, rerender } = render(<Markdown text={`\`\`\`js\n${lines[0]}\n`} streaming />);
    for (let end = 2; end <= lines.length; end++) {
      const code = lines.slice(0, end).join("\n");
      rerender(<Markdown text={`\`\`\`js\n${code}`} streaming />);
      expect(container.querySelector("pre code")?.textContent).toBe(code);
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(tokens(container)).toHaveLength(0);
    // The next block begins: this one is finished.
    const finished = `\`\`\`js\n${lines.join("\n")}\n\`\`\`\n\nDone`;
    rerender(<Markdown text={finished} streaming />);
    await waitFor(
      () =>
        expect(container.querySelector('code[data-highlighted="true"]')?.textContent).toBe(lines.join("\n")),
      { timeout: 15_000 },
    );
  });
});
