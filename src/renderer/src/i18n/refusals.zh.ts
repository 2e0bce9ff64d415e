import type {
  EditRefusalText,
  HostEntryProblem,
  PolicyProblem,
  RefusalText,
} from "../../../shared/host-text";
import { DOES_ZH } from "./arguments.zh";
import { evaluationTextZh } from "./evaluations.zh";
import { UNCHECKED } from "./risks.zh";

/** 每种被拒绝的结构做什么，接在它的文本之后。 */
const CONSTRUCT: Record<Extract<PolicyProblem, { id: "construct" }>["kind"], string> = {
  background: "会在后台运行命令，它会比这次运行及其时间限制活得更久",
  function: "定义了一个 shell 函数：一个会运行其他命令的新名字",
  arithmetic: "把变量当作算术表达式求值，像 a[$(cmd)] 这样的值会运行 cmd",
  evaluation: "把变量里的文本当作 shell 代码求值",
};

/** 一行命令中被拒绝的一部分；本页不认识的种类返回空字符串。 */
function problemZh(problem: PolicyProblem): string {
  switch (problem.id) {
    case "not-allowed":
      return `“${problem.name}”不在允许列表中`;
    case "path-name":
      return `“${problem.name}”是一个路径；只有在 PATH 上查找的允许名字才能运行`;
    case "dynamic-name":
      return `命令名 ${problem.text} 要到运行时才知道`;
    case "empty-name":
      return "空的命令名无法检查";
    case "not-found":
      return `在 PATH 上找不到“${problem.name}”`;
    case "in-workspace":
      return `“${problem.name}”解析到工作区内的 ${problem.path}，智能体可以修改它`;
    case "relative-entry":
      return `PATH 含有相对路径“${problem.entry}”，而这一行会切换目录，所以“${problem.name}”可能解析到任何文件`;
    case "unchecked":
      return UNCHECKED[problem.group] === undefined ? "" : `“${problem.name}”${UNCHECKED[problem.group]}`;
    case "unreadable-argument":
      return `“${problem.name}”的参数 ${problem.text} ${problem.dynamic ? "要到运行时才知道" : "会展开成文件名"}，所以无法检查它的选项`;
    case "redirect-dynamic-read":
      return `重定向“${problem.text}”读取的文件要到运行时才知道`;
    case "redirect-network":
      return `重定向“${problem.text}”会打开网络连接`;
    case "redirect-write":
      return `重定向“${problem.text}”会写入文件（只允许 2>&1 和 >/dev/null）`;
    case "redirect-open":
      return `重定向“${problem.text}”会以写入方式打开文件`;
    case "construct": {
      const why = problem.refusal ? evaluationTextZh(problem.refusal) : CONSTRUCT[problem.kind];
      return why ? `“${problem.text}”${why}` : "";
    }
    case "wrapper-argument":
      return `${problem.name} 的参数 ${problem.text} 不是纯文本`;
    case "wrapper-option":
      return `${problem.name} 的选项 ${problem.option} 不是策略认识的选项，所以无法判断哪个参数是要运行的命令`;
    case "wrapper-refused":
      return WRAPPER[problem.does] === undefined
        ? ""
        : `${problem.name} ${problem.option} ${WRAPPER[problem.does]}`;
    case "names-element":
      return `“${problem.name}”会指定数组元素 ${problem.element}，bash 会把它的下标当作代码求值`;
    case "callback":
      return `${problem.name} -C 会把回调当作 shell 代码运行；请不带 -C 读取这些行`;
    case "shell-option": {
      const safe =
        problem.letters !== undefined
          ? `-${problem.letters} 和 -o ${problem.options.join("/")}`
          : problem.options.join("、");
      return `${problem.name} ${problem.option} 会改变 shell 读取或运行后面命令的方式（这里只能修改 ${safe}）`;
    }
    case "argument":
      return DOES_ZH[problem.does] === undefined
        ? ""
        : `${problem.name} ${problem.argument} ${DOES_ZH[problem.does]}`;
    case "shell-variable":
      return `设置 shell 变量 ${problem.name} 可能改变后面的命令运行什么（请用小写名字）`;
    case "environment-variable":
      return `在命令的环境中设置 ${problem.name} 可能改变它运行什么（只能设置 ${problem.safe.join("、")}）`;
    case "dynamic-value":
      return `${problem.name} 的值（${problem.text}）要到运行时才知道`;
    case "sets-variable":
      return `${problem.builtin} 会设置变量 ${problem.name}，这可能改变后面的命令运行什么`;
    case "declares-variable":
      return `${problem.builtin} 会改变变量 ${problem.name}，这可能改变后面的命令运行什么（${problem.safe ? `只能导出 ${problem.safe.join("、")}` : "请用小写名字"}）`;
    default:
      return "";
  }
}

