// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these strings are shell source, where ${...} is bash, not a template
import type { Node } from "web-tree-sitter";
import type { EvaluationText, PolicyProblem } from "../../../shared/host-text";
import { evaluatesVariablesAsArithmetic } from "./shell-grammar";
import { readWord, type ShellWord } from "./shell-words";

/*
 * Where bash evaluates text that came from a variable or an argument as code, although the line shows
 * no `$(`: a value that reaches one of these runs whatever command it names. The walker marks each place
 * as a risk a policy refuses; the safe forms around them (plain `$x`, `${x:-default}`, `${#x}`, literal
 * numbers and indices) stay allowed. Each refusal says what to write instead.
 */

/** A place where bash would evaluate text as code. */
export interface Evaluation {
  /** `arithmetic` for arithmetic contexts, `evaluation` for the other ways. */
  kind: "arithmetic" | "evaluation";
  /** Why, and what to write instead; completes `"<construct>" ...`. */
  refusal: string;
  /** The same, as a kind and parameters, for the page to word. */
  say: EvaluationText;
}

/** A refusal phrase with its page wording. */
interface Said {
  text: string;
  say: EvaluationText;
}

const ARITHMETIC = "evaluates variables as arithmetic, where a value such as a[$(cmd)] runs cmd";
const NAME_LOOKUP = "where a name such as a[$(cmd)] runs cmd";

/** What to write instead of each arithmetic context, by the node that makes it one. */
const ARITHMETIC_INSTEAD: Record<string, string> = {
  arithmetic_expansion: "write only literal numbers inside $((...))",
  command_substitution: "write only literal numbers inside $((...))",
  compound_statement: 'compare with [ "$x" -eq 1 ], which does not evaluate the value',
  c_style_for_statement: "loop over a list instead: for i in 1 2 3",
  subscript: 'use a literal index (${a[0]}) or every element ("${a[@]}")',
  expansion: "use literal offsets (${x:1:2})",
  binary_expression: 'use [ "$x" -eq 1 ], which compares numbers without evaluating them',
};

/**
 * `${x@op}` transformations that only rearrange or quote the value (bash's `parameter_transform`):
 * quote (Q), escapes as in $'...' (E), an assignment statement (A), key-value pairs (K, k), attribute
 * letters (a), case (U, u, L). `@P` expands the value as a prompt string, which runs `$(...)` in it.
 */
const SAFE_TRANSFORMS = new Set(["Q", "E", "A", "K", "k", "a", "U", "u", "L"]);

/** Says whether, and why, bash evaluates text as code at `node`; undefined when it does not. */
export function evaluationAt(node: Node): Evaluation | undefined {
  if (node.type === "expansion") {
    const found = transformation(node) ?? indirection(node);
    if (found) return { kind: "evaluation", refusal: found.text, say: found.say };
  }
  if (node.type === "array") {
    const element = node.namedChildren.find(
      (child) => child?.text.startsWith("[") && !/^\[\d+\]\+?=/.test(child.text),
    );
    if (element) {
      return {
        kind: "arithmetic",
        refusal: `sets the element ${element.text}, whose subscript bash evaluates as arithmetic, ${NAME_LOOKUP}; use literal indices ([0]=x) or a plain list (x y)`,
        say: { id: "array-element", element: element.text },
      };
    }
  }
  if (!evaluatesVariablesAsArithmetic(node)) return undefined;
  if (node.type === "unary_expression") {
    return {
      kind: "arithmetic",
      refusal: `looks a variable up by a name whose subscript bash evaluates as code, ${NAME_LOOKUP}; test the value instead: [ -n "\${x+set}" ]`,
      say: { id: "name-subscript" },
    };
  }
  const instead = ARITHMETIC_INSTEAD[node.type];
  return {
    kind: "arithmetic",
    refusal: instead ? `${ARITHMETIC}; ${instead}` : ARITHMETIC,
    say: instead ? { id: "arithmetic", context: node.type } : { id: "arithmetic" },
  };
}

