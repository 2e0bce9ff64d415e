import type { Node } from "web-tree-sitter";
import { clip } from "../../base/text";
import type { ShellRiskKind } from "./parsed-line";

// What tree-sitter-bash's node types mean to the walker. A type the walker meets in none of these sets
// (nor handles by name) makes the line unreadable, so it is refused: new grammar constructs fail closed.

/** Nodes whose children are only walked for nested commands: words, expressions, heredoc parts. */
// biome-ignore format: a word list reads better packed
export const TRANSPARENT_NODES: ReadonlySet<string> = new Set([
  "program", "list", "pipeline", "variable_assignments", "command_name",
  "string", "concatenation", "raw_string", "ansi_c_string", "word", "number", "string_content",
  "translated_string", "brace_expression", "array", "variable_name", "special_variable_name",
  "binary_expression", "unary_expression", "ternary_expression", "postfix_expression",
  "parenthesized_expression", "subscript", "test_operator", "regex", "extglob_pattern",
  "heredoc_start", "heredoc_end", "heredoc_content", "heredoc_body", "file_descriptor",
]);

/** Compound statements: the commands in them run (maybe many times, maybe never), so they are walked. */
// biome-ignore format: a word list reads better packed
export const COMPOUND_NODES: ReadonlySet<string> = new Set([
  "if_statement", "elif_clause", "else_clause", "while_statement", "for_statement",
  "c_style_for_statement", "case_statement", "case_item", "do_group", "negated_command", "test_command",
]);

/** Compound statements whose first token is worth pointing at (`for`, `while`, `if`, `case`). */
export const KEYWORD_NODES: ReadonlySet<string> = new Set([
  "if_statement",
  "while_statement",
  "for_statement",
  "c_style_for_statement",
  "case_statement",
]);

/** Parents whose `;` and newlines separate statements (elsewhere a `;` is syntax, as in `if a; then`). */
// biome-ignore format: a word list reads better packed
export const SEQUENCE_NODES: ReadonlySet<string> = new Set([
  "program", "subshell", "compound_statement", "do_group", "command_substitution", "process_substitution",
]);

/** A sentence for a person about each kind of risk whose note does not depend on the line. */
export const RISK_NOTES: Partial<Record<ShellRiskKind, string>> = {
  arithmetic: "Evaluates a variable as arithmetic: a value such as a[$(cmd)] would run cmd.",
  evaluation: "Evaluates text from a variable as shell code: a value such as $(cmd) would run cmd.",
  "command-substitution": "Runs the command inside and uses its output here.",
  "process-substitution": "Runs the command inside and connects it to a temporary file.",
  subshell: "Runs these commands in a subshell; each one is checked.",
  group: "Runs this group of commands; each one is checked.",
  function: "Defines a shell function: a new name that runs other commands.",
  expansion: "Replaced by a value only known when the line runs.",
  comment: "A comment: the shell ignores it, so it does not say what runs.",
  newline: "A new line starts another command; each one is checked.",
  pipeline: "Sends this command's output into the next command.",
  list: "Runs another command after this one.",
  background: "Runs the command in the background, where it can outlive this run.",
};

/** Nodes through which an arithmetic expression reads a variable (or something computed). */
const VARIABLE_NODES = new Set([
  "variable_name",
  "special_variable_name",
  "simple_expansion",
  "expansion",
  "word",
  "subscript",
  "concatenation",
  "string",
  "command_substitution",
]);
const ARITHMETIC_COMPARISONS = new Set(["-eq", "-ne", "-lt", "-le", "-gt", "-ge"]);

/**
 * True where bash evaluates a variable's value as arithmetic: `$((x))`, `((x))`, `${a[x]}`, `${s:x}`,
 * `[[ $x -eq 1 ]]`, C-style `for`, and where it resolves a name that may carry a subscript (`-v`). Arithmetic evaluation is recursive, so a value such as
 * `a[$(cmd)]` (from `read x < file`, say) runs `cmd` with no `$(` in the line to see.
 */
