/** A block of Markdown, as the renderer draws it. Inline text stays source until it is drawn. */
export type Block =
  | { kind: "paragraph"; text: string }
  | { kind: "heading"; level: number; text: string }
  | { kind: "code"; language: string; code: string; open: boolean }
  | { kind: "quote"; children: Block[] }
  | { kind: "list"; ordered: boolean; start: number; items: Block[][] }
  | { kind: "table"; align: ("left" | "center" | "right" | null)[]; head: string[]; rows: string[][] }
  | { kind: "rule" };

const FENCE = /^ {0,3}(`{3,}|~{3,})\s*([^`\s]*)/;
const HEADING = /^ {0,3}(#{1,6})(?:\s+(.*?))?\s*#*\s*$/;
const RULE = /^ {0,3}([-*_])(?:\s*\1){2,}\s*$/;
const QUOTE = /^ {0,3}> ?/;
const ITEM = /^( {0,3})([-*+]|\d{1,9}[.)])(\s+|$)/;
const TABLE_DIVIDER = /^\s*\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?\s*$/;

/**
 * Reads the block Markdown a model writes: fenced code, headings, lists (nested by indentation), quotes,
 * tables, rules and paragraphs. It reads streaming text too: a fence not yet closed is code to the end.
 */
export function parseBlocks(source: string): Block[] {
  return readBlocks(source.replace(/\r\n?/g, "\n").split("\n"));
}

function readBlocks(lines: string[]): Block[] {
  const blocks: Block[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i] as string;
    if (line.trim() === "") {
      i += 1;
      continue;
    }
    const fence = FENCE.exec(line);
    if (fence) {
      const marker = fence[1] as string;
      const closing = new RegExp(`^ {0,3}${marker[0] === "`" ? "`" : "~"}{${marker.length},}\\s*$`);
      const code: string[] = [];
      let j = i + 1;
      while (j < lines.length && !closing.test(lines[j] as string)) code.push(lines[j++] as string);
      blocks.push({ kind: "code", language: fence[2] ?? "", code: code.join("\n"), open: j >= lines.length });
      i = j + 1;
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading) {
      blocks.push({ kind: "heading", level: (heading[1] as string).length, text: heading[2] ?? "" });
      i += 1;
      continue;
    }
    if (RULE.test(line)) {
      blocks.push({ kind: "rule" });
      i += 1;
      continue;
    }
    if (QUOTE.test(line)) {
      const quoted: string[] = [];
      while (i < lines.length && QUOTE.test(lines[i] as string)) {
        quoted.push((lines[i] as string).replace(QUOTE, ""));
        i += 1;
      }
      blocks.push({ kind: "quote", children: readBlocks(quoted) });
      continue;
    }
    if (ITEM.test(line)) {
      i = readList(lines, i, blocks);
      continue;
    }
    if (line.includes("|") && TABLE_DIVIDER.test(lines[i + 1] ?? "") && (lines[i + 1] ?? "").includes("-")) {
      i = readTable(lines, i, blocks);
      continue;
    }
    const paragraph: string[] = [];
    while (i < lines.length && (lines[i] as string).trim() !== "" && !startsBlock(lines[i] as string)) {
      paragraph.push(lines[i] as string);
      i += 1;
    }
    if (paragraph.length === 0) paragraph.push(lines[i++] as string);
    blocks.push({ kind: "paragraph", text: paragraph.join("\n").trim() });
  }
  return blocks;
}

function startsBlock(line: string): boolean {
  return FENCE.test(line) || HEADING.test(line) || RULE.test(line) || QUOTE.test(line) || ITEM.test(line);
}

/** Reads the list starting at `start` into `blocks`; returns the line after it. */
function readList(lines: string[], start: number, blocks: Block[]): number {
  const first = ITEM.exec(lines[start] as string) as RegExpExecArray;
  const ordered = /\d/.test(first[2] as string);
  const indent = (first[1] as string).length;
  const items: Block[][] = [];
  let i = start;
  while (i < lines.length) {
    const item = ITEM.exec(lines[i] as string);
    if (!item || (item[1] as string).length !== indent || /\d/.test(item[2] as string) !== ordered) break;
    // The item's content starts after the marker; its other lines are indented at least that far.
    const width = (item[0] as string).length;
    const content = [(lines[i] as string).slice(width)];
    i += 1;
    while (i < lines.length) {
      const line = lines[i] as string;
      const indented = line.length - line.trimStart().length;
      if (line.trim() === "") {
        const next = lines[i + 1] ?? "";
        const nextIndent = next.length - next.trimStart().length;
        if (next.trim() === "" || nextIndent < Math.min(width, indent + 2)) break;
        content.push("");
      } else if (indented >= Math.min(width, indent + 2)) {
        content.push(line.slice(Math.min(indented, width)));
      } else if (!startsBlock(line) && content[content.length - 1] !== "") {
        content.push(line.trimStart()); // a lazy continuation of the item's paragraph
      } else break;
      i += 1;
    }
    items.push(readBlocks(content));
    if (i < lines.length && (lines[i] as string).trim() === "") {
      const next = ITEM.exec(lines[i + 1] ?? "");
      if (next && (next[1] as string).length === indent) i += 1;
    }
  }
  const startNumber = ordered ? Number.parseInt(first[2] as string, 10) : 1;
  blocks.push({ kind: "list", ordered, start: startNumber, items });
  return i;
}

/** Reads the table starting at `start` into `blocks`; returns the line after it. */
function readTable(lines: string[], start: number, blocks: Block[]): number {
  const head = cells(lines[start] as string);
  const align = cells(lines[start + 1] as string).map((cell) => {
    const left = cell.startsWith(":");
    const right = cell.endsWith(":");
    return left && right ? "center" : right ? "right" : left ? "left" : null;
  });
  const rows: string[][] = [];
  let i = start + 2;
  while (i < lines.length && (lines[i] as string).includes("|") && (lines[i] as string).trim() !== "") {
    rows.push(cells(lines[i] as string));
    i += 1;
  }
  blocks.push({ kind: "table", align, head, rows });
  return i;
}

function cells(line: string): string[] {
  const trimmed = line
    .trim()
    .replace(/^\|/, "")
    .replace(/(?<!\\)\|$/, "");
  return trimmed.split(/(?<!\\)\|/).map((cell) => cell.trim().replace(/\\\|/g, "|"));
}
