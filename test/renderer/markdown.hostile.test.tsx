import { cleanup, render } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { HOSTILE_HOST, hostileMessages } from "../../harness/hostile-markdown";
import { Markdown } from "../../src/renderer/src/features/chat/Markdown";

afterEach(cleanup);

/** Elements that fetch, run, submit or restyle; the renderer draws none of them. */
const FORBIDDEN =
  "script, iframe, frame, object, embed, form, style, link, meta, base, svg, math, video, audio, source";
/** Attributes that make the browser fetch on its own. */
const FETCHING = ["src", "srcset", "data", "poster", "background", "action", "formaction", "xlink:href"];

describe("hostile messages", () => {
  it.each(hostileMessages)("$name: draws nothing that fetches, runs or covers the page", ({ text }) => {
    const started = performance.now();
    const { container } = render(<Markdown text={text} />);
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(container.querySelectorAll(FORBIDDEN)).toHaveLength(0);
    for (const element of container.querySelectorAll("*")) {
      for (const attribute of element.attributes) {
        expect(attribute.name.startsWith("on"), `${attribute.name} on <${element.tagName}>`).toBe(false);
        if (FETCHING.includes(attribute.name)) {
          // The only thing drawn with a source is a small raster data: image.
          expect(element.tagName).toBe("IMG");
          expect(attribute.value).toMatch(/^data:image\/png;base64,/);
          expect(attribute.value.length).toBeLessThan(200);
        }
        if (attribute.name === "style") expect(attribute.value).toMatch(/^text-align: \w+;$/);
        if (attribute.name === "href")
          expect(attribute.value).toMatch(/^(https:\/\/|mailto:|#user-content-)/);
      }
    }
    // A link to the hostile host may be drawn (it goes nowhere until the person clicks it), but never an
    // image: remote images are links that name the host.
    for (const image of container.querySelectorAll("img"))
      expect(image.outerHTML).not.toContain(HOSTILE_HOST);
    for (const remote of container.querySelectorAll(".remote-image")) {
      expect(remote.textContent).toContain(HOSTILE_HOST);
    }
  });

  it("shows raw HTML as its text", () => {
    const { container } = render(
      <Markdown text={'<script>alert(1)</script> <img src=x onerror="alert(1)">'} />,
    );
    expect(container.textContent).toContain("<script>alert(1)</script>");
    expect(container.textContent).toContain('<img src=x onerror="alert(1)">');
  });

  it("names the host of every remote image, in every syntax", () => {
    const images = hostileMessages.filter(({ name }) => /image/.test(name) && !/data image/.test(name));
    const { container } = render(<Markdown text={images.map(({ text }) => text).join("\n\n---\n\n")} />);
    // inline, titled, reference, collapsed, in a link, table, footnote, quoted list and heading
    expect(container.querySelectorAll(".remote-image").length).toBe(9);
    expect(container.querySelectorAll("a a")).toHaveLength(0);
  });
});
