// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these strings hold shell source, where ${...} is bash, not a template
import type { EvaluationText } from "../../../shared/host-text";

const ARITHMETIC = "evaluates variables as arithmetic, where a value such as a[$(cmd)] runs cmd";
const NAME_LOOKUP = "where a name such as a[$(cmd)] runs cmd";

/** What to write instead of each arithmetic context, by the grammar's node that makes it one. */
const ARITHMETIC_INSTEAD: Record<string, string> = {
  arithmetic_expansion: "write only literal numbers inside $((...))",
  command_substitution: "write only literal numbers inside $((...))",
  compound_statement: 'compare with [ "$x" -eq 1 ], which does not evaluate the value',
  c_style_for_statement: "loop over a list instead: for i in 1 2 3",
  subscript: 'use a literal index (${a[0]}) or every element ("${a[@]}")',
  expansion: "use literal offsets (${x:1:2})",
  binary_expression: 'use [ "$x" -eq 1 ], which compares numbers without evaluating them',
};

/** Where bash would evaluate a variable's text as code, and what to write instead; empty for an unknown kind. */
export function evaluationTextEn(say: EvaluationText): string {
  switch (say.id) {
    case "arithmetic":
      if (say.context === undefined) return ARITHMETIC;
      return ARITHMETIC_INSTEAD[say.context] === undefined
        ? ""
        : `${ARITHMETIC}; ${ARITHMETIC_INSTEAD[say.context]}`;
    case "array-element":
      return `sets the element ${say.element}, whose subscript bash evaluates as arithmetic, ${NAME_LOOKUP}; use literal indices ([0]=x) or a plain list (x y)`;
    case "name-subscript":
      return `looks a variable up by a name whose subscript bash evaluates as code, ${NAME_LOOKUP}; test the value instead: [ -n "\${x+set}" ]`;
    case "prompt-transform":
      return `expands ${say.name} as a prompt string, which runs any $(...) or backquote in its value; ${writeInstead(say.name)}`;
    case "transform":
      return `applies @${say.operator}, a transformation not known to be safe; ${writeInstead(say.name)}`;
    case "indirection":
      return `uses the value of ${say.name} as the name of another variable, ${NAME_LOOKUP}; name that variable directly ("\${name}")`;
    case "rereads":
      return `${say.keyword} re-reads a value that starts with ( as an array assignment, which runs any $(...) in it; assign without ${say.keyword} (name="$x"), or write the array unquoted: name=(a b)`;
    default:
      return "";
  }
}

function writeInstead(name: string): string {
  return `write "\${${name}}" (or \${${name}@Q} to quote it) instead`;
}
