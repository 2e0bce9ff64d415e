/**
 * Guards the parser against nesting built to exhaust it: micromark's and React's work grows with the depth
 * of quotes and lists (a 400-deep list takes seconds, a 5,000-deep quote overflows the stack), while no
 * message a person reads nests more than a few levels. A block past the limit is drawn as its plain text.
 */

/** The deepest nesting of quotes, or of lists, drawn as Markdown. */
export const MAX_NESTING = 32;

// A line's leading quote markers (spaces between them allowed), or the indentation before a list marker.
const QUOTES = new RegExp(`^(?:[ \\t]*>){${MAX_NESTING + 1}}`, "m");
const INDENTED_ITEM = new RegExp(`^[ \\t]{${MAX_NESTING * 4},}(?:[-+*]|\\d{1,9}[.)])(?:[ \\t]|$)`, "m");

/** Whether a block nests quotes or lists deeper than `MAX_NESTING`. */
export function nestsTooDeep(source: string): boolean {
  return QUOTES.test(source) || INDENTED_ITEM.test(source);
}
