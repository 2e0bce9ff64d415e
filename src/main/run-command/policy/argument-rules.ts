/**
 * Arguments that make an allowed binary run another program, or write where nothing says it may.
 * Best effort by design: an allowlisted binary is trusted with its own job, and these rules cover the
 * well-known ways the common ones run something else (`find -exec`, `git -c core.pager=...`). An
 * interpreter on the allowlist (node, python, perl, make) runs whatever its program says.
 */

import { mapfileCallback, shellOptionProblem } from "../shell/expansion-rules";

type Rule = (args: readonly string[]) => string | undefined;

const has = (args: readonly string[], ...options: string[]) =>
  args.find((arg) => options.some((option) => arg === option || arg.startsWith(`${option}=`)));

/** A single-dash bundle (`-avze`) that includes one of these letters. */
const bundleWith = (args: readonly string[], letters: string) =>
  args.find((arg) => /^-[A-Za-z]+$/.test(arg) && [...letters].some((letter) => arg.includes(letter)));

const RUNS = "runs another program";

const find: Rule = (args) => {
  const exec = has(args, "-exec", "-execdir", "-ok", "-okdir");
  if (exec) return `find ${exec} ${RUNS} for each file`;
  const write = has(args, "-delete", "-fprint", "-fprint0", "-fprintf", "-fls");
  return write ? `find ${write} deletes or writes files` : undefined;
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
const GIT_NEVER = new Set([
  "filter-branch",
  "filter-repo",
  "difftool",
  "mergetool",
  "send-email",
  "instaweb",
  "web--browse",
  "remote-ext",
  "remote-fd",
]);
const GIT_CONFIG_READS = [
  "--get",
  "--get-all",
  "--get-regexp",
  "--get-urlmatch",
  "--list",
  "-l",
  "get",
  "list",
];
const GIT_CONFIG_WRITES = [
  "--add",
  "--unset",
  "--unset-all",
  "--replace-all",
  "--rename-section",
  "--remove-section",
];

const git: Rule = (args) => {
  let i = 0;
  for (; i < args.length; i++) {
    const arg = args[i] as string;
    if (!arg.startsWith("-")) break;
    if (/^-c/.test(arg) || has([arg], "--config-env")) {
      return `git ${arg} sets configuration, which can name programs to run (core.pager, core.sshCommand, alias.*)`;
    }
    if (arg.startsWith("--exec-path=")) return `git ${arg} runs git's helper programs from another directory`;
    if (GIT_VALUED.includes(arg)) i++;
    else if (
      !GIT_FLAGS.has(arg) &&
      !GIT_VALUED.some((option) => arg.startsWith(`${option}=`)) &&
      !arg.startsWith("--list-cmds=")
    ) {
      return `git's option ${arg} is not one the policy knows`;
    }
  }
  const sub = args[i];
  const rest = args.slice(i + 1);
  if (sub === undefined) return undefined;
  if (GIT_NEVER.has(sub)) return `git ${sub} ${RUNS} (a tool, an editor or a mailer)`;
  const transport = has(
    rest,
    "--upload-pack",
    "--receive-pack",
    "--exec",
    "--output",
    "--template",
    "--config",
  );
  if (transport)
    return `git ${sub} ${transport} runs a program or writes a file the allowlist does not cover`;
  const url = rest.find((arg) => /(^|\s)(ext|fd)::/i.test(arg));
  if (url) return `git ${sub} ${url} uses a transport that runs a program`;
  if (sub === "clone" && has(rest, "-u", "-c"))
    return `git clone ${has(rest, "-u", "-c")} ${RUNS} or sets configuration`;
  if (sub === "rebase" && (has(rest, "-x") || bundleWith(rest, "x")))
    return `git rebase -x ${RUNS} after each commit`;
  if (sub === "bisect" && rest.includes("run")) return `git bisect run ${RUNS}`;
  if (sub === "submodule" && rest.includes("foreach"))
    return `git submodule foreach ${RUNS} in each submodule`;
  if (sub === "grep" && rest.some((arg) => arg.startsWith("-O") || arg.startsWith("--open-files-in-pager"))) {
    return `git grep -O ${RUNS} on the matching files`;
  }
  if (sub === "archive" && has(rest, "-o"))
    return "git archive -o writes a file the allowlist does not cover";
  if (sub === "config") {
    const write = has(
      rest,
      ...GIT_CONFIG_WRITES,
      "-e",
      "--edit",
      "set",
      "unset",
      "edit",
      "rename-section",
      "remove-section",
    );
    if (write || !has(rest, ...GIT_CONFIG_READS)) {
      return "git config may only read settings here (--get, --list): a setting can name a program git runs later";
    }
  }
  return undefined;
};

const npm: Rule = (args) => {
  const shell = has(args, "--script-shell");
  if (shell) return `npm ${shell} runs scripts with another program`;
  // Global options may come first and take values, so any of these words counts, wherever it is.
  const runner = args.find((arg) => ["exec", "x", "explore", "edit", "set"].includes(arg));
  if (runner) return `npm ${runner} ${RUNS}, or changes settings that name one`;
  const config = args.findIndex((arg) => arg === "config" || arg === "c");
  if (config >= 0 && args.slice(config + 1).some((arg) => ["set", "edit", "delete", "fix"].includes(arg))) {
    return "npm config may only read settings here: a setting can name a program npm runs later";
  }
  const init = args.findIndex((arg) => arg === "init" || arg === "create" || arg === "innit");
  if (init >= 0 && args.slice(init + 1).some((arg) => !arg.startsWith("-"))) {
    return `npm ${args[init]} <initializer> downloads and runs a create-* package`;
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
    if (sub === undefined || PACKAGE_MANAGER_COMMANDS.has(sub))
      return has(args, "--script-shell") ? `${name} --script-shell ${RUNS}` : undefined;
    return `${name} ${sub} is not a subcommand the policy knows, and ${name} runs binaries for unknown words; use "${name} run <script>"`;
  };

const option =
  (name: string, options: string[], what: string, letters = ""): Rule =>
  (args) => {
    const found = has(args, ...options) ?? (letters ? bundleWith(args, letters) : undefined);
    return found ? `${name} ${found} ${what}` : undefined;
  };

const tar: Rule = (args) => {
  const long = has(
    args,
    "--to-command",
    "--checkpoint-action",
    "--use-compress-program",
    "--info-script",
    "--new-volume-script",
    "--rsh-command",
    "--rmt-command",
  );
  // Old-style `tar xIf prog` bundles options without a dash in the first argument.
  const bundle =
    bundleWith(args, "IF") ??
    (args[0] && /^[A-Za-z]+$/.test(args[0]) && /[IF]/.test(args[0]) ? args[0] : undefined);
  const found = long ?? bundle;
  return found ? `tar ${found} ${RUNS}` : undefined;
};

const awk: Rule = (args) => {
  const file = has(args, "-f", "--file", "-E", "--exec", "-l", "--load", "-i", "--include");
  if (file) return `awk ${file} loads a program or extension the policy cannot read`;
  const program = args.find((arg) => /system|getline|\||>/.test(arg));
  return program
    ? `the awk program ${program} may run a command or write a file (system, |, >, getline)`
    : undefined;
};

const sed: Rule = (args) => {
  const file = has(args, "-f", "--file");
  if (file) return `sed ${file} reads a script the policy cannot check`;
  // GNU sed's `e` command and `s///e` flag run shell commands; `w`/`W` and `s///w` write files.
  const command = /(^|[;\n{}]|[\d$/!]\s*)\s*[ewW](\s|;|$)/;
  const substitution = /s(.)(?:\\.|(?!\1).)*\1(?:\\.|(?!\1).)*\1[gpiImM\d]*[ew]/;
  const script = args.find((arg) => !arg.startsWith("-") && (command.test(arg) || substitution.test(arg)));
  return script ? `the sed script ${script} may run a command or write a file (e, w)` : undefined;
};

const ssh: Rule = (args) => {
  const config = args.find(
    (arg, i) =>
      arg === "-F" ||
      arg === "-S" ||
      (/^-o/.test(arg) && /command|match/i.test(arg.length > 2 ? arg : (args[i + 1] ?? ""))),
  );
  return config ? `${config} makes ssh run a local program or read another configuration` : undefined;
};

const test: Rule = (args) =>
  args.some((arg) => arg === "-v" || arg === "-R")
    ? "test -v looks a variable up by a name whose subscript bash evaluates as code"
    : undefined;

const declare =
  (name: string): Rule =>
  (args) => {
    const option = args.find((arg) => /^-[a-zA-Z]*[ni]/.test(arg));
    if (!option) return undefined;
    return option.includes("n")
      ? `${name} ${option} makes a name refer to another variable, so an assignment could change PATH`
      : `${name} ${option} makes every value given the variable arithmetic, which can run code`;
  };

const RULES: Record<string, Rule> = {
  test,
  declare: declare("declare"),
  typeset: declare("typeset"),
  local: declare("local"),
  find,
  git,
  npm,
  pnpm: packageManager("pnpm"),
  yarn: packageManager("yarn"),
  rg: option("rg", ["--pre"], `${RUNS} on each file`),
  fd: option("fd", ["-x", "--exec", "-X", "--exec-batch"], `${RUNS} for each match`, "xX"),
  fdfind: option("fdfind", ["-x", "--exec", "-X", "--exec-batch"], `${RUNS} for each match`, "xX"),
  sort: option("sort", ["--compress-program"], RUNS),
  rsync: option("rsync", ["-e", "--rsh", "--rsync-path"], RUNS, "e"),
  mapfile: (args) => mapfileCallback("mapfile", args),
  readarray: (args) => mapfileCallback("readarray", args),
  set: (args) => shellOptionProblem("set", args),
  shopt: (args) => shellOptionProblem("shopt", args),
  man: option("man", ["-P", "--pager", "-H", "--html"], RUNS),
  tar,
  awk,
  gawk: awk,
  mawk: awk,
  nawk: awk,
  sed,
  ssh,
  scp: ssh,
  sftp: ssh,
};

/** Binaries whose arguments these rules read; their arguments must be plain text for the reading to hold. */
export const ARGUMENT_CHECKED: ReadonlySet<string> = new Set(Object.keys(RULES));

/** Why these arguments make `name` run or write something the allowlist does not cover; undefined if nothing. */
export function argumentProblem(name: string, args: readonly string[]): string | undefined {
  return RULES[name]?.(args);
}
