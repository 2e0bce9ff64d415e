import type { PolicyProblem, RefusalText } from "../../../shared/host-text";
import { clip } from "../../base/text";
import {
  readWrapper,
  UNCHECKABLE_COMMANDS,
  UNCHECKABLE_GROUPS,
  UNWRAPPED_WRAPPERS,
} from "../shell/command-wrappers";
import type { ParsedCommand, ParsedCommandLine, ShellRedirect } from "../shell/parsed-line";
import type { ShellWord } from "../shell/shell-words";
import { ARGUMENT_CHECKED, argumentProblem } from "./argument-rules";
import { resolveBinary } from "./binary-resolver";
import { type Problem, said } from "./policy-problem";
import { assignmentProblem, VARIABLE_SETTERS, variableTargetProblem } from "./variable-rules";

/** What an allowlist check needs besides the parsed line. */
export interface AllowlistOptions {
  /** Names of the binaries (and builtins) that may run; empty or absent means unrestricted. */
  allowedBinaries?: readonly string[];
  /** The workspace: the command's working directory, whose files the agent can change. */
  workspaceRoot: string;
  /** The PATH the command will run with. */
  pathEnv: string;
}

/** The policy's answer for one command line. */
export type AllowlistVerdict =
  | {
      /** Everything in the line may run. */
      allowed: true;
    }
  | {
      /** Something in the line may not run; nothing should. */
      allowed: false;
      /** What was refused and what is allowed, in words for the model and the person. */
      reason: string;
      /** The same as a kind and its parameters, for the page to word; absent when a part has no such kind yet. */
      say?: RefusalText;
      /** The refused parts as written: command names, redirections, assignments, constructs. */
      refused: string[];
    };

/**
 * Builtins and keywords the shell runs itself, without a PATH lookup. They still have to be on the
 * allowlist to run: the allowlist names what runs, and `cd`, `export` or `read` change what later
 * commands in the line do, so a person decides whether they belong on it.
 */
const SHELL_BUILTINS = new Set([
  ...[":", ".", "[", "alias", "bg", "bind", "break", "builtin", "caller", "cd", "command", "compgen"],
  ...["complete", "compopt", "continue", "declare", "dirs", "disown", "echo", "enable", "eval", "exec"],
  ...["exit", "export", "false", "fc", "fg", "getopts", "hash", "help", "history", "jobs", "kill", "let"],
  ...["local", "logout", "mapfile", "popd", "printf", "pushd", "pwd", "read", "readarray", "readonly"],
  ...["return", "set", "shift", "shopt", "source", "suspend", "test", "times", "trap", "true", "type"],
  ...["typeset", "ulimit", "umask", "unalias", "unset", "wait", "time", "coproc"],
]);

/** Builtins that declare variables; their arguments must be plain text to tell which. */
const DECLARATIONS = new Set(["export", "declare", "typeset", "local", "readonly", "unset"]);

/** Constructs refused whatever the commands in them are. */
const REFUSED_RISKS: Partial<Record<Extract<PolicyProblem, { id: "construct" }>["kind"], string>> = {
  background: "runs a command in the background, where it outlives the run and its time limit",
  function: "defines a shell function, a new name that runs other commands",
  arithmetic: "evaluates a variable as arithmetic, where a value such as a[$(cmd)] runs cmd",
  evaluation: "evaluates text from a variable as shell code",
};

/** bash's network pseudo-files: "reading" one opens a connection to any host. */
const NETWORK_FILE = /^\/dev\/(tcp|udp)\//;

interface Refusal extends Problem {
  /** The refused part as written. */
  what: string;
}

/**
 * Decides, failing closed, whether a parsed line may run under an allowlist: every command that would
 * run must be an allowed name that resolves on PATH to a file outside the workspace, and nothing in the
 * line may run or write something the allowlist does not cover.
 */
export function checkAllowlist(parsed: ParsedCommandLine, options: AllowlistOptions): AllowlistVerdict {
  const allowed = new Set(options.allowedBinaries ?? []);
  if (allowed.size === 0) return { allowed: true };
  const refusals: Refusal[] = [];
  if (parsed.error !== undefined) {
    refusals.push({ what: parsed.source, why: `the command line cannot be checked: ${parsed.error}` });
  } else {
    const changesDirectory = parsed.commands.some(
      (command) =>
        ["cd", "pushd", "popd"].includes(command.name) ||
        (command.name === "env" && command.args.some((arg) => /^(-C|--chdir)/.test(arg))),
    );
    for (const risk of parsed.risks) {
      const kind = risk.kind as keyof typeof REFUSED_RISKS;
      const why = REFUSED_RISKS[kind];
      if (!why) continue;
      const text = clip(risk.text);
      // The expansion rules' own refusal (what to write instead) goes with its kind, or leaves the line unworded.
      const say: PolicyProblem | undefined = !risk.refusal
        ? { id: "construct", text, kind }
        : risk.refusalSay
          ? { id: "construct", text, kind, refusal: risk.refusalSay }
          : undefined;
      refusals.push({ what: risk.text, why: `"${text}" ${risk.refusal ?? why}`, say });
    }
    for (const command of parsed.commands) {
      const problem = commandProblem(command, allowed, options, changesDirectory);
      if (problem) refusals.push({ what: command.name || command.nameWord.text, ...problem });
    }
    for (const redirect of parsed.redirects) {
      const problem = redirectProblem(redirect);
      if (problem) refusals.push({ what: redirect.text, ...problem });
    }
    for (const assignment of parsed.assignments) {
      const problem = assignmentProblem(assignment);
      if (problem) refusals.push({ what: assignment.text, ...problem });
    }
  }
  if (refusals.length === 0) return { allowed: true };
  const reasons = new Map<string, PolicyProblem | undefined>();
  for (const refusal of refusals) if (!reasons.has(refusal.why)) reasons.set(refusal.why, refusal.say);
  const problems = [...reasons.values()];
  const list = [...allowed];
  return {
    allowed: false,
    reason: `Refused by the command policy: ${[...reasons.keys()].join("; ")} (allowed: ${list.join(", ")}). Ask the user to run it, or use an allowed command.`,
    ...(problems.every((problem) => problem !== undefined)
      ? { say: { id: "policy", problems: problems as PolicyProblem[], allowed: list } }
      : {}),
    refused: [...new Set(refusals.map((refusal) => refusal.what))],
  };
}

