import type { Node } from "web-tree-sitter";
import type { ShellHeredoc } from "./parsed-line";

/**
 * Reads a heredoc redirection's delimiter and body the way bash does. The body is cut from the source by
 * bash's own rule (the lines up to the first one that is exactly the delimiter, after tab stripping for
 * `<<-`) and must end where the grammar says it ends: where the two disagree, the body is left unknown.
 */
export function readHeredoc(node: Node, operator: string, source: string): ShellHeredoc | undefined {
  const start = node.namedChildren.find((child) => child?.type === "heredoc_start");
  if (!start) return undefined;
  const word = unquoteDelimiter(start.text);
  const stripTabs = operator === "<<-";
  const heredoc: ShellHeredoc = {
    delimiter: word?.value ?? start.text,
    quoted: word?.quoted ?? false,
    stripTabs,
  };
  if (!word) return heredoc;
  const end = node.namedChildren.find((child) => child?.type === "heredoc_end");
  const bodyNode = node.namedChildren.find((child) => child?.type === "heredoc_body");
  if (!end) return heredoc;
  // bash starts the body on the line after the operator's. The grammar's body node starts at its first
  // character that is not a blank (it skips blank lines and `<<-`'s tabs), so only blanks may lie between.
  const lineEnd = source.indexOf("\n", start.endIndex);
  const bodyStart = lineEnd + 1;
  const anchor = bodyNode?.startIndex ?? end.startIndex;
  const blanksBefore = /^[ \t\r\n]*$/.test(source.slice(bodyStart, anchor));
  if (lineEnd < 0 || anchor < bodyStart || !blanksBefore) return heredoc;
  // A heredoc whose line runs on over a quoted newline, or shares it with another heredoc, is left unread.
  const onItsLine = node.children.every(
    (child) => !child || child.type.startsWith("heredoc_") || child.endIndex <= lineEnd,
  );
  if (!onItsLine) return heredoc;
  const body = bodyUpToDelimiter(source, bodyStart, word.value, stripTabs);
  if (!body || body.endStart !== end.startIndex || body.endEnd !== end.endIndex) return heredoc;
  return { ...heredoc, body: body.text };
}

/** The body lines from `from` up to the delimiter line, and where the delimiter sits; undefined when there is none. */
function bodyUpToDelimiter(
  source: string,
  from: number,
  delimiter: string,
  stripTabs: boolean,
): { text: string; endStart: number; endEnd: number } | undefined {
  let text = "";
  let lineStart = from;
  while (lineStart <= source.length) {
    const newline = source.indexOf("\n", lineStart);
    const lineEnd = newline < 0 ? source.length : newline;
    const line = source.slice(lineStart, lineEnd);
    const stripped = stripTabs ? line.replace(/^\t+/, "") : line;
    if (stripped === delimiter) {
      return { text, endStart: lineEnd - stripped.length, endEnd: lineEnd };
    }
    // bash reads to the end of the input when no line ends the body (with a warning): not a body to trust.
    if (newline < 0) return undefined;
    text += `${stripped}\n`;
    lineStart = newline + 1;
  }
  return undefined;
}

/**
 * A heredoc delimiter after quote removal, and whether any of it was quoted (which makes the body plain
 * text). Undefined for delimiters this reader does not take apart exactly (with `$`, backticks, blanks).
 */
export function unquoteDelimiter(text: string): { value: string; quoted: boolean } | undefined {
  let value = "";
  let quoted = false;
  let i = 0;
  while (i < text.length) {
    const char = text[i] as string;
    if (char === "'" || char === '"') {
      const close = text.indexOf(char, i + 1);
      if (close < 0) return undefined;
      const inner = text.slice(i + 1, close);
      // Inside double quotes a backslash, `$` or backtick would need bash's rules; not worth modelling.
      if (char === '"' && /[\\$`]/.test(inner)) return undefined;
      value += inner;
      quoted = true;
      i = close + 1;
    } else if (char === "\\") {
      if (i + 1 >= text.length) return undefined;
      value += text[i + 1];
      quoted = true;
      i += 2;
    } else if (/[\s$`]/.test(char)) {
      return undefined;
    } else {
      value += char;
      i++;
    }
  }
  if (!value || value.includes("\n")) return undefined;
  return { value, quoted };
}
