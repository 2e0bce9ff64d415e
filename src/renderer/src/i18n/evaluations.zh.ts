// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these strings hold shell source, where ${...} is bash, not a template
import type { EvaluationText } from "../../../shared/host-text";

const ARITHMETIC = "会把变量当作算术表达式求值，像 a[$(cmd)] 这样的值会运行 cmd";
const NAME_LOOKUP = "像 a[$(cmd)] 这样的名字会运行 cmd";

/** 每种算术上下文应改写成什么，按使它成为算术上下文的语法节点索引。 */
const ARITHMETIC_INSTEAD: Record<string, string> = {
  arithmetic_expansion: "在 $((...)) 里只写字面数字",
  command_substitution: "在 $((...)) 里只写字面数字",
  compound_statement: '改用 [ "$x" -eq 1 ] 比较，它不会对值求值',
  c_style_for_statement: "改为遍历一个列表：for i in 1 2 3",
  subscript: '使用字面下标（${a[0]}）或全部元素（"${a[@]}"）',
  expansion: "使用字面偏移量（${x:1:2}）",
  binary_expression: '改用 [ "$x" -eq 1 ]，它比较数字而不对值求值',
};

/** bash 会把变量的文本当作代码求值的地方，以及应改写成什么；不认识的种类返回空字符串。 */
export function evaluationTextZh(say: EvaluationText): string {
  switch (say.id) {
    case "arithmetic":
      if (say.context === undefined) return ARITHMETIC;
      return ARITHMETIC_INSTEAD[say.context] === undefined
        ? ""
        : `${ARITHMETIC}；${ARITHMETIC_INSTEAD[say.context]}`;
    case "array-element":
      return `设置了元素 ${say.element}，bash 会把它的下标当作算术表达式求值，${NAME_LOOKUP}；请使用字面下标（[0]=x）或普通列表（x y）`;
    case "name-subscript":
      return `按名字查找变量，而 bash 会把名字里的下标当作代码求值，${NAME_LOOKUP}；请改为测试值：[ -n "\${x+set}" ]`;
    case "prompt-transform":
      return `把 ${say.name} 当作提示符字符串展开，会运行值里的任何 $(...) 或反引号；${writeInstead(say.name)}`;
    case "transform":
      return `使用了 @${say.operator}，这种变换不确定是否安全；${writeInstead(say.name)}`;
    case "indirection":
      return `把 ${say.name} 的值当作另一个变量的名字，${NAME_LOOKUP}；请直接写那个变量（"\${name}"）`;
    case "rereads":
      return `${say.keyword} 会把以 ( 开头的值重新当作数组赋值读取，并运行其中的任何 $(...)；请不用 ${say.keyword} 赋值（name="$x"），或不加引号地写出数组：name=(a b)`;
    default:
      return "";
  }
}

function writeInstead(name: string): string {
  return `请改写为 "\${${name}}"（或用 \${${name}@Q} 加引号）`;
}
