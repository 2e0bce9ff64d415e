/**
 * A small reader of terminal output: SGR colour and weight codes become styled spans; every other
 * escape sequence (cursor moves, erase, titles, hyperlinks) and control character is dropped. The spans
 * are rendered as text, never as HTML, so nothing a command prints can become markup.
 *
 * Kept over a library (as the Markdown reader was not): the libraries that read ANSI (ansi-to-html,
 * anser, ansi_up) give HTML strings to inject or carry far more than SGR, and this reader is small, holds no
 * markup at any point, and is covered by its own tests; the chat's Markdown is a grammar a small reader
 * could not follow, which is why that one went to react-markdown.
 */

/** A colour: 0–15 for the theme's palette (a CSS class), or a CSS colour for the 256-colour and RGB codes. */
export type AnsiColor = number | string;

/** How a run of text looks. */
export interface AnsiStyle {
  /** Foreground colour. */
  fg?: AnsiColor;
  /** Background colour. */
  bg?: AnsiColor;
  /** Bold (SGR 1). */
  bold?: boolean;
  /** Faint (SGR 2). */
  dim?: boolean;
  /** Italic (SGR 3). */
  italic?: boolean;
  /** Underlined (SGR 4). */
  underline?: boolean;
  /** Foreground and background swapped (SGR 7). */
  inverse?: boolean;
  /** Struck through (SGR 9). */
  strike?: boolean;
}

/** A run of text in one style. */
export interface AnsiSpan {
  /** The text, control characters removed; newlines kept. */
  text: string;
  /** Its style; an empty object for plain text. */
  style: AnsiStyle;
}

