import type { Element, ElementContent } from "hast";
import { type ComponentProps, createContext, type ReactNode, useContext } from "react";
import type { Components, ExtraProps } from "react-markdown";
import { useT } from "../../i18n/i18n";
import { classifyImage } from "../../lib/markdown-urls";
import { CodeBlock } from "./CodeBlock";

/**
 * How the elements of a message are drawn: code blocks with their language and a Copy button, links that
 * open outside the app, images that never load from a host, headings below the page's own.
 */
export const markdownElements: Components = {
  h1: (props) => heading(1, props),
  h2: (props) => heading(2, props),
  h3: (props) => heading(3, props),
  h4: (props) => heading(4, props),
  h5: (props) => heading(5, props),
  h6: (props) => heading(6, props),
  pre: FencedCode,
  a: MarkdownLink,
  img: MarkdownImage,
  table: ({ node: _node, ...props }) => (
    <div className="table-wrap">
      <table {...props} />
    </div>
  ),
};

// Message headings sit below the page's own, so they start at h3; data-level keeps the level written.
const HEADING_TAGS = ["h3", "h4", "h5", "h6", "h6", "h6"] as const;

function heading(level: number, { node: _node, ...props }: ComponentProps<"h1"> & ExtraProps): ReactNode {
  const Tag = HEADING_TAGS[level - 1] ?? "h6";
  return <Tag data-level={level} {...props} />;
}

/** A fenced or indented code block: its text and language read from the `<code>` inside. */
function FencedCode({ node, children }: ComponentProps<"pre"> & ExtraProps): ReactNode {
  const code = node?.children.find(
    (child): child is Element => child.type === "element" && child.tagName === "code",
  );
  if (!code) return <pre>{children}</pre>;
  const classes = code.properties.className;
  const language =
    (Array.isArray(classes) ? classes : [])
      .map(String)
      .find((name) => name.startsWith("language-"))
      ?.slice("language-".length) ?? "";
  // The block's last newline ends the fence, not the code.
  return <CodeBlock language={language} code={textOf(code).replace(/\n$/, "")} />;
}

function textOf(node: ElementContent | Element): string {
  if (node.type === "text") return node.value;
  if (node.type === "element") return node.children.map(textOf).join("");
  return "";
}

/**
 * A link the URL rules kept opens outside the app (the shell's window-open handler checks it again); a
 * footnote's in-page link stays in the page; a link whose target was dropped is its text.
 */
/** Whether an element is drawn inside a link (a link may not hold another). */
const InsideLink = createContext(false);

function MarkdownLink({
  node: _node,
  href,
  children,
  ...props
}: ComponentProps<"a"> & ExtraProps): ReactNode {
  if (!href) return <span className="link-dropped">{children}</span>;
  const external = href.startsWith("#") ? {} : { target: "_blank", rel: "noreferrer noopener" };
  return (
    <a href={href} {...external} {...props}>
      <InsideLink.Provider value={true}>{children}</InsideLink.Provider>
    </a>
  );
}

/**
 * An image: a small raster `data:` image is drawn; an image on a host is a link naming the host, so the
 * page never sends a request the person did not ask for (a remote image is how a prompt injection sends
 * data out); anything else is its alt text.
 */
function MarkdownImage({ src, alt, title }: ComponentProps<"img"> & ExtraProps): ReactNode {
  const t = useT();
  const insideLink = useContext(InsideLink);
  const source = classifyImage(typeof src === "string" ? src : undefined);
  if (source.kind === "inline") return <img src={source.src} alt={alt} title={title} />;
  if (source.kind === "remote" && insideLink) {
    // The link around it is what a click follows; this names the image's host all the same.
    return (
      <span className="remote-image" data-href={source.url} title={title} data-alt={alt}>
        {t.chat.remoteImage(alt ?? "", source.host)}
      </span>
    );
  }
  if (source.kind === "remote") {
    return (
      <a
        className="remote-image"
        href={source.url}
        target="_blank"
        rel="noreferrer noopener"
        title={title}
        data-alt={alt}
      >
        {t.chat.remoteImage(alt ?? "", source.host)}
      </a>
    );
  }
  return alt ? <span className="image-dropped">{alt}</span> : null;
}
