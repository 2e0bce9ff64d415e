import { cleanup, render } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { Markdown } from "../../src/renderer/src/features/chat/Markdown";
import { referenceForm, renderedForm } from "./markdown-html-form";

afterEach(cleanup);

const L = 'style="text-align: left;"';
const C = 'style="text-align: center;"';
const R = 'style="text-align: right;"';

/**
 * GFM's extensions (tables, task lists, strikethrough, autolink literals, footnotes), one example for each
 * rule the GFM spec states, with the HTML GFM gives (cell alignment as a style, as React draws it).
 */
const examples: { name: string; markdown: string; html: string }[] = [
  {
    name: "a table with a header, a delimiter row and a body",
    markdown: "| foo | bar |\n| --- | --- |\n| baz | bim |",
    html: "<table><thead><tr><th>foo</th><th>bar</th></tr></thead><tbody><tr><td>baz</td><td>bim</td></tr></tbody></table>",
  },
  {
    name: "a table's columns aligned by colons in the delimiter row",
    markdown: "| a | b | c |\n| :-- | :-: | --: |\n| 1 | 2 | 3 |",
    html: `<table><thead><tr><th ${L}>a</th><th ${C}>b</th><th ${R}>c</th></tr></thead><tbody><tr><td ${L}>1</td><td ${C}>2</td><td ${R}>3</td></tr></tbody></table>`,
  },
  {
    name: "an escaped pipe inside a cell and inside its code",
    markdown: "| f\\|oo |\n| ------ |\n| b `\\|` az |\n| b **\\|** im |",
    html: "<table><thead><tr><th>f|oo</th></tr></thead><tbody><tr><td>b <code>|</code> az</td></tr><tr><td>b <strong>|</strong> im</td></tr></tbody></table>",
  },
  {
    name: "a table ends at a blank line, the next line a paragraph",
    markdown: "| abc | def |\n| --- | --- |\n| bar | baz |\n\nbar",
    html: "<table><thead><tr><th>abc</th><th>def</th></tr></thead><tbody><tr><td>bar</td><td>baz</td></tr></tbody></table><p>bar</p>",
  },
  {
    name: "a row with fewer cells is filled, a row with more is cut",
    markdown: "| abc | def |\n| --- | --- |\n| bar |\n| bar | baz | boo |",
    html: "<table><thead><tr><th>abc</th><th>def</th></tr></thead><tbody><tr><td>bar</td><td></td></tr><tr><td>bar</td><td>baz</td></tr></tbody></table>",
  },
  {
    name: "a header and delimiter row that disagree in width make no table",
    markdown: "| abc | def |\n| --- |\n| bar |",
    html: "<p>| abc | def | | --- | | bar |</p>",
  },
  {
    name: "task list items, unchecked and checked",
    markdown: "- [ ] foo\n- [x] bar",
    html: '<ul class="contains-task-list"><li class="task-list-item"><input disabled="" type="checkbox"> foo</li><li class="task-list-item"><input checked="" disabled="" type="checkbox"> bar</li></ul>',
  },
  {
    name: "nested task lists",
    markdown: "- [x] foo\n  - [ ] bar\n  - [x] baz\n- [ ] bim",
    html: '<ul class="contains-task-list"><li class="task-list-item"><input checked="" disabled="" type="checkbox"> foo<ul class="contains-task-list"><li class="task-list-item"><input disabled="" type="checkbox"> bar</li><li class="task-list-item"><input checked="" disabled="" type="checkbox"> baz</li></ul></li><li class="task-list-item"><input disabled="" type="checkbox"> bim</li></ul>',
  },
  {
    name: "strikethrough with two tildes and with one",
    markdown: "~~Hi~~ Hello, ~there~ world!",
    html: "<p><del>Hi</del> Hello, <del>there</del> world!</p>",
  },
  {
    name: "strikethrough does not span paragraphs",
    markdown: "This ~~has a\n\nnew paragraph~~.",
    html: "<p>This ~~has a</p><p>new paragraph~~.</p>",
  },
  {
    name: "three tildes are no strikethrough",
    markdown: "This will ~~~not~~~ strike.",
    html: "<p>This will ~~~not~~~ strike.</p>",
  },
  {
    name: "a www. autolink gets http:",
    markdown: "www.commonmark.org",
    html: '<p><a href="http://www.commonmark.org">www.commonmark.org</a></p>',
  },
  {
    name: "an autolink leaves out the sentence's final punctuation",
    markdown: "Visit www.commonmark.org/help for more information.",
    html: '<p>Visit <a href="http://www.commonmark.org/help">www.commonmark.org/help</a> for more information.</p>',
  },
  {
    name: "an autolink keeps balanced parentheses and drops an unbalanced one",
    markdown: "www.google.com/search?q=Markup+(business)\n\n(www.google.com/search?q=Markup+(business))",
    html: '<p><a href="http://www.google.com/search?q=Markup+(business)">www.google.com/search?q=Markup+(business)</a></p><p>(<a href="http://www.google.com/search?q=Markup+(business)">www.google.com/search?q=Markup+(business)</a>)</p>',
  },
  {
    name: "an https autolink, and one ending in an entity-like suffix",
    markdown: "https://example.com/a?b=c and www.google.com/search?q=commonmark&hl;",
    html: '<p><a href="https://example.com/a?b=c">https://example.com/a?b=c</a> and <a href="http://www.google.com/search?q=commonmark">www.google.com/search?q=commonmark</a>&amp;hl;</p>',
  },
  {
    name: "an e-mail autolink gets mailto:",
    markdown: "foo@bar.baz",
    html: '<p><a href="mailto:foo@bar.baz">foo@bar.baz</a></p>',
  },
  {
    name: "an autolink ends at <",
    markdown: "www.commonmark.org/he<lp",
    html: '<p><a href="http://www.commonmark.org/he">www.commonmark.org/he</a>&lt;lp</p>',
  },
  {
    name: "footnotes: references numbered in order, definitions listed at the end with back links",
    markdown: "Note[^a] and more[^b].\n\n[^b]: Second.\n[^a]: First *one*.",
    html: "FOOTNOTES",
  },
];

