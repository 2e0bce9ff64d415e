import type { RiskText } from "../../../shared/host-text";

/** 只取决于结构种类的说明。 */
const FIXED: Record<string, string> = {
  arithmetic: "把变量当作算术表达式求值：像 a[$(cmd)] 这样的值会运行 cmd。",
  evaluation: "把变量里的文本当作 shell 代码求值：像 $(cmd) 这样的值会运行 cmd。",
  "command-substitution": "运行括号里的命令，并在此处使用它的输出。",
  "process-substitution": "运行括号里的命令，并把它接到一个临时文件上。",
  subshell: "在子 shell 中运行这些命令；每一条都会检查。",
  group: "运行这一组命令；每一条都会检查。",
  function: "定义一个 shell 函数：一个会运行其他命令的新名字。",
  expansion: "运行时才知道的值会替换这里。",
  comment: "注释：shell 会忽略它，它说明不了实际运行什么。",
  newline: "换行开始另一条命令；每一条都会检查。",
  pipeline: "把这条命令的输出送进下一条命令。",
  list: "在这条命令之后再运行另一条命令。",
  background: "在后台运行命令，它可能比这次运行活得更久。",
};

const REDIRECT: Record<string, string> = {
  write: "把命令的输出写入文件。",
  read: "从文件读取命令的输入。",
  "read-write": "以读写方式打开文件。",
  duplicate: "把一个输出流复制到另一个上。",
  close: "关闭一个流。",
  heredoc: "把后面的几行作为命令的输入。",
  herestring: "把这段文本作为命令的输入。",
};

/** 每组无法检查的命令做什么，接在“名字”之后（拒绝原因也用它）。 */
export const UNCHECKED: Record<string, string> = {
  "shell-code": "会把参数当作 shell 代码运行，或绕过 shell 的命令查找",
  "shell-meaning": "会改变名字或信号对 shell 的含义，或稍后运行代码",
  shell: "是一个 shell：它运行的脚本或命令字符串无法被策略检查",
  "built-command": "会运行由输入或参数拼出的命令，策略无法检查",
  "not-unwrapped": "会运行一条策略不会拆开检查的命令",
  "other-user": "会以其他用户或在另一个根目录中运行命令，策略不允许这样做",
  "package-runner": "会运行它指定的任意包程序（可能要下载）；请改用 npm 脚本",
};

/** 按种类和参数写出的风险说明；本页不认识的种类返回空字符串。 */
export function riskTextZh(say: RiskText): string {
  switch (say.id) {
    case "fixed":
      return FIXED[say.kind] ?? "";
    case "redirect":
      return REDIRECT[say.kind] ?? "";
    case "list-operator":
      return `“${say.operator}”会根据这条命令的结果决定是否运行下一条。`;
    case "pattern":
      return "shell 运行时才展开的模式（通配符、花括号或 ~）。";
    case "integer":
      return "把变量设为整数：赋给它们的每个值都会按算术表达式求值。";
    case "compound":
      return `“${say.keyword}”语句：其中的命令可能运行很多次，也可能一次都不运行。`;
    case "lookalike":
      return `名字“${say.name}”含有 ASCII 以外的字符：它可能看起来像另一个名字。`;
    case "unchecked":
      return UNCHECKED[say.group] === undefined ? "" : `“${say.name}”${UNCHECKED[say.group]}。`;
    case "runs-next":
      return `“${say.name}”会运行它后面的命令：${say.inner}。`;
    case "assignment":
      return `在${say.reach === "shell" ? " shell " : "命令的环境"}中设置变量 ${say.name}。`;
    case "unreadable":
      return "shell 语法无法读懂这一部分。";
    case "misread":
      return "bash 会把这个字符当作词的一部分，而检查器读不出来：请给这个词加上引号。";
    case "hidden-character":
      return "不可见或改变文字方向的字符：这一行实际运行的可能和看上去不同。";
  }
}