function commandProblem(
  command: ParsedCommand,
  allowed: ReadonlySet<string>,
  options: AllowlistOptions,
  changesDirectory: boolean,
): Problem | undefined {
  const { name, nameWord } = command;
  if (!nameWord.literal) {
    return said(`the command name ${nameWord.text} is only known when the line runs`, {
      id: "dynamic-name",
      text: nameWord.text,
    });
  }
  if (name === "") return said("an empty command name cannot be checked", { id: "empty-name" });
  if (name.includes("/")) {
    return said(`"${name}" is a path; only allowed names, looked up on PATH, may run`, {
      id: "path-name",
      name,
    });
  }
  if (!allowed.has(name)) return said(`"${name}" is not on the allowlist`, { id: "not-allowed", name });
  const uncheckable = UNCHECKABLE_COMMANDS.get(name);
  const group = UNCHECKABLE_GROUPS.get(name);
  if (uncheckable && group) return said(`"${name}" ${uncheckable}`, { id: "unchecked", name, group });
  const wrapper = readWrapper(name, command.argWords);
  if (wrapper?.kind === "unclear") return said(wrapper.reason, wrapper.say);
  if (
    ARGUMENT_CHECKED.has(name) ||
    UNWRAPPED_WRAPPERS.has(name) ||
    DECLARATIONS.has(name) ||
    VARIABLE_SETTERS.has(name)
  ) {
    const unreadable = command.argWords.find((word) => !readableArgument(word));
    if (unreadable) {
      const what = unreadable.dynamic ? "is only known when the line runs" : "expands to file names";
      return said(`the argument ${unreadable.text} of "${name}" ${what}, so its options cannot be checked`, {
        id: "unreadable-argument",
        name,
        text: unreadable.text,
        dynamic: unreadable.dynamic,
      });
    }
  }
  if (DECLARATIONS.has(name) || VARIABLE_SETTERS.has(name)) {
    const element = command.args.find((arg) => !arg.startsWith("-") && /[[\]]/.test(arg));
    if (element)
      return said(
        `"${name}" would name the array element ${element}, whose subscript bash evaluates as code`,
        {
          id: "names-element",
          name,
          element,
        },
      );
  }
  const argumentWhy = argumentProblem(name, command.args) ?? variableTargetProblem(command);
  if (argumentWhy) return argumentWhy;
  // The shell runs its builtins itself; a wrapper (env, timeout, ...) execs a file from PATH instead.
  if (SHELL_BUILTINS.has(name) && command.wrapper === undefined) return undefined;
  const found = resolveBinary(name, { ...options, changesDirectory });
  switch (found.kind) {
    case "found":
      return undefined;
    case "not-found":
      return said(`"${name}" is not found on PATH`, { id: "not-found", name });
    case "in-workspace":
      return said(
        `"${name}" resolves to ${found.path}, inside the workspace, where the agent can change it`,
        {
          id: "in-workspace",
          name,
          path: found.path,
        },
      );
    case "relative-entry":
      return said(
        `PATH has the relative entry "${found.entry}" and the line changes directory, so "${name}" could resolve to any file`,
        { id: "relative-entry", name, entry: found.entry },
      );
  }
}

/**
 * An argument a checked binary may get: plain text, or a pattern (glob, braces, tilde) that starts
 * with a plain character other than `-`, so no file name it expands to can pass as an option.
 */
function readableArgument(word: ShellWord): boolean {
  if (word.literal) return true;
  return !word.dynamic && /^[A-Za-z0-9_./]/.test(word.text);
}

function redirectProblem(redirect: ShellRedirect): Problem | undefined {
  if (redirect.harmless) return undefined;
  const { target, text } = redirect;
  switch (redirect.kind) {
    case "read":
      if (!target?.literal)
        return said(`the redirection "${text}" reads a file named only when the line runs`, {
          id: "redirect-dynamic-read",
          text,
        });
      if (NETWORK_FILE.test(target.value))
        return said(`the redirection "${text}" opens a network connection`, { id: "redirect-network", text });
      return undefined;
    case "write":
      return said(`the redirection "${text}" writes to a file (only 2>&1 and >/dev/null are allowed)`, {
        id: "redirect-write",
        text,
      });
    default:
      return said(`the redirection "${text}" opens a file for writing`, { id: "redirect-open", text });
  }
}