/** 包装命令被拒绝的选项做什么，接在“包装命令 选项”之后。 */
const WRAPPER: Record<Extract<PolicyProblem, { id: "wrapper-refused" }>["does"], string> = {
  "split-string": "会把一个字符串拆成命令行，策略无法检查",
  "other-path": "会在另一个 PATH 上查找命令",
  "writes-report": "会把报告写入允许列表未涵盖的文件",
  "running-processes": "会作用于正在运行的进程",
};

const TURN_SANDBOX_OFF = "如果要不经沙盒运行命令，请在设置中为这个工作区关闭沙盒。";

/** run_command 拒绝命令的原因；本页不认识的种类返回空字符串。 */
export function refusalTextZh(say: RefusalText): string {
  switch (say.id) {
    case "policy": {
      const problems = say.problems.map(problemZh);
      if (problems.includes("")) return "";
      return `命令策略拒绝了它：${problems.join("；")}（允许的命令：${say.allowed.join("、")}）。请让用户来运行它，或改用允许的命令。`;
    }
    case "empty-command":
      return "命令是空的。请给出要运行的 shell 命令。";
    case "invalid-timeout":
      return `无效的超时时间：${say.given}。请给出大于 0 的秒数（最多 ${say.maxSeconds}），或不填以使用默认的 ${say.defaultSeconds} 秒。`;
    case "no-sandbox":
      return `命令设置为在沙盒中运行，但 Pi Desk 没有适用于 ${say.platform} 的沙盒，所以命令没有运行。${TURN_SANDBOX_OFF}`;
    case "no-sandbox-exec":
      return `命令设置为在沙盒中运行，但缺少 ${say.path}，所以命令没有运行。${TURN_SANDBOX_OFF}`;
    case "no-bubblewrap":
      return (
        "命令设置为在沙盒中运行，但 bubblewrap（bwrap）没有安装或不在 PATH 上，所以命令没有运行。" +
        "请安装 bubblewrap（Debian/Ubuntu：apt install bubblewrap；Fedora：dnf install bubblewrap；Arch：pacman -S bubblewrap），" +
        "或在设置中为这个工作区关闭沙盒。"
      );
    case "background-full":
      return `后台已经运行着 ${say.running} 条命令，这是本工作区允许的上限。请先停止一条（用 stop_command 加它的 id），或在前台运行这一条。`;
    case "background-unavailable":
      return "这里不能使用后台命令；请不带 background: true 运行它。";
    case "asked-hosts-too-many":
      return `network 列出了 ${say.count} 个主机；一次最多请求 ${say.max} 个。`;
    case "hosts-invalid": {
      const problems = say.problems.map(hostProblemZh);
      if (problems.includes("")) return "";
      const listed = problems.join("");
      if (say.whose === "asked") return `network 中请求的主机无效：${listed}`;
      if (say.whose === "granted") return `为这条命令允许的主机无效：${listed}`;
      return `工作区允许的主机无效，所以命令没有运行：${listed}请在设置中修正。`;
    }
    case "forwarder-failed":
      return `沙盒的网络转发程序没有启动，所以命令没有运行：${say.said} 请关闭网络运行它，或在设置中为这个工作区关闭沙盒。`;
    default:
      return "";
  }
}