describe("GFM's extensions through the renderer", () => {
  it(`draws all ${examples.length} GFM extension examples as GFM does`, () => {
    const failures: string[] = [];
    for (const example of examples) {
      const { container } = render(<Markdown text={example.markdown} />);
      const root = container.firstElementChild as Element;
      const drawn = renderedForm(root);
      const expected =
        example.html === "FOOTNOTES" ? footnotesForm(root) : referenceForm(example.html, document);
      if (drawn !== expected) failures.push(`${example.name}\n  got      ${drawn}\n  expected ${expected}`);
      cleanup();
    }
    expect(failures.join("\n")).toBe("");
  });
});

/** The footnote example's expected form: its ids carry the message's own prefix, read from the page. */
function footnotesForm(root: Element): string {
  const prefix = /^#(user-content-.*-)fn-a$/.exec(
    root.querySelector("sup a")?.getAttribute("href") ?? "",
  )?.[1];
  const ref = (id: string, n: number) =>
    `<sup><a aria-describedby="footnote-label" data-footnote-ref="true" href="#${prefix}fn-${id}" id="${prefix}fnref-${id}">${n}</a></sup>`;
  const back = (id: string, n: number) =>
    `<a aria-label="Back to reference ${n}" class="data-footnote-backref" data-footnote-backref="" href="#${prefix}fnref-${id}">↩</a>`;
  return referenceForm(
    `<p>Note${ref("a", 1)} and more${ref("b", 2)}.</p><section class="footnotes" data-footnotes="true"><h2 class="sr-only" id="footnote-label">Footnotes</h2><ol><li id="${prefix}fn-a"><p>First <em>one</em>. ${back("a", 1)}</p></li><li id="${prefix}fn-b"><p>Second. ${back("b", 2)}</p></li></ol></section>`,
    document,
  );
}
