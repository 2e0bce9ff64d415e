import { cleanup, render } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { Markdown } from "../../src/renderer/src/features/chat/Markdown";
import { parseBlocks } from "../../src/renderer/src/lib/markdown-blocks";
import { parseInline } from "../../src/renderer/src/lib/markdown-inline";

afterEach(cleanup);

describe("parseBlocks", () => {
  it("reads headings, paragraphs, rules and quotes", () => {
    expect(parseBlocks("# Title\n\nOne\ntwo\n\n---\n> quoted\n> more")).toEqual([
      { kind: "heading", level: 1, text: "Title" },
      { kind: "paragraph", text: "One\ntwo" },
      { kind: "rule" },
      { kind: "quote", children: [{ kind: "paragraph", text: "quoted\nmore" }] },
    ]);
  });

  it("reads fenced code verbatim, and an unclosed fence (still streaming) as code to the end", () => {
    expect(parseBlocks("```ts\nconst a = 1;\n\n# not a heading\n```\nafter")).toEqual([
      { kind: "code", language: "ts", code: "const a = 1;\n\n# not a heading", open: false },
      { kind: "paragraph", text: "after" },
    ]);
    expect(parseBlocks("~~~\npartial")).toEqual([
      { kind: "code", language: "", code: "partial", open: true },
    ]);
  });

  it("reads lists, ordered and nested", () => {
    const [list] = parseBlocks("3. first\n4. second\n   - inner\n   - more\n5. third");
    expect(list).toMatchObject({ kind: "list", ordered: true, start: 3 });
    if (list?.kind !== "list") throw new Error("not a list");
    expect(list.items).toHaveLength(3);
    expect(list.items[1]).toEqual([
      { kind: "paragraph", text: "second" },
      {
        kind: "list",
        ordered: false,
        start: 1,
        items: [[{ kind: "paragraph", text: "inner" }], [{ kind: "paragraph", text: "more" }]],
      },
    ]);
  });

  it("reads a table with its alignment", () => {
    expect(parseBlocks("| a | b |\n|:--|--:|\n| 1 | 2 |")).toEqual([
      { kind: "table", align: ["left", "right"], head: ["a", "b"], rows: [["1", "2"]] },
    ]);
  });
});

describe("parseInline", () => {
  it("reads code, strong, emphasis, strikethrough and escapes", () => {
    expect(parseInline("`a*b*` **bold** *it* ~~no~~ \\*lit\\*")).toEqual([
      { kind: "code", text: "a*b*" },
      { kind: "text", text: " " },
      { kind: "strong", children: [{ kind: "text", text: "bold" }] },
      { kind: "text", text: " " },
      { kind: "em", children: [{ kind: "text", text: "it" }] },
      { kind: "text", text: " " },
      { kind: "strike", children: [{ kind: "text", text: "no" }] },
      { kind: "text", text: " *lit*" },
    ]);
  });

  it("leaves snake_case and lone asterisks alone", () => {
    expect(parseInline("run_command and 2 * 3 * 4")).toEqual([
      { kind: "text", text: "run_command and 2 * 3 * 4" },
    ]);
  });

  it("reads links and bare URLs, without the sentence's final punctuation", () => {
    expect(parseInline("see [docs](https://pi.dev/a_(b)) or https://x.org/p.")).toEqual([
      { kind: "text", text: "see " },
      { kind: "link", href: "https://pi.dev/a_(b)", children: [{ kind: "text", text: "docs" }] },
      { kind: "text", text: " or " },
      { kind: "link", href: "https://x.org/p", children: [{ kind: "text", text: "https://x.org/p" }] },
      { kind: "text", text: "." },
    ]);
  });

  it("turns an unsafe link into its text", () => {
    expect(parseInline("[click](javascript:alert(1))")).toEqual([{ kind: "text", text: "click" }]);
  });
});

describe("robustness", () => {
  it("reads any text, however broken, without throwing or hanging", () => {
    const alphabet = [
      "*",
      "_",
      "`",
      "~",
      "[",
      "]",
      "(",
      ")",
      "<",
      ">",
      "!",
      "\\",
      "#",
      "-",
      "|",
      "1.",
      " ",
      "\n",
      "a",
      "h",
      "https://x.y",
    ];
    let seed = 7;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    for (let round = 0; round < 300; round++) {
      const text = Array.from({ length: 60 }, () => alphabet[Math.floor(random() * alphabet.length)]).join(
        "",
      );
      expect(() => render(<Markdown text={text} />)).not.toThrow();
      cleanup();
    }
  });
});

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
  });

  it("opens safe links outside the app, and drops unsafe ones", () => {
    const { container } = render(<Markdown text="[a](https://a.dev) [b](file:///etc/passwd)" />);
    const links = container.querySelectorAll("a");
    expect(links).toHaveLength(1);
    expect(links[0]?.getAttribute("href")).toBe("https://a.dev");
    expect(links[0]?.getAttribute("rel")).toContain("noopener");
    expect(container.textContent).toContain("b");
  });

  it("renders a list item's single paragraph tight", () => {
    const { container } = render(<Markdown text={"- one\n- two"} />);
    expect(container.querySelectorAll("li")).toHaveLength(2);
    expect(container.querySelector("li p")).toBeNull();
  });
});
