import type { Node } from "web-tree-sitter";
import { readHeredoc } from "./heredoc-reader";
import type { RedirectKind, ShellRedirect } from "./parsed-line";
import { wordsBashJoins } from "./shell-grammar";
import { readWord, type ShellWord } from "./shell-words";

/** A redirection node taken apart. */
export interface RedirectParts {
  /** What the redirection does. */
  redirect: ShellRedirect;
  /** A sentence for a person about it. */
  note: string;
  /** Children that may hold commands or expansions, to walk. */
  walk: Node[];
  /** Redirections the grammar nests inside this one (after a heredoc's delimiter). */
  nested: Node[];
  /** Words bash gives to the command although the grammar hangs them on the redirection. */
  extraWords: Node[];
  /** Operator tokens after the redirection's own (`&&`, `||` after a heredoc's delimiter). */
  operators: Node[];
  /** Set when part of it cannot be read; the line must then be refused. */
  problem?: string;
}

/** Takes a file, heredoc or here-string redirection apart. */
export function readRedirect(node: Node, source: string): RedirectParts {
  const parts: Omit<RedirectParts, "redirect" | "note"> = {
    walk: [],
    nested: [],
    extraWords: [],
    operators: [],
  };
  let operator = "";
  let operatorEnd = node.startIndex;
  let descriptor: string | undefined;
  let target: Node | undefined;
  for (let i = 0; i < node.childCount; i++) {
    const child = node.child(i);
    const field = node.fieldNameForChild(i);
    if (!child) continue;
    if (!child.isNamed) {
      if (!operator && field !== "operator") {
        operator = child.type;
        operatorEnd = child.endIndex;
      } else parts.operators.push(child);
    } else if (child.type === "file_descriptor") descriptor = child.text;
    else if (field === "redirect") parts.nested.push(child);
    else if (field === "destination" || field === "argument" || node.type === "herestring_redirect") {
      // The first word is the target; the grammar hangs later ones here, but bash gives them to the command.
      if (target || field === "argument") parts.extraWords.push(child);
      else target = child;
      parts.walk.push(child);
    } else parts.walk.push(child);
  }
  const targetWord = target ? readWord(target) : undefined;
  const { kind, harmless } = classifyRedirect(node.type, operator, targetWord);
  // A heredoc's span stops at its delimiter word, a redirection's at its target.
  const heredocStart = node.namedChildren.find((child) => child?.type === "heredoc_start");
  const end = heredocStart?.endIndex ?? target?.endIndex ?? node.endIndex;
  const text = source.slice(node.startIndex, end);
  const heredoc = kind === "heredoc" ? readHeredoc(node, operator, source) : undefined;
  const redirect: ShellRedirect = {
    operator,
    ...(descriptor ? { descriptor } : {}),
    ...(targetWord ? { target: targetWord } : {}),
    kind,
    harmless,
    text,
    start: node.startIndex,
    end,
    ...(heredoc ? { heredoc } : {}),
  };
  const unread = kind === "heredoc" ? unreadHeredocExpansion(node) : undefined;
  // `> a\<newline>.txt` writes a.txt: the grammar splits the target at the continuation, bash does not.
  const split = target ? wordsBashJoins([target, ...parts.extraWords.slice(0, 1)], source) : undefined;
  // `>` or `<<` ending its line is a syntax error to bash, which runs nothing; the grammar reads on.
  const following = heredocStart ?? target;
  const ownLine =
    !following || !source.slice(operatorEnd, following.startIndex).replaceAll("\\\n", "").includes("\n");
  const problem = unread
    ? `The heredoc after "${text}" holds ${unread}, which the checker cannot read there. Use $(...) or a quoted delimiter (<<'EOF').`
    : !ownLine
      ? `bash refuses "${operator}" with its ${heredocStart ? "delimiter" : "target"} on the next line (a syntax error, and nothing runs): write it on the same line.`
      : kind === "close" && target
        ? `The checker cannot tell what "${text}" closes.`
        : split;
  return { redirect, note: REDIRECT_NOTES[kind], ...parts, ...(problem ? { problem } : {}) };
}

/** Write targets that are not files: output there goes nowhere or to the command's own streams. */
const SAFE_SINKS = new Set(["/dev/null", "/dev/stdout", "/dev/stderr"]);
const WRITE_OPERATORS = new Set([">", ">>", ">|", "&>", "&>>"]);

/** A sentence for a person about each kind of redirection. */
const REDIRECT_NOTES: Record<RedirectKind, string> = {
  write: "Writes the command's output to a file.",
  read: "Reads the command's input from a file.",
  "read-write": "Opens a file for reading and writing.",
  duplicate: "Copies one output stream onto another.",
  close: "Closes a stream.",
  heredoc: "Feeds the following lines to the command's input.",
  herestring: "Feeds this text to the command's input.",
};

/** Says what a redirection does, and whether it touches no file at all. */
function classifyRedirect(
  nodeType: string,
  operator: string,
  target: ShellWord | undefined,
): { kind: RedirectKind; harmless: boolean } {
  const kind = redirectKind(nodeType, operator, target);
  const harmless =
    kind === "duplicate" ||
    kind === "close" ||
    kind === "heredoc" ||
    kind === "herestring" ||
    (kind === "write" && target?.literal === true && SAFE_SINKS.has(target.value)) ||
    (kind === "read" && target?.literal === true && target.value === "/dev/null");
  return { kind, harmless };
}

function redirectKind(nodeType: string, operator: string, target: ShellWord | undefined): RedirectKind {
  if (nodeType === "heredoc_redirect") return "heredoc";
  if (nodeType === "herestring_redirect") return "herestring";
  if (operator === ">&-" || operator === "<&-") return "close";
  if (operator === ">&" || operator === "<&") {
    // `2>&1`, `3<&0`, `>&2-` copy descriptors; `>& file` is bash's old spelling of `&> file`.
    if (target?.literal && /^(\d+-?|-)$/.test(target.value)) return "duplicate";
    return operator === ">&" ? "write" : "read";
  }
  if (operator === "<") return "read";
  if (WRITE_OPERATORS.has(operator)) return "write";
  // `<>` and anything this checker has not met are taken as the most dangerous kind.
  return "read-write";
}

/** Expansions the grammar found in a heredoc body; what is left must hold none. */
const BODY_EXPANSIONS = new Set([
  "command_substitution",
  "expansion",
  "simple_expansion",
  "arithmetic_expansion",
]);

/**
 * The grammar does not read backticks or `$[...]` in an unquoted heredoc body, yet bash runs them.
 * Returns the first expansion the grammar left as plain text, or undefined when there is none.
 */
function unreadHeredocExpansion(redirect: Node): string | undefined {
  const start = redirect.namedChildren.find((child) => child?.type === "heredoc_start");
  const body = redirect.namedChildren.find((child) => child?.type === "heredoc_body");
  // A quoted delimiter (<<'EOF', <<"EOF", <<\EOF) makes the body plain text.
  if (!start || !body || /['"\\]/.test(start.text)) return undefined;
  let leftover = "";
  let cursor = body.startIndex;
  for (const child of body.namedChildren) {
    if (!child || !BODY_EXPANSIONS.has(child.type)) continue;
    leftover += sliceOf(body, cursor, child.startIndex);
    cursor = child.endIndex;
  }
  leftover += sliceOf(body, cursor, body.endIndex);
  return /`|\$[([{]/.exec(leftover.replace(/\\[\s\S]/g, ""))?.[0];
}

function sliceOf(node: Node, start: number, end: number): string {
  return node.text.slice(start - node.startIndex, end - node.startIndex);
}
