import type { CSSProperties } from "react";
import { type AnsiColor, type AnsiSpan, dropLines, parseAnsi } from "../../lib/ansi";

function colorClass(prefix: "fg" | "bg", color: AnsiColor | undefined): string {
  return typeof color === "number" ? ` ansi-${prefix}-${color}` : "";
}

function spanClass(span: AnsiSpan): string {
  const { style } = span;
  // Inverse swaps the colours; with none set it paints the text in the background colour and back.
  const fg = style.inverse ? (style.bg ?? "inverse-fg") : style.fg;
  const bg = style.inverse ? (style.fg ?? "inverse-bg") : style.bg;
  let name = "";
  if (style.bold) name += " ansi-bold";
  if (style.dim) name += " ansi-dim";
  if (style.italic) name += " ansi-italic";
  if (style.underline) name += " ansi-underline";
  if (style.strike) name += " ansi-strike";
  if (fg === "inverse-fg") name += " ansi-inverse-fg";
  else name += colorClass("fg", fg);
  if (bg === "inverse-bg") name += " ansi-inverse-bg";
  else name += colorClass("bg", bg);
  return name.trim();
}

function spanStyle(span: AnsiSpan): CSSProperties | undefined {
  const { style } = span;
  const fg = style.inverse ? style.bg : style.fg;
  const bg = style.inverse ? style.fg : style.bg;
  const css: CSSProperties = {};
  if (typeof fg === "string") css.color = fg;
  if (typeof bg === "string") css.backgroundColor = bg;
  return css.color || css.backgroundColor ? css : undefined;
}

/**
 * Terminal output with its colours, as text nodes: nothing printed can become markup. `skipLines` leaves
 * out its first lines (drawn as space by the caller), the rest keeping the colours set before them.
 */
export function AnsiText({ text, skipLines = 0 }: { text: string; skipLines?: number }) {
  const spans = skipLines > 0 ? dropLines(parseAnsi(text), skipLines) : parseAnsi(text);
  return (
    <>
      {spans.map((span, index) => {
        const className = spanClass(span);
        const style = spanStyle(span);
        if (!className && !style) return span.text;
        return (
          // biome-ignore lint/suspicious/noArrayIndexKey: spans are positions in a fixed text.
          <span key={index} className={className || undefined} style={style}>
            {span.text}
          </span>
        );
      })}
    </>
  );
}