/** `${x@P}` and any transformation not known to be safe. */
function transformation(node: Node): Said | undefined {
  const children = node.children;
  const at = children.findIndex((child) => child?.type === "@");
  const operator = at >= 0 ? children[at + 1]?.type : undefined;
  if (operator === undefined || operator === "}" || SAFE_TRANSFORMS.has(operator)) return undefined;
  const name = variableOf(node);
  const what =
    operator === "P"
      ? `expands ${name} as a prompt string, which runs any $(...) or backquote in its value`
      : `applies @${operator}, a transformation not known to be safe`;
  return {
    text: `${what}; write "\${${name}}" (or \${${name}@Q} to quote it) instead`,
    say: operator === "P" ? { id: "prompt-transform", name } : { id: "transform", operator, name },
  };
}

/**
 * `${!x}` reads the variable named by x's value, and a name with a subscript is evaluated as
 * arithmetic. `${!prefix@}`, `${!prefix*}` (names starting with prefix) and `${!a[@]}`, `${!a[*]}`
 * (an array's keys) only list names, so they pass.
 */
function indirection(node: Node): Said | undefined {
  if (!node.children.some((child) => child?.type === "!")) return undefined;
  const types = node.children.map((child) => child?.type);
  const listsNames =
    types.length === 5 && types[1] === "!" && types[2] === "variable_name" && /^[@*]$/.test(types[3] ?? "");
  const target = node.children[2];
  const listsKeys =
    types.length === 4 &&
    types[1] === "!" &&
    target?.type === "subscript" &&
    /^[@*]$/.test(target.childForFieldName("index")?.text ?? "");
  if (listsNames || listsKeys) return undefined;
  const name = variableOf(node);
  return {
    text: `uses the value of ${name} as the name of another variable, ${NAME_LOOKUP}; name that variable directly ("\${name}")`,
    say: { id: "indirection", name },
  };
}

function variableOf(node: Node): string {
  const variable = node.namedChildren.find(
    (child) =>
      child?.type === "variable_name" ||
      child?.type === "special_variable_name" ||
      child?.type === "subscript",
  );
  return variable?.text ?? "the variable";
}

/** The variable `${name=word}` or `${name:=word}` assigns when it is unset or empty; undefined for other forms. */
export function assignedByExpansion(node: Node): string | undefined {
  if (node.type !== "expansion") return undefined;
  if (!node.children.some((child) => child?.type === "=" || child?.type === ":=")) return undefined;
  return node.children[1]?.text;
}

/**
 * `{name}>&1` makes bash store a new file descriptor's number in `name` (`{PATH}>&1` sets PATH to
 * `10`, a folder in the workspace). The grammar reads `{name}` as an ordinary word before the
 * redirection; returns the name and where `{name}` is when the text right before a redirection is one.
 */
export function redirectVariable(
  source: string,
  redirectStart: number,
): { name: string; text: string; startIndex: number; endIndex: number } | undefined {
  const match = /(?:^|[\s;&|()])(\{([A-Za-z_][^\s{}]*)\})$/.exec(source.slice(0, redirectStart));
  if (!match) return undefined;
  const [, text = "", name = ""] = match;
  return { name, text, startIndex: redirectStart - text.length, endIndex: redirectStart };
}

/** Declaration builtins that re-read a value starting with `(` as an array assignment when the variable is an array. */
const REREADING_DECLARATIONS = new Set(["declare", "typeset", "local", "readonly"]);

/** What one argument of a declaration builtin (`declare`, `export`, `local`, ...) does besides what the grammar shows. */
export interface DeclarationArgument {
  /** `declare 'PATH=.'` assigns like `declare PATH=.`, though the grammar reads a plain word. */
  assigns?: { name: string; value: ShellWord };
  /** Set when the builtin would re-read the value as code; why, and what to write instead. */
  rereads?: string;
}

/**
 * Reads a declaration's argument. `declare -a a="$x"` (or `a='(...)'`, or any `a` that is already an
 * array) re-reads the value as `a=(...)`, expanding it again, so a value `($(cmd))` runs cmd; only an
 * array written unquoted in the line, or literal text not starting with `(`, is read once.
 */
