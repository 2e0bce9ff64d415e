import type { ParsedCommand, ShellAssignment } from "../shell/parsed-line";
import { type Problem, said } from "./policy-problem";

/**
 * Variables a line may put in a command's environment. Everything else is refused under an allowlist:
 * the list of variables that change what runs is long and open (PATH, LD_PRELOAD, DYLD_*, BASH_ENV, ENV,
 * IFS, PS4, PROMPT_COMMAND, NODE_OPTIONS, npm_config_script_shell, GIT_SSH_COMMAND, GIT_EXEC_PATH,
 * PAGER, EDITOR, LESSOPEN, ...), so the safe ones are named instead.
 */
export const SAFE_ENVIRONMENT_VARIABLES: ReadonlySet<string> = new Set([
  "CI",
  "NODE_ENV",
  "FORCE_COLOR",
  "NO_COLOR",
  "TZ",
  "LANG",
  "LC_ALL",
  "COLUMNS",
  "DEBUG",
]);

/**
 * A shell variable the line may set (`x=1`, `for f in ...`, `read line`). Upper-case names are the
 * shell's and the environment's (PATH, IFS, BASH_ENV, ...); a few lower-case ones are read from the
 * environment by tools (npm_config_*, http_proxy) and reach them when already exported.
 */
export function isSafeShellVariable(name: string): boolean {
  return /^[a-z_][a-z0-9_]*$/.test(name) && !/^(npm_|yarn_|pnpm_)|proxy$/.test(name);
}

/** Why an assignment may not run under an allowlist; undefined when it may. */
export function assignmentProblem(assignment: ShellAssignment): Problem | undefined {
  const { name, scope, value } = assignment;
  if (scope === "shell" || scope === "loop") {
    if (isSafeShellVariable(name)) return undefined;
    return said(
      `setting the shell variable ${name} can change what later commands run (use a lower-case name)`,
      { id: "shell-variable", name },
    );
  }
  if (!SAFE_ENVIRONMENT_VARIABLES.has(name)) {
    const safe = [...SAFE_ENVIRONMENT_VARIABLES];
    return said(
      `setting ${name} in a command's environment can change what it runs (only ${safe.join(", ")} may be set)`,
      { id: "environment-variable", name, safe },
    );
  }
  if (value && !value.literal)
    return said(`the value of ${name} (${value.text}) is only known when the line runs`, {
      id: "dynamic-value",
      name,
      text: value.text,
    });
  return undefined;
}

/** Builtins whose arguments name variables to set (`wait -p name` stores a process id). */
export const VARIABLE_SETTERS: ReadonlySet<string> = new Set([
  "read",
  "mapfile",
  "readarray",
  "getopts",
  "printf",
  "wait",
]);

/**
 * Builtins that declare, export or remove the variables they name. A bare name matters too:
 * `unset PATH` and `declare -a PATH` make bash look commands up in the working directory.
 */
const DECLARERS: ReadonlySet<string> = new Set([
  "export",
  "declare",
  "typeset",
  "local",
  "readonly",
  "unset",
]);

/**
 * Why a variable-setting builtin may not run: `read PATH`, `printf -v PATH /tmp` change how later
 * commands resolve. Every argument shaped like a variable name is taken as one, so a prompt text
 * such as `read -p Name x` may be refused too: better than missing one.
 */
export function variableTargetProblem(command: ParsedCommand): Problem | undefined {
  if (DECLARERS.has(command.name)) return declaredNameProblem(command.name, command.args);
  if (!VARIABLE_SETTERS.has(command.name)) return undefined;
  const { args } = command;
  let targets: string[];
  if (command.name === "printf") {
    const index = args.findIndex((arg) => arg.startsWith("-v"));
    if (index < 0) return undefined;
    const flag = args[index] as string;
    targets = [flag.length > 2 ? flag.slice(2) : (args[index + 1] ?? "")];
  } else {
    targets = args.filter((arg) => /^[A-Za-z_][A-Za-z0-9_]*$/.test(arg));
  }
  const unsafe = targets.find((target) => !isSafeShellVariable(target));
  return unsafe === undefined
    ? undefined
    : said(`${command.name} would set the variable ${unsafe}, which can change what later commands run`, {
        id: "sets-variable",
        builtin: command.name,
        name: unsafe,
      });
}

/** Why a bare name given to a declaration builtin may not be: one the line could not assign either. */
function declaredNameProblem(builtin: string, args: readonly string[]): Problem | undefined {
  const options = args.filter((arg) => /^[-+]/.test(arg));
  // `declare -p NAME` only prints.
  if (options.some((option) => /^-\w*p/.test(option))) return undefined;
  const exports =
    (builtin === "export" && !options.some((option) => /^-\w*n/.test(option))) ||
    options.some((option) => /^-\w*x/.test(option));
  for (const name of args.filter((arg) => /^[A-Za-z_][A-Za-z0-9_]*$/.test(arg))) {
    if (exports ? !SAFE_ENVIRONMENT_VARIABLES.has(name) : !isSafeShellVariable(name)) {
      const safe = exports ? [...SAFE_ENVIRONMENT_VARIABLES] : undefined;
      return said(
        `${builtin} would change the variable ${name}, which can change what later commands run (${safe ? `only ${safe.join(", ")} may be exported` : "use a lower-case name"})`,
        { id: "declares-variable", builtin, name, ...(safe ? { safe } : {}) },
      );
    }
  }
  return undefined;
}
