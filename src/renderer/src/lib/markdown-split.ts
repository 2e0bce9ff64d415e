/**
 * Cuts a Markdown message into top-level blocks that can be parsed on their own, so a streamed message
 * re-parses only its last block per chunk: the blocks before it are final and stay memoised.
 *
 * The cut is conservative. It is made only at a blank line outside a fence whose next line starts at the
 * margin (an indented line may continue a list item or an indented code block), never between two items of
 * one list, and not at all in a message holding a link reference or footnote definition (those reach across
 * blocks) or an HTML block that may span blank lines: such a message is one block, parsed whole.
 */

/** A message cut into blocks, kept between chunks so the next cut resumes at the last block. */
export interface BlockSplit {
  /** The text this split was made from. */
  readonly text: string;
  /** Offset of the first character of each block; the first is always 0. */
  readonly starts: readonly number[];
  /** Whether the text holds something that reaches across blocks, so it is one block. */
  readonly whole: boolean;
}

/** The blocks' texts, in order; they join back into the split's text. */
export function blockTexts(split: BlockSplit): string[] {
  return split.starts.map((start, index) => split.text.slice(start, split.starts[index + 1]));
}

// `[label]:` or `[^note]:` at a line start, maybe inside quotes or list items: a definition other blocks may use.
const DEFINITION = /^[ \t>*+\-\d.)]*\[(?:[^\]\\]|\\.)+\]:/m;
// HTML blocks of kinds 1-5 run until their own end marker, across blank lines.
const SPANNING_HTML = /^[ \t>]*<(?:script|pre|style|textarea|!--|\?|![A-Za-z]|!\[CDATA\[)/im;
const FENCE_OPEN = /^ {0,3}(`{3,}|~{3,})(.*)$/;
const LIST_ITEM = /^ {0,3}(?:[-+*]|\d{1,9}[.)])(?:[ \t]|$)/;

/**
 * Splits `text` into blocks. Given the split of a text this one extends (a streamed message grows only at
 * its end), it keeps every block but the last and rescans from there, so the cost per chunk does not grow
 * with the message.
 */
export function splitBlocks(text: string, previous?: BlockSplit): BlockSplit {
  const resume =
    previous && !previous.whole && text.startsWith(previous.text)
      ? (previous.starts[previous.starts.length - 1] ?? 0)
      : 0;
  const kept = resume > 0 && previous ? previous.starts.slice(0, -1) : [];
  const tail = text.slice(resume);
  if (DEFINITION.test(tail) || SPANNING_HTML.test(tail)) return { text, starts: [0], whole: true };
  return { text, starts: [...kept, ...scanStarts(text, resume)], whole: false };
}

/** Block starts in `text` from `from` (itself a block start) on. */
function scanStarts(text: string, from: number): number[] {
  const starts = [from];
  let fence: { char: string; length: number } | null = null;
  let blankBefore = false;
  let blockHasList = false;
  let offset = from;
  while (offset < text.length) {
    const newline = text.indexOf("\n", offset);
    const end = newline < 0 ? text.length : newline;
    const line = text.slice(offset, end);
    if (fence) {
      const close = new RegExp(`^ {0,3}${fence.char === "`" ? "`" : "~"}{${fence.length},}[ \\t]*$`);
      if (close.test(line)) fence = null;
    } else if (line.trim() === "") {
      blankBefore = true;
    } else {
      const atMargin = line[0] !== " " && line[0] !== "\t";
      const isItem = LIST_ITEM.test(line);
      if (blankBefore && atMargin && !(isItem && blockHasList) && offset > from) {
        starts.push(offset);
        blockHasList = false;
      }
      blankBefore = false;
      if (isItem) blockHasList = true;
      const open = FENCE_OPEN.exec(line);
      // A backtick fence's info string may not hold a backtick (that is inline code, not a fence).
      if (open?.[1] && !(open[1][0] === "`" && open[2]?.includes("`"))) {
        fence = { char: open[1][0] as string, length: open[1].length };
      }
    }
    offset = end + 1;
  }
  return starts;
}