export function declarationArgument(keyword: string, node: Node): DeclarationArgument {
  let value: ShellWord | undefined;
  let assigns: DeclarationArgument["assigns"];
  if (node.type === "variable_assignment") {
    const valueNode = node.childForFieldName("value");
    if (valueNode && valueNode.type !== "array") value = readWord(valueNode);
  } else {
    const word = readWord(node);
    const equals = word.value.indexOf("=");
    if (word.literal && equals > 0 && !/^[-+]/.test(word.value)) {
      const text = word.value.slice(equals + 1);
      value = { ...word, text, value: text };
      assigns = { name: word.value.slice(0, equals).replace(/\+$/, ""), value };
    }
  }
  const rereads =
    value && REREADING_DECLARATIONS.has(keyword) && !(value.literal && !value.value.startsWith("("))
      ? `${keyword} re-reads a value that starts with ( as an array assignment, which runs any $(...) in it; assign without ${keyword} (name="$x"), or write the array unquoted: name=(a b)`
      : undefined;
  return { ...(assigns ? { assigns } : {}), ...(rereads ? { rereads } : {}) };
}

/** Options of `mapfile`/`readarray` that take a value (attached, `-n5`, or as the next argument). */
const MAPFILE_VALUED = "dnOsuCc";

/** Whether `mapfile -C callback` is asked: it evaluates the callback as shell code every few lines; bundled (`-tC'cmd'`) too. */
export function mapfileCallback(args: readonly string[]): boolean {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === "--" || !arg.startsWith("-")) return false;
    for (let j = 1; j < arg.length; j++) {
      const letter = arg[j] as string;
      if (letter === "C") return true;
      if (MAPFILE_VALUED.includes(letter)) {
        if (j === arg.length - 1) i++;
        break;
      }
    }
  }
  return false;
}

/** `set` options that change nothing about which commands run or how later words are read. */
const SAFE_SET_LETTERS = "euxfCvn";
const SAFE_SET_OPTIONS = new Set([
  "errexit",
  "nounset",
  "xtrace",
  "noglob",
  "noclobber",
  "verbose",
  "pipefail",
]);
/** `shopt` options that only change globbing, matching or echo. */
// biome-ignore format: a word list reads better packed
const SAFE_SHOPT_OPTIONS = new Set([
  "nullglob", "failglob", "globstar", "extglob", "dotglob", "nocaseglob", "nocasematch", "globasciiranges",
  "lastpipe", "inherit_errexit", "xpg_echo",
]);

/**
 * `set -k` turns later arguments such as `PATH=.` into assignments; `set -a` exports every variable
 * set after it; `shopt -s expand_aliases` or a `compat` level changes how later lines are read. Only
 * options known to be harmless may be set or unset.
 */
export function shellOptionProblem(
  name: "set" | "shopt",
  args: readonly string[],
): Extract<PolicyProblem, { id: "shell-option" }> | undefined {
  const option = name === "set" ? refusedSetOption(args) : refusedShoptOption(args);
  if (option === undefined) return undefined;
  return name === "set"
    ? { id: "shell-option", name, option, letters: SAFE_SET_LETTERS, options: [...SAFE_SET_OPTIONS] }
    : { id: "shell-option", name, option, options: [...SAFE_SHOPT_OPTIONS] };
}

/** The English phrase of a `set`/`shopt` refusal. */
export function shellOptionText(problem: Extract<PolicyProblem, { id: "shell-option" }>): string {
  const safe =
    problem.letters !== undefined
      ? `-${problem.letters} and -o ${problem.options.join("/")}`
      : problem.options.join(", ");
  return `${problem.name} ${problem.option} changes how the shell reads or runs later commands (only ${safe} may be changed here)`;
}

function refusedSetOption(args: readonly string[]): string | undefined {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    // `set --`, `set -` and the first word that is not an option start the positional parameters.
    if (arg === "--" || arg === "-" || !/^[-+]/.test(arg)) return undefined;
    for (const letter of arg.slice(1)) {
      if (letter === "o") {
        const option = args[++i];
        if (option !== undefined && !SAFE_SET_OPTIONS.has(option)) return `${arg[0]}o ${option}`;
      } else if (!SAFE_SET_LETTERS.includes(letter)) return `${arg[0]}${letter}`;
    }
  }
  return undefined;
}

function refusedShoptOption(args: readonly string[]): string | undefined {
  const flags = args.filter((arg) => arg.startsWith("-")).join("");
  // `shopt`, `shopt -p` and `shopt -q name` only print or test.
  if (!/[su]/.test(flags)) return undefined;
  const safe = flags.includes("o") ? SAFE_SET_OPTIONS : SAFE_SHOPT_OPTIONS;
  const option = args.find((arg) => !arg.startsWith("-") && !safe.has(arg));
  return option === undefined ? undefined : `${flags.includes("s") ? "-s" : "-u"} ${option}`;
}
