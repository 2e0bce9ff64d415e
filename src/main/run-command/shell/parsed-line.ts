import type { EvaluationText, RiskText } from "../../../shared/host-text";
/**
 * What the parser makes of a command line: the data model every check reads (policy, rules, the approval
 * card), kept apart from the parser itself so the walker and the rules can import it without a circle.
 */
import type { ShellWord } from "./shell-words";

export type { ShellWord } from "./shell-words";

/** Where a command sits in the line: run by the shell itself, or inside something that runs it. */
export type CommandContext =
  | "line"
  | "substitution"
  | "process-substitution"
  | "subshell"
  | "group"
  | "compound"
  | "function"
  | "wrapper";

/** One simple command the line would run. */
export interface ParsedCommand {
  /** Command name as the shell sees it after quote removal; "" if not a literal. */
  name: string;
  /** Literal args after quote removal; a non-literal arg keeps its source text. */
  args: string[];
  /** Source text of the command (for a wrapped command: from its name to its last argument). */
  text: string;
  /** `NAME=value` prefixes as written. */
  assignments: string[];
  /** True when the name and all args are plain literal words. */
  literal: boolean;
  /** Offset of the command's first character in the line. */
  start: number;
  /** Offset just past the command's last character. */
  end: number;
  /** The name word with its quoting facts. */
  nameWord: ShellWord;
  /** The argument words with their quoting facts, for checks that need more than strings. */
  argWords: ShellWord[];
  /** Where the command sits in the line. */
  context: CommandContext;
  /** The wrapper (`env`, `timeout`, ...) whose arguments this command is; absent when the shell runs it. */
  wrapper?: string;
}

/** What kind of construct a risk marks. */
export type ShellRiskKind =
  | "command-substitution"
  | "process-substitution"
  | "redirection"
  | "subshell"
  | "group"
  | "pipeline"
  | "list"
  | "newline"
  | "background"
  | "function"
  | "compound"
  | "assignment"
  | "expansion"
  | "arithmetic"
  | "evaluation"
  | "heredoc"
  | "eval"
  | "wrapper"
  | "comment"
  | "hidden-character"
  | "lookalike"
  | "parse-error";

/** A construct in the line a person should look at twice; the UI highlights these spans. */
export interface ShellRisk {
  /** What the construct is. */
  kind: ShellRiskKind;
  /** Its source text. */
  text: string;
  /** Offset of its first character in the line. */
  start: number;
  /** Offset just past its last character. */
  end: number;
  /** A sentence for a person saying why it matters. */
  note: string;
  /** The same, as a kind and parameters, for the page to word in its language. */
  say?: RiskText;
  /** For a construct a policy refuses: why, and what to write instead, completing `"<text>" ...`. */
  refusal?: string;
  /** The same, as a kind and parameters, for the page to word in its language. */
  refusalSay?: EvaluationText;
}

/** What a redirection does with the file or descriptor it names. */
export type RedirectKind = "write" | "read" | "read-write" | "duplicate" | "close" | "heredoc" | "herestring";

/** One redirection in the line. */
export interface ShellRedirect {
  /** The operator as written: `>`, `>>`, `2>&1`'s `>&`, `<<`, ... */
  operator: string;
  /** The file descriptor written before the operator, if any. */
  descriptor?: string;
  /** The file or descriptor it names; absent for heredocs and closes. */
  target?: ShellWord;
  /** What it does. */
  kind: RedirectKind;
  /** True for forms that touch no file: `2>&1`, `>&-`, `>/dev/null`, heredoc and here-string input. */
  harmless: boolean;
  /** Its source text. */
  text: string;
  /** Offset of its first character in the line. */
  start: number;
  /** Offset just past its last character. */
  end: number;
  /** For a heredoc: its delimiter and body as bash reads them. */
  heredoc?: ShellHeredoc;
}

/** A heredoc's delimiter and body, read as bash reads them (bash(1), "Here Documents"). */
export interface ShellHeredoc {
  /** The delimiter word after quote removal. */
  delimiter: string;
  /** True when any part of the delimiter is quoted (`<<'EOF'`, `<<"EOF"`, `<<\EOF`): the body is then plain text. */
  quoted: boolean;
  /** True for `<<-`: leading tabs are stripped from every body line and from the delimiter line. */
  stripTabs: boolean;
  /**
   * The body as the command reads it when `quoted` (tabs stripped for `<<-`, each line ending in a newline);
   * absent when the checker cannot tell exactly where bash ends it.
   */
  body?: string;
}

/** What joins a statement to the one before it at the top of the line. */
export type StatementJoint = "start" | "newline" | ";" | "&" | "&&" | "||" | "|" | "|&";

/** One statement at the top of the line, in the order bash runs them. */
export interface LineStatement {
  /** What joins it to the statement before: `start` for the first. */
  joint: StatementJoint;
  /** True when it runs in the background (an `&` after it, or after the list it belongs to). */
  background: boolean;
  /** The simple command it is; absent for anything else (a pipeline, subshell, group, loop, function, assignment, ...). */
  command?: ParsedCommand;
  /** The command's own redirections, in the order bash applies them. */
  redirects: ShellRedirect[];
  /** Offset of its first character in the line. */
  start: number;
  /** Offset just past its last character (before any heredoc body). */
  end: number;
}

/** Who sees a variable assignment. */
export type AssignmentScope = "prefix" | "env" | "export" | "shell" | "loop";

/** One variable assignment in the line: `X=1 cmd`, `X=1`, `export X=1`, `env X=1 cmd`, `for X in ...`. */
export interface ShellAssignment {
  /** The variable name as written (may include a subscript). */
  name: string;
  /** The value, when one is given. */
  value?: ShellWord;
  /** `prefix`/`env`/`export` reach child processes' environments; `shell`/`loop` set a shell variable. */
  scope: AssignmentScope;
  /** Its source text. */
  text: string;
  /** Offset of its first character in the line. */
  start: number;
  /** Offset just past its last character. */
  end: number;
}

/** A command line as the shell would read it, reduced to what a policy or a person needs to judge it. */
export interface ParsedCommandLine {
  /** The line as given. */
  source: string;
  /** Every simple command, including nested ones (substitutions, subshells, unwrapped wrappers), in order. */
  commands: ParsedCommand[];
  /** Constructs to look at twice, in order of position. */
  risks: ShellRisk[];
  /** Every redirection, harmless ones included. */
  redirects: ShellRedirect[];
  /** Every variable assignment. */
  assignments: ShellAssignment[];
  /** The top-level statements in order; nested commands are only in `commands`. Empty when the line does not parse. */
  statements: LineStatement[];
  /**
   * True only for one or more plain literal commands joined by nothing but `&&`, `||`, `;` or `|`
   * (descriptor duplications like `2>&1` and `>/dev/null` allowed): what an "always allow" rule may be offered for.
   */
  plain: boolean;
  /** True when the line spans more than one line of text (a trailing newline does not count). */
  multiline: boolean;
  /** Set when the parser could not reduce the line; a policy must refuse it. */
  error?: string;
}
