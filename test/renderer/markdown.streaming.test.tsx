import { cleanup, render } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { Markdown } from "../../src/renderer/src/features/chat/Markdown";

/** Every source react-markdown is asked to parse, in order (it still parses and draws them). */
const parsed = vi.hoisted(() => [] as string[]);
vi.mock("react-markdown", async (importOriginal) => {
  const real = await importOriginal<typeof import("react-markdown")>();
  const Counted = (options: Parameters<typeof real.default>[0]) => {
    parsed.push(options.children ?? "");
    return real.default(options);
  };
  return { ...real, default: Counted };
});

afterEach(cleanup);

describe("a streamed message", () => {
  it("re-parses only its last block per chunk: the blocks before it stay as drawn", () => {
    const blocks = [
      "# Plan\n\n",
      "First, **read** the code.\n\n",
      "```ts\nconst a = 1;\n```\n\n",
      "- then test\n- then ship",
    ];
    const full = blocks.join("");
    const { container, rerender } = render(<Markdown text="" streaming />);
    parsed.length = 0;
    for (let end = 1; end <= full.length; end += 3) {
      rerender(<Markdown text={full.slice(0, end)} streaming />);
    }
    rerender(<Markdown text={full} streaming />);
    // A block is parsed again only while it is the last one; once the next begins, never again.
    for (const block of blocks.slice(0, -1)) {
      const finished = parsed.filter((source) => source === block).length;
      expect(finished, JSON.stringify(block)).toBe(1);
    }
    const chunks = Math.ceil(full.length / 3) + 1;
    expect(parsed.length).toBeLessThan(chunks + blocks.length);
    expect(container.querySelector("h3")?.textContent).toBe("Plan");
    expect(container.querySelectorAll("li")).toHaveLength(2);
  });
});