/** 一个允许主机条目为什么无效；本页不认识的类型返回空字符串。 */
export function hostProblemZh(problem: HostEntryProblem): string {
  if (problem.id === "empty") return "有一个允许的主机是空的：请写主机名，例如 registry.npmjs.org。";
  const why = HOST_PROBLEM[problem.id]?.(problem as never);
  return why === undefined ? "" : `“${problem.entry}”不能作为允许的主机：${why}`;
}

/** 条目的问题，接在“……不能作为允许的主机：”之后。 */
const HOST_PROBLEM: {
  [K in Exclude<HostEntryProblem["id"], "empty">]: (problem: Extract<HostEntryProblem, { id: K }>) => string;
} = {
  characters: () => "它含有空格或非 ASCII 字符。国际化域名请写成 xn-- 形式。",
  percent: () => "它经过了百分号编码。请直接写名称本身。",
  url: () => "只写主机名（registry.npmjs.org），不要写 URL。",
  address: () => "它是 IP 地址。规则按主机名匹配：请写工具连接时使用的名称。",
  port: () => "端口必须是 1 到 65535 之间的数字。",
  "trailing-dot": (p) => `去掉末尾的点：“${p.name}”已经包含它。`,
  wildcard: () => "通配符只能以 *. 的形式放在域名前面（*.githubusercontent.com）。",
  name: (p) => `它不是有效的主机名（字母、数字、连字符和点，最多 ${p.maxLength} 个字符）。`,
  "public-suffix": (p) => `*.${p.suffix} 会允许公共后缀 ${p.suffix} 下的所有网站。请改为列出具体主机。`,
};

/** 编辑上限，如 `2 MiB（2,097,152 字节）`。 */
function limitZh(bytes: number): string {
  return `${bytes / (1024 * 1024)} MiB（${bytesZh(bytes)}）`;
}

function bytesZh(bytes: number): string {
  return `${bytes.toLocaleString("en")} 字节`;
}

/** 目标违反的每条规则，接在“它”之后。 */
const TARGET: Record<Extract<EditRefusalText, { id: "target" }>["why"], string> = {
  "dangling-link": "经由一个指向不存在位置的符号链接",
  outside: "在工作区之外",
  private: "位于 Pi Desk 保密的文件夹中",
  "workspace-itself": "就是工作区文件夹本身",
  git: "位于 .git 文件夹中（git 自己的数据）",
};

/** 编辑被拒绝或失败的原因；本页不认识的种类返回空字符串。 */
export function editRefusalTextZh(say: EditRefusalText): string {
  switch (say.id) {
    case "target":
      return TARGET[say.why] === undefined
        ? ""
        : `Pi Desk 不允许智能体编辑 ${say.asked}：它${TARGET[say.why]}。只能编辑工作区（${say.root}）内的文件；其他文件请让用户处理。`;
    case "too-large":
      return `${say.path} 的新内容有 ${bytesZh(say.bytes)}，超过了一次编辑可写入的 ${limitZh(say.limitBytes)}。大文件或生成的文件请用经用户批准的命令来写。`;
    case "nul-bytes":
      return `${say.path} 的新内容含有 NUL 字节：编辑只写文本文件。`;
    case "persons-version":
      return `为 ${say.path} 提供的版本超过 ${limitZh(say.limitBytes)} 或含有 NUL 字节；没有写入任何内容。`;
    case "changed-on-disk":
      return `在编辑等待用户期间，${say.path} 在磁盘上被改动了（另一条命令，或用户的编辑器）；没有写入任何内容，所以没有丢失改动。请重新读取文件，再提出编辑。`;
    case "binary":
      return `${say.path} 是二进制文件（或不是 UTF-8 文本）：edit 和 write 只修改文本文件。请用经用户批准的命令。`;
    case "cancelled":
      return "在应用编辑之前这一轮已被停止；没有写入任何内容。";
    case "denied":
      return `用户拒绝了对 ${say.path} 的这次编辑；没有写入任何内容。${say.why ? `用户的理由：${say.why}` : ""}`;
    default:
      return "";
  }
}
