import { memo, type ReactNode, useState } from "react";
import { useT } from "../../i18n/i18n";
import { type Block, parseBlocks } from "../../lib/markdown-blocks";
import { type Inline, parseInline } from "../../lib/markdown-inline";

/**
 * Markdown drawn as React elements, never as HTML: what a model writes cannot inject markup, so there is
 * nothing to sanitize. Raw HTML in the source shows as text.
 */
export const Markdown = memo(function Markdown({ text }: { text: string }) {
  return <div className="markdown">{renderBlocks(parseBlocks(text))}</div>;
});

function renderBlocks(blocks: Block[]): ReactNode[] {
  // biome-ignore lint/suspicious/noArrayIndexKey: blocks are positions in the text; streaming only appends.
  return blocks.map((block, index) => <MarkdownBlock key={index} block={block} />);
}

function MarkdownBlock({ block }: { block: Block }): ReactNode {
  switch (block.kind) {
    case "paragraph":
      return <p>{renderInline(parseInline(block.text))}</p>;
    case "heading": {
      // Message headings sit below the page's own, so they start at h3.
      const Tag = (["h3", "h4", "h5", "h6", "h6", "h6"] as const)[block.level - 1] ?? "h6";
      return <Tag>{renderInline(parseInline(block.text))}</Tag>;
    }
    case "code":
      return <CodeBlock language={block.language} code={block.code} />;
    case "quote":
      return <blockquote>{renderBlocks(block.children)}</blockquote>;
    case "rule":
      return <hr />;
    case "list": {
      const items = block.items.map((item, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: as above.
        <li key={index}>{renderItem(item)}</li>
      ));
      return block.ordered ? (
        <ol start={block.start === 1 ? undefined : block.start}>{items}</ol>
      ) : (
        <ul>{items}</ul>
      );
    }
    case "table":
      return (
        <div className="table-wrap">
          <table>
            <thead>
              <tr>
                {block.head.map((cell, index) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: as above.
                  <th key={index} style={{ textAlign: block.align[index] ?? undefined }}>
                    {renderInline(parseInline(cell))}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {block.rows.map((row, rowIndex) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: as above.
                <tr key={rowIndex}>
                  {block.head.map((_, index) => (
                    // biome-ignore lint/suspicious/noArrayIndexKey: as above.
                    <td key={index} style={{ textAlign: block.align[index] ?? undefined }}>
                      {renderInline(parseInline(row[index] ?? ""))}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      );
  }
}

/** A list item holding one paragraph is drawn tight, without a <p>. */
function renderItem(blocks: Block[]): ReactNode {
  const [first, ...rest] = blocks;
  if (first?.kind === "paragraph") {
    return (
      <>
        {renderInline(parseInline(first.text))}
        {renderBlocks(rest)}
      </>
    );
  }
  return renderBlocks(blocks);
}

function renderInline(nodes: Inline[]): ReactNode[] {
  return nodes.map((node, index) => {
    switch (node.kind) {
      case "text":
        return node.text;
      case "code":
        // biome-ignore lint/suspicious/noArrayIndexKey: inline nodes are positions in fixed text.
        return <code key={index}>{node.text}</code>;
      case "strong":
        // biome-ignore lint/suspicious/noArrayIndexKey: as above.
        return <strong key={index}>{renderInline(node.children)}</strong>;
      case "em":
        // biome-ignore lint/suspicious/noArrayIndexKey: as above.
        return <em key={index}>{renderInline(node.children)}</em>;
      case "strike":
        // biome-ignore lint/suspicious/noArrayIndexKey: as above.
        return <del key={index}>{renderInline(node.children)}</del>;
      case "link":
        return (
          // biome-ignore lint/suspicious/noArrayIndexKey: as above.
          <a key={index} href={node.href} target="_blank" rel="noreferrer noopener">
            {renderInline(node.children)}
          </a>
        );
      case "break":
        // biome-ignore lint/suspicious/noArrayIndexKey: as above.
        return <br key={index} />;
      default:
        return null;
    }
  });
}

/** A fenced code block: monospace, scrollable, with its language and a copy button. */
function CodeBlock({ language, code }: { language: string; code: string }) {
  const t = useT();
  const [copied, setCopied] = useState(false);
  const copy = () => {
    navigator.clipboard?.writeText(code).then(
      () => {
        setCopied(true);
        setTimeout(() => setCopied(false), 1500);
      },
      () => {}, // clipboard refused (no permission): the text is still selectable
    );
  };
  return (
    <div className="code-block">
      <div className="code-head">
        <span className="muted">{language || "\u00a0"}</span>
        <button
          type="button"
          className="small"
          onClick={copy}
          aria-label={t.chat.copyCodeLabel(language || "text")}
        >
          {copied ? t.chat.copied : t.chat.copyCode}
        </button>
      </div>
      <pre>
        <code className={language ? `language-${language}` : undefined}>{code}</code>
      </pre>
    </div>
  );
}
