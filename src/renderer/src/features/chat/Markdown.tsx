import { Component, memo, type ReactNode, useId, useMemo, useRef } from "react";
import ReactMarkdown, { type Options } from "react-markdown";
import remarkGfm from "remark-gfm";
import remend from "remend";
import { nestsTooDeep } from "../../lib/markdown-depth";
import { type BlockSplit, blockTexts, splitBlocks } from "../../lib/markdown-split";
import { markdownUrl } from "../../lib/markdown-urls";
import { markdownElements } from "./markdown-elements";
import { OpenBlock } from "./open-block";

/** What the `Markdown` component draws. */
export interface MarkdownProps {
  /** The message's Markdown, untrusted (the model wrote it). */
  text: string;
  /** Whether the message is still arriving: its half-written end is closed before it is drawn. */
  streaming?: boolean;
}

const REMARK_PLUGINS: Options["remarkPlugins"] = [remarkGfm];

/**
 * A message's Markdown (CommonMark and GFM, by react-markdown and remark-gfm) drawn as React elements,
 * never as HTML: raw HTML in the text shows as text, and addresses pass the allowlist in markdown-urls.ts.
 * The message is cut into blocks and each block is memoised, so a streamed chunk re-parses only the last
 * block; while streaming, `remend` closes that block's half-written bold, code or link so no raw syntax
 * flashes.
 */
export const Markdown = memo(function Markdown({ text, streaming = false }: MarkdownProps) {
  const previous = useRef<BlockSplit | undefined>(undefined);
  const blocks = useMemo(() => {
    const split = splitBlocks(text, previous.current);
    previous.current = split;
    return blockTexts(split);
  }, [text]);
  // Footnote ids are prefixed per message, so two messages' footnotes do not share ids.
  const idPrefix = `user-content-${useId().replace(/[^\w-]/g, "")}-`;
  const last = blocks.length - 1;
  return (
    <div className="markdown">
      {blocks.map((source, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: blocks are positions in the text; streaming only appends.
        <MarkdownBlockBoundary key={index} source={source}>
          <OpenBlock.Provider value={streaming && index === last}>
            <MarkdownBlock
              source={streaming && index === last ? remend(source) : source}
              idPrefix={idPrefix}
            />
          </OpenBlock.Provider>
        </MarkdownBlockBoundary>
      ))}
    </div>
  );
});

/** One block, parsed and drawn again only when its text changes. */
const MarkdownBlock = memo(function MarkdownBlock({
  source,
  idPrefix,
}: {
  source: string;
  idPrefix: string;
}) {
  const rehypeOptions = useMemo(() => ({ clobberPrefix: idPrefix }), [idPrefix]);
  if (nestsTooDeep(source)) return <p className="plain">{source}</p>;
  return (
    <ReactMarkdown
      remarkPlugins={REMARK_PLUGINS}
      remarkRehypeOptions={rehypeOptions}
      urlTransform={markdownUrl}
      components={markdownElements}
    >
      {source}
    </ReactMarkdown>
  );
});

/**
 * If a block cannot be drawn (input built to exhaust the parser's stack), it shows as its text instead of
 * taking the transcript down with it.
 */
class MarkdownBlockBoundary extends Component<{ source: string; children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  override componentDidUpdate(previous: { source: string }): void {
    // A streamed block that failed half-written gets another try once its text changes.
    if (this.state.failed && previous.source !== this.props.source) this.setState({ failed: false });
  }

  override render(): ReactNode {
    return this.state.failed ? <p className="plain">{this.props.source}</p> : this.props.children;
  }
}
