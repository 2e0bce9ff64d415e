import { cleanup, render } from "@testing-library/react";
import fc from "fast-check";
import { afterEach, describe, expect, it } from "vitest";
import { Markdown } from "../../src/renderer/src/features/chat/Markdown";
import { blockTexts, splitBlocks } from "../../src/renderer/src/lib/markdown-split";
import { MAX_DATA_IMAGE_CHARS } from "../../src/renderer/src/lib/markdown-urls";

afterEach(cleanup);

const PNG = "data:image/png;base64,iVBORw0KGgo=";

describe("Markdown", () => {
  it("renders elements, not HTML: markup in the text stays text", () => {
    const { container } = render(
      <Markdown text={'Hello <img src=x onerror="alert(1)"> **world**\n\n```sh\nls <dir>\n```'} />,
    );
    expect(container.querySelector("img")).toBeNull();
    expect(container.querySelector("p")?.textContent).toBe('Hello <img src=x onerror="alert(1)"> world');
    expect(container.querySelector("strong")?.textContent).toBe("world");
    expect(container.querySelector("pre code")?.textContent).toBe("ls <dir>");
    expect(container.querySelector("pre code")?.className).toBe("language-sh");
    expect(container.querySelector(".code-head")?.textContent).toContain("sh");
  });

  it("opens safe links outside the app, and draws unsafe ones as their text", () => {
    const { container } = render(
      <Markdown text="[a](https://a.dev) [b](file:///etc/passwd) [c](mailto:x@y.z) [d](JavaScript:alert(1))" />,
    );
    const links = [...container.querySelectorAll("a")];
    expect(links.map((link) => link.getAttribute("href"))).toEqual(["https://a.dev", "mailto:x@y.z"]);
    expect(links[0]?.getAttribute("rel")).toContain("noopener");
    expect(links[0]?.getAttribute("target")).toBe("_blank");
    expect(container.textContent).toBe("a b c d");
  });

  it("renders a list item's single paragraph tight", () => {
    const { container } = render(<Markdown text={"- one\n- two"} />);
    expect(container.querySelectorAll("li")).toHaveLength(2);
    expect(container.querySelector("li p")).toBeNull();
  });

  it("draws headings below the page's own, keeping the level written", () => {
    const { container } = render(<Markdown text={"# One\n\n## Two\n\n###### Six"} />);
    const headings = [...container.querySelectorAll("h3, h4, h5, h6")];
    expect(headings.map((heading) => [heading.tagName, heading.getAttribute("data-level")])).toEqual([
      ["H3", "1"],
      ["H4", "2"],
      ["H6", "6"],
    ]);
  });

  it("draws a remote image as a link naming its host, and only small raster data: images", () => {
    const big = `data:image/png;base64,${"A".repeat(MAX_DATA_IMAGE_CHARS)}`;
    const { container } = render(
      <Markdown text={`![chart](https://img.example.org/c.png) ![dot](${PNG}) ![big](${big})`} />,
    );
    const remote = container.querySelector("a.remote-image");
    expect(remote?.getAttribute("href")).toBe("https://img.example.org/c.png");
    expect(remote?.textContent).toContain("img.example.org");
    expect(remote?.textContent).toContain("chart");
    const images = [...container.querySelectorAll("img")];
    expect(images.map((image) => image.getAttribute("alt"))).toEqual(["dot"]);
    expect(container.textContent).toContain("big");
  });

  it("draws a block nested past the limit as its text", () => {
    const { container } = render(<Markdown text={`${">".repeat(40)} deep\n\nafter *this*`} />);
    expect(container.querySelector("blockquote")).toBeNull();
    expect(container.textContent).toContain(`${">".repeat(40)} deep`);
    expect(container.querySelector("em")?.textContent).toBe("this");
  });
});

describe("Markdown while streaming", () => {
  it("closes half-written emphasis, code and links instead of showing their marks", () => {
    const { container, rerender } = render(<Markdown text={"Done: **bol"} streaming />);
    expect(container.querySelector("strong")?.textContent).toBe("bol");
    expect(container.textContent).not.toContain("*");
    rerender(<Markdown text={"Run `npm t"} streaming />);
    expect(container.querySelector("code")?.textContent).toBe("npm t");
    rerender(<Markdown text={"```ts\nconst a = 1;"} streaming />);
    expect(container.querySelector("pre code")?.textContent).toBe("const a = 1;");
    expect(container.textContent).not.toContain("```");
  });

  it("leaves a finished message as written", () => {
    const { container } = render(<Markdown text={"2 **bol"} />);
    expect(container.querySelector("strong")).toBeNull();
    expect(container.textContent).toBe("2 **bol");
  });
});

describe("splitBlocks", () => {
  it("cuts at blank lines before a line at the margin, not inside fences or between list items", () => {
    const text = "# Title\n\nOne\ntwo\n\n```\na\n\nb\n```\n\n- x\n\n- y\n  \n  more\n\n> q\n\nend";
    expect(blockTexts(splitBlocks(text))).toEqual([
      "# Title\n\n",
      "One\ntwo\n\n",
      "```\na\n\nb\n```\n\n",
      "- x\n\n- y\n  \n  more\n\n",
      "> q\n\n",
      "end",
    ]);
  });

  it("keeps a message with a reference or footnote definition whole", () => {
    expect(splitBlocks("[a][x]\n\nmore\n\n[x]: https://a.dev").starts).toEqual([0]);
    expect(splitBlocks("Note[^1]\n\nmore\n\n[^1]: the note").starts).toEqual([0]);
  });

  it("cuts a message streamed in any chunks as it cuts the whole", () => {
    const line = fc.constantFrom(
      "text",
      "",
      "```",
      "~~~~",
      "- item",
      "1. item",
      "  indented",
      "> quote",
      "| a | b |",
      "[x]: https://a.dev",
      "<!--",
      "    code",
    );
    fc.assert(
      fc.property(
        fc.array(line, { maxLength: 30 }),
        fc.array(fc.nat(40), { maxLength: 20 }),
        (lines, cuts) => {
          const text = lines.join("\n");
          let split = splitBlocks("");
          let end = 0;
          for (const cut of cuts) {
            end = Math.min(text.length, end + cut);
            split = splitBlocks(text.slice(0, end), split);
          }
          split = splitBlocks(text, split);
          expect(split.starts).toEqual(splitBlocks(text).starts);
        },
      ),
    );
  });
});

describe("robustness", () => {
  it("reads any text, however broken, without throwing or hanging", () => {
    const alphabet = ["*", "_", "`", "~", "[", "]", "(", ")", "<", ">", "!", "\\", "#", "-", "|", "1."];
    const piece = fc.constantFrom(...alphabet, " ", "\n", "\n\n", "a", "https://x.y", "[^1]", "```");
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 80 }), fc.boolean(), (pieces, streaming) => {
        expect(() => render(<Markdown text={pieces.join("")} streaming={streaming} />)).not.toThrow();
        cleanup();
      }),
      { numRuns: 300 },
    );
    // 300 renders: seconds on a loaded machine, so the default 5 s is no measure of a hang here.
  }, 60_000);
});