export function evaluatesVariablesAsArithmetic(node: Node): boolean {
  switch (node.type) {
    case "arithmetic_expansion":
      return mentionsVariable(node);
    case "command_substitution":
      // bash reads `$((` as arithmetic first; the grammar sometimes reads it as `$( (...) )`.
      return node.text.startsWith("$((");
    case "compound_statement":
      return node.firstChild?.type === "((" && mentionsVariable(node);
    case "c_style_for_statement":
      return ["initializer", "condition", "update"].some((field) =>
        node.childrenForFieldName(field).some((child) => child !== null && mentionsVariable(child)),
      );
    case "subscript": {
      const index = node.childForFieldName("index");
      return index !== null && !/^(\d+|@|\*)$/.test(index.text);
    }
    case "unary_expression":
      // `-v name` and `-R name` look a variable up by a name that may carry a subscript.
      return /^-[vR]$/.test(node.childForFieldName("operator")?.text ?? "");
    case "expansion": {
      // `${s:offset:length}` (`${!name}` is judged in expansion-rules.ts); `${s:-default}` and friends use other operators.
      const colon = node.children.findIndex((child) => child?.type === ":");
      return (
        colon >= 0 && node.children.slice(colon + 1).some((child) => child?.isNamed && !onlyNumbers(child))
      );
    }
    case "binary_expression": {
      const operator = node.childForFieldName("operator")?.text ?? "";
      if (!ARITHMETIC_COMPARISONS.has(operator) || !insideDoubleBrackets(node)) return false;
      const operands = [node.childForFieldName("left"), node.childForFieldName("right")];
      return operands.some((operand) => operand !== null && operand.type !== "number");
    }
    default:
      return false;
  }
}

/** Literal numbers and operators only: `1`, `-1`, `(-1)`, `2+3`. */
function onlyNumbers(node: Node): boolean {
  if (node.type === "number") return true;
  if (!["unary_expression", "parenthesized_expression", "binary_expression"].includes(node.type))
    return false;
  return node.namedChildren.every((child) => child !== null && onlyNumbers(child));
}

function mentionsVariable(node: Node): boolean {
  return node.namedChildren.some(
    (child) => child !== null && (VARIABLE_NODES.has(child.type) || mentionsVariable(child)),
  );
}

/** `[[ ]]` evaluates `-eq` operands as arithmetic; `[ ]` and `test` only accept numbers. */
function insideDoubleBrackets(node: Node): boolean {
  for (let parent = node.parent; parent; parent = parent.parent) {
    if (parent.type === "test_command") return parent.firstChild?.type === "[[";
  }
  return false;
}

/** Leaf nodes holding unquoted or double-quoted text, where bash would still expand `$(`, backticks, `${`, `$[`. */
const EXPANDING_LEAVES = new Set([
  "word",
  "regex",
  "string_content",
  "extglob_pattern",
  "number",
  "variable_name",
]);

/**
 * The grammar leaves some substitutions as plain text (a backtick inside `${x:-...}`, `$(...)` in a
 * `${x/pattern/}` pattern or after `=~`), yet bash runs them. Says so for a leaf that holds one.
 */
export function unreadExpansion(node: Node): string | undefined {
  if (node.childCount > 0 || !EXPANDING_LEAVES.has(node.type)) return undefined;
  const unread = /`|\$[([{]/.exec(node.text.replace(/\\[\s\S]/g, ""))?.[0];
  return unread
    ? `"${clip(node.text)}" holds ${unread}, which bash expands but the checker cannot read there. Write it more simply.`
    : undefined;
}

/**
 * bash splits words only at blanks; the grammar also splits at a line continuation (`git\<newline>k`
 * is `gitk` to bash) or before a backtick (`np\`cat\`m`). Says so for the first pair it splits wrongly.
 */
export function wordsBashJoins(words: readonly Node[], source: string): string | undefined {
  for (const [i, word] of words.entries()) {
    const next = words[i + 1];
    if (!next) return undefined;
    const gap = source.slice(word.endIndex, next.startIndex).replaceAll("\\\n", "");
    if (!/[ \t\n]/.test(gap)) {
      return `The checker reads "${clip(word.text)}" and "${clip(next.text)}" as two words, bash as one. Write them as one word.`;
    }
  }
  return undefined;
}