// CSI (ESC [ ... final byte), OSC (ESC ] ... BEL or ESC \), and the other escapes (ESC, intermediates,
// final byte: charset switches such as ESC ( B, keypad modes).
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching terminal control sequences is the point.
const ESCAPE = /\x1b\[([0-?]*)[ -/]*([@-~])|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?|\x1b[ -/]*[0-~]?/g;
// biome-ignore lint/suspicious/noControlCharactersInRegex: as above.
const OTHER_CONTROLS = /[\x00-\x08\x0b\x0c\x0e-\x1a\x1c-\x1f\x7f]/g;
// biome-ignore lint/suspicious/noControlCharactersInRegex: as above.
const SGR = /\x1b\[[0-9;:]*m/g;

/** Splits terminal output into styled spans. */
export function parseAnsi(input: string): AnsiSpan[] {
  const text = collapseCarriageReturns(input).replace(OTHER_CONTROLS, "");
  const spans: AnsiSpan[] = [];
  let style: AnsiStyle = {};
  let last = 0;
  const push = (chunk: string) => {
    if (!chunk) return;
    const previous = spans[spans.length - 1];
    if (previous && previous.style === style) previous.text += chunk;
    else spans.push({ text: chunk, style });
  };
  for (const match of text.matchAll(ESCAPE)) {
    push(text.slice(last, match.index));
    last = match.index + match[0].length;
    if (match[2] === "m") style = applySgr(style, match[1] ?? "");
  }
  push(text.slice(last));
  return spans;
}

/**
 * A carriage return sends the cursor back to the start of the line, so progress bars redraw in place.
 * Only the text after the last one in a line is kept, with the style codes before it, so the line shows
 * what a terminal would show at the end.
 */
function collapseCarriageReturns(text: string): string {
  if (!text.includes("\r")) return text;
  return text
    .split("\n")
    .map((line) => {
      const trimmed = line.endsWith("\r") ? line.slice(0, -1) : line;
      const at = trimmed.lastIndexOf("\r");
      if (at < 0) return trimmed;
      const styles = trimmed.slice(0, at).match(SGR)?.join("") ?? "";
      return styles + trimmed.slice(at + 1);
    })
    .join("\n");
}

/** Applies one SGR sequence's parameters (e.g. "1;31" or "38;5;208") to a style, returning a new one. */
export function applySgr(style: AnsiStyle, params: string): AnsiStyle {
  const codes = params === "" ? [0] : params.split(/[;:]/).map((code) => (code === "" ? 0 : Number(code)));
  let next: AnsiStyle = { ...style };
  for (let i = 0; i < codes.length; i++) {
    const code = codes[i] ?? 0;
    if (code === 0) next = {};
    else if (code === 1) next.bold = true;
    else if (code === 2) next.dim = true;
    else if (code === 3) next.italic = true;
    else if (code === 4) next.underline = true;
    else if (code === 7) next.inverse = true;
    else if (code === 9) next.strike = true;
    else if (code === 22) next = without(next, "bold", "dim");
    else if (code === 23) next = without(next, "italic");
    else if (code === 24) next = without(next, "underline");
    else if (code === 27) next = without(next, "inverse");
    else if (code === 29) next = without(next, "strike");
    else if (code >= 30 && code <= 37) next.fg = code - 30;
    else if (code === 39) next = without(next, "fg");
    else if (code >= 40 && code <= 47) next.bg = code - 40;
    else if (code === 49) next = without(next, "bg");
    else if (code >= 90 && code <= 97) next.fg = code - 90 + 8;
    else if (code >= 100 && code <= 107) next.bg = code - 100 + 8;
    else if (code === 38 || code === 48) {
      const [color, used] = extendedColor(codes, i + 1);
      if (color !== undefined) next[code === 38 ? "fg" : "bg"] = color;
      i += used;
    }
  }
  return next;
}

function without(style: AnsiStyle, ...keys: (keyof AnsiStyle)[]): AnsiStyle {
  const copy = { ...style };
  for (const key of keys) delete copy[key];
  return copy;
}

/** Reads `5;n` (256 colours) or `2;r;g;b` (RGB) after a 38 or 48; returns the colour and the codes used. */
function extendedColor(codes: number[], at: number): [AnsiColor | undefined, number] {
  const mode = codes[at];
  if (mode === 5) {
    const index = codes[at + 1];
    if (index === undefined || index < 0 || index > 255) return [undefined, 2];
    return [index < 16 ? index : palette256(index), 2];
  }
  if (mode === 2) {
    const [r, g, b] = [codes[at + 1], codes[at + 2], codes[at + 3]].map((v) => clampByte(v ?? 0));
    return [`rgb(${r}, ${g}, ${b})`, 4];
  }
  // An unknown mode: skip it, so it is not read as an attribute of its own.
  return [undefined, mode === undefined ? 0 : 1];
}

function clampByte(value: number): number {
  return Number.isFinite(value) ? Math.min(255, Math.max(0, Math.round(value))) : 0;
}

/** The xterm 256-colour palette above the first 16: a 6×6×6 cube, then 24 greys. */
function palette256(index: number): string {
  if (index >= 232) {
    const grey = 8 + (index - 232) * 10;
    return `rgb(${grey}, ${grey}, ${grey})`;
  }
  const cube = index - 16;
  const level = (n: number) => (n === 0 ? 0 : 55 + n * 40);
  return `rgb(${level(Math.floor(cube / 36))}, ${level(Math.floor(cube / 6) % 6)}, ${level(cube % 6)})`;
}

/**
 * The spans after the first `count` lines, each in the style it had: a long output drawn from a later
 * line keeps the colours set before it.
 */
export function dropLines(spans: readonly AnsiSpan[], count: number): AnsiSpan[] {
  if (count <= 0) return [...spans];
  let left = count;
  for (let index = 0; index < spans.length; index += 1) {
    const span = spans[index] as AnsiSpan;
    let at = -1;
    while (left > 0) {
      at = span.text.indexOf("\n", at + 1);
      if (at < 0) break;
      left -= 1;
    }
    if (left === 0) {
      const rest = span.text.slice(at + 1);
      return [...(rest ? [{ text: rest, style: span.style }] : []), ...spans.slice(index + 1)];
    }
  }
  return [];
}
