import { markdownUrl } from "../../src/renderer/src/lib/markdown-urls";

/**
 * Puts reference HTML (from a spec) and the renderer's DOM into one comparable form, in the manner of the
 * CommonMark spec's own normaliser: attributes sorted, whitespace collapsed outside `<pre>` and dropped
 * around block tags. The renderer's own choices are undone on its side (headings drawn two levels down,
 * the code block's header, the table's scroll box, link targets), and the URL rules are applied to the
 * reference's side (a link the renderer refuses is its text; an image that is neither a small `data:` image
 * nor on a host is its alt text), so what is compared is the document's structure.
 */
export function renderedForm(container: Element, options: { unlinkBareAddresses?: boolean } = {}): string {
  const copy = container.cloneNode(true) as Element;
  if (options.unlinkBareAddresses) {
    for (const link of copy.querySelectorAll("a")) {
      const href = link.getAttribute("href") ?? "";
      if (href === link.textContent || href === `mailto:${link.textContent}`) unwrap(link);
    }
  }
  for (const head of copy.querySelectorAll(".code-head")) head.remove();
  for (const wrap of copy.querySelectorAll(".code-block, .table-wrap")) unwrap(wrap);
  for (const heading of copy.querySelectorAll("[data-level]")) {
    const level = heading.getAttribute("data-level");
    const replacement = copy.ownerDocument.createElement(`h${level}`);
    for (const attribute of heading.attributes) {
      if (attribute.name !== "data-level") replacement.setAttribute(attribute.name, attribute.value);
    }
    replacement.append(...heading.childNodes);
    heading.replaceWith(replacement);
  }
  for (const image of copy.querySelectorAll(".remote-image")) {
    const replacement = copy.ownerDocument.createElement("img");
    replacement.setAttribute("src", image.getAttribute("href") ?? image.getAttribute("data-href") ?? "");
    replacement.setAttribute("alt", image.getAttribute("data-alt") ?? "");
    const title = image.getAttribute("title");
    if (title !== null) replacement.setAttribute("title", title);
    image.replaceWith(replacement);
  }
  for (const link of copy.querySelectorAll("span.link-dropped, span.image-dropped")) unwrap(link);
  for (const link of copy.querySelectorAll("a")) {
    link.removeAttribute("target");
    link.removeAttribute("rel");
  }
  return canonical(copy, false);
}

/** The reference HTML in the same form, with the renderer's URL rules applied. */
export function referenceForm(html: string, document: Document): string {
  const holder = document.createElement("div");
  holder.innerHTML = html;
  for (const link of holder.querySelectorAll("a")) {
    const href = link.getAttribute("href");
    if (href === null || markdownUrl(href, "href") === null) unwrap(link);
  }
  for (const image of holder.querySelectorAll("img")) {
    if (markdownUrl(image.getAttribute("src") ?? "", "src") === null) {
      image.replaceWith(document.createTextNode(image.getAttribute("alt") ?? ""));
    }
  }
  return canonical(holder, true);
}

function unwrap(element: Element): void {
  element.replaceWith(...element.childNodes);
}

const BLOCK = "p|ul|ol|li|blockquote|h[1-6]|pre|table|thead|tbody|tr|th|td|hr|div|section";
const AROUND_BLOCK = new RegExp(`\\s*(</?(?:${BLOCK})\\b[^>]*>)\\s*`, "g");

/** `fenceNewline`: the reference keeps the newline that ends a code block; the renderer leaves it out. */
function canonical(root: Element, fenceNewline: boolean): string {
  return [...root.childNodes]
    .map((node) => serialize(node, false, fenceNewline))
    .join("")
    .replace(AROUND_BLOCK, "$1")
    .trim();
}

function serialize(node: Node, inPre: boolean, fenceNewline: boolean): string {
  if (node.nodeType === node.TEXT_NODE) {
    const text = escapeText(node.textContent ?? "");
    if (!inPre) return text.replace(/\s+/g, " ");
    return fenceNewline && !node.nextSibling ? text.replace(/\n$/, "") : text;
  }
  if (node.nodeType !== node.ELEMENT_NODE) return "";
  const element = node as Element;
  const tag = element.tagName.toLowerCase();
  const attributes = [...element.attributes]
    .map((attribute) => `${attribute.name}="${escapeText(attribute.value)}"`)
    .sort()
    .join(" ");
  const open = attributes ? `<${tag} ${attributes}>` : `<${tag}>`;
  if (tag === "hr" || tag === "br" || tag === "img" || tag === "input") return open;
  const inside = [...element.childNodes]
    .map((child) => serialize(child, inPre || tag === "pre", fenceNewline))
    .join("");
  return `${open}${inside}</${tag}>`;
}

function escapeText(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}
