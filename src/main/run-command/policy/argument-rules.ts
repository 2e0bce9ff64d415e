/**
 * Arguments that make an allowed binary run another program, or write where nothing says it may: the
 * argument table (argument-table.ts, shared with the "always allow" rules) plus the few readings that are
 * code, not data (git's own options, pnpm and yarn's unknown subcommands, mapfile's callback, shell
 * options). Best effort by design: an allowlisted binary is trusted with its own job, and these cover the
 * well-known ways the common ones run something else. An interpreter on the allowlist (node, python, perl,
 * make) runs whatever its program says.
 */

import { mapfileCallback, shellOptionProblem, shellOptionText } from "../shell/expansion-rules";
import { ARGUMENT_TABLE, argumentHits } from "./argument-table";
import { type Problem, said } from "./policy-problem";

type Rule = (args: readonly string[]) => Problem | string | undefined;

/** `mapfile -C` and `readarray -C`. */
const callback =
  (name: string): Rule =>
  (args) =>
    mapfileCallback(args)
      ? said(`${name} -C runs its callback as shell code; read the lines without -C`, {
          id: "callback",
          name,
        })
      : undefined;

/** `set` and `shopt` options that change how later commands are read. */
const shellOption =
  (name: "set" | "shopt"): Rule =>
  (args) => {
    const problem = shellOptionProblem(name, args);
    return problem && said(shellOptionText(problem), problem);
  };

const GIT_VALUED = ["-C", "--git-dir", "--work-tree", "--namespace", "--super-prefix", "--attr-source"];
const GIT_FLAGS = new Set([
  "-p",
  "-P",
  "--paginate",
  "--no-pager",
  "--bare",
  "--no-replace-objects",
  "--no-lazy-fetch",
  "--no-optional-locks",
  "--no-advice",
  "--literal-pathspecs",
  "--glob-pathspecs",
  "--noglob-pathspecs",
  "--icase-pathspecs",
  "--exec-path",
  "--html-path",
  "--man-path",
  "--info-path",
  "--version",
  "--help",
  "-v",
  "-h",
]);
/** git's own options before the subcommand: only the ones known to change nothing but what it prints. */
const git: Rule = (args) => {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (!arg.startsWith("-")) return undefined;
    if (GIT_VALUED.includes(arg)) i++;
    else if (
      !GIT_FLAGS.has(arg) &&
      !/^-c/.test(arg) &&
      !arg.startsWith("--config-env") &&
      !arg.startsWith("--exec-path=") &&
      !GIT_VALUED.some((option) => arg.startsWith(`${option}=`)) &&
      !arg.startsWith("--list-cmds=")
    ) {
      return `git's option ${arg} is not one the policy knows`;
    }
  }
  return undefined;
};

/** pnpm and yarn run a binary for a word they do not know, so only known subcommands pass. */
const PACKAGE_MANAGER_COMMANDS = new Set([
  ...["install", "i", "add", "remove", "rm", "uninstall", "update", "up", "upgrade", "run", "run-script"],
  ...["test", "t", "start", "list", "ls", "why", "outdated", "audit", "info", "view", "pack", "publish"],
  ...[
    "version",
    "help",
    "prune",
    "dedupe",
    "rebuild",
    "link",
    "unlink",
    "licenses",
    "store",
    "--version",
    "-v",
  ],
]);

const packageManager =
  (name: string): Rule =>
  (args) => {
    const sub = args.find((arg) => !arg.startsWith("-")) ?? args[0];
    if (sub === undefined || PACKAGE_MANAGER_COMMANDS.has(sub)) return undefined;
    return `${name} ${sub} is not a subcommand the policy knows, and ${name} runs binaries for unknown words; use "${name} run <script>"`;
  };

/** Readings in code, for what the table cannot say as data. */
const RULES: Record<string, Rule> = {
  git,
  pnpm: packageManager("pnpm"),
  yarn: packageManager("yarn"),
  mapfile: callback("mapfile"),
  readarray: callback("readarray"),
  set: shellOption("set"),
  shopt: shellOption("shopt"),
};

/** Binaries whose arguments these rules read; their arguments must be plain text for the reading to hold. */
export const ARGUMENT_CHECKED: ReadonlySet<string> = new Set([
  ...Object.keys(RULES),
  ...ARGUMENT_TABLE.filter((entry) => !entry.rulesOnly).flatMap((entry) => entry.programs),
]);

/** Why these arguments make `name` run or write something the allowlist does not cover; undefined if nothing. */
export function argumentProblem(name: string, args: readonly string[]): Problem | undefined {
  const [hit] = argumentHits(name, args);
  if (hit) {
    const { does } = hit.entry;
    return said(`${name} ${hit.argument} ${does}`, { id: "argument", name, argument: hit.argument, does });
  }
  const found = RULES[name]?.(args);
  return typeof found === "string" ? { why: found } : found;
}
