import { cleanup, render } from "@testing-library/react";
import { tests as specExamples } from "commonmark-spec";
import { afterEach, describe, expect, it } from "vitest";
import { Markdown } from "../../src/renderer/src/features/chat/Markdown";
import { referenceForm, renderedForm } from "./markdown-html-form";

afterEach(cleanup);

/** The spec writes a tab as →. */
const tabs = (text: string) => text.replace(/→/g, "\t");

// The start of raw HTML: a tag, comment, processing instruction, declaration or CDATA (autolinks such as
// <https://x> are not: a scheme's colon comes before any space or `>`).
const RAW_HTML = /<(?:\/?[A-Za-z][A-Za-z0-9-]*(?:[\s/>]|$)|!--|\?|![A-Za-z]|!\[CDATA\[)/g;

/** The raw HTML an example passes through to its reference output (a `<my url>` destination is not HTML). */
const rawHtmlOf = (example: { markdown: string; html: string }) =>
  [...example.markdown.matchAll(RAW_HTML)]
    .map((match) => match[0])
    .filter((tag) => example.html.includes(tag));

/**
 * Examples whose only difference is GFM's: a bare `https://` or e-mail address is a link (GFM's autolink
 * literals, which remark-gfm follows), where plain CommonMark leaves it text.
 */
const GFM_BARE_ADDRESSES = new Set([602, 606, 608, 611, 612]);

const examples = specExamples.map((example) => ({
  ...example,
  markdown: tabs(example.markdown),
  html: tabs(example.html),
}));
const plain = examples.filter((example) => rawHtmlOf(example).length === 0);
const withHtml = examples.filter((example) => rawHtmlOf(example).length > 0);

describe(`the CommonMark 0.31.2 spec through the renderer`, () => {
  it(`draws all ${plain.length} examples without raw HTML as the spec does (${GFM_BARE_ADDRESSES.size} with GFM's bare-address links)`, () => {
    const failures: string[] = [];
    for (const example of plain) {
      const { container } = render(<Markdown text={example.markdown} />);
      const drawn = renderedForm(container.firstElementChild as Element, {
        unlinkBareAddresses: GFM_BARE_ADDRESSES.has(example.number),
      });
      const expected = referenceForm(example.html, document);
      if (drawn !== expected) {
        failures.push(`#${example.number} (${example.section})\n  got      ${drawn}\n  expected ${expected}`);
      }
      cleanup();
    }
    expect(failures.join("\n")).toBe("");
  }, 60_000);

  it(`shows the HTML of all ${withHtml.length} examples with raw HTML as text, and draws none of it`, () => {
    const failures: string[] = [];
    for (const example of withHtml) {
      const { container } = render(<Markdown text={example.markdown} />);
      const text = container.textContent ?? "";
      const missing = rawHtmlOf(example).filter((tag) => !text.includes(tag));
      const foreign = [...container.querySelectorAll("*")].filter(
        (element) =>
          !DRAWN_TAGS.has(element.tagName.toLowerCase()) ||
          [...element.attributes].some((attribute) => attribute.name.startsWith("on")),
      );
      if (missing.length > 0 || foreign.length > 0) {
        failures.push(
          `#${example.number}: ${missing.length ? `not shown as text: ${missing.join(" ")}` : ""} ${foreign.map((element) => element.outerHTML).join(" ")}`,
        );
      }
      cleanup();
    }
    expect(failures.join("\n")).toBe("");
  }, 60_000);
});

/** The elements the renderer itself draws; anything else came from the message. */
const DRAWN_TAGS = new Set(
  "div p h3 h4 h5 h6 ul ol li blockquote pre code em strong del a span hr br table thead tbody tr th td button img input section sup".split(
    " ",
  ),
);
