/**
 * The one table of what programs can be told to do beyond their own job: the options and arguments that
 * make a program run another program (or evaluate code, or set configuration that names one), and those
 * that make it delete or write a file the command's first words did not name. The allowlist policy refuses
 * a line that uses one (argument-rules.ts); an "always allow" prefix rule never covers one that comes after
 * its prefix (approvals/rule-patterns.ts). Data only: each entry says where it comes from.
 */

import type { ArgumentEffect } from "../../../shared/rules";

export type { ArgumentEffect } from "../../../shared/rules";

/** One row of the table: which arguments of which programs, and what they make them do. */
export interface ArgumentEntry {
  /** The programs (as named on the command line) the row is about. */
  programs: readonly string[];
  /** What the arguments make the program do. */
  effect: ArgumentEffect;
  /** Options as written (`-exec`, `--pre`), also with `=value`; a `--long` one also abbreviated, as getopt allows. */
  options?: readonly string[];
  /** Single-letter options, also bundled (`-uo`) or with the value attached (`-oM`). */
  letters?: string;
  /** Whole words (`difftool`, `foreach`). */
  words?: readonly string[];
  /** Arguments matching this (an awk program calling `system`, dd's `of=`). */
  pattern?: RegExp;
  /** Every argument names a file the program changes (`rm`, `cp`), or every operand does (`tee`). */
  every?: "argument" | "operand";
  /** Only when the option's value (attached, after `=`, or the next argument) matches (`ssh -o ProxyCommand=…`). */
  value?: RegExp;
  /** Only when one of these words comes earlier in the arguments (`git clone -u`, `npm config set`). */
  after?: readonly string[];
  /** Only before the first word that is not an option: the program's own options, not its subcommand's (`git -c`). */
  beforeSubcommand?: true;
  /** Not when one of these options is there too (`git config --get` only reads). */
  unless?: readonly string[];
  /** Only as the first argument (`tar cIf prog`: old-style options without a dash). */
  firstArgument?: true;
  /** Only as the subcommand itself (`git difftool`), not as a later word (`git grep difftool`). */
  atSubcommand?: true;
  /**
   * Only for "always allow" rules: writing is the program's own job (`cp`, `tee`, `curl -o`), so an
   * allowlist that names the program allows it, while a prefix that does not name the file does not.
   */
  rulesOnly?: true;
  /** What the arguments do, completing "`<program> <argument>` …", for the person and the model. */
  does: string;
  /** Where the row comes from: the program's manual, a peer's report. */
  source: string;
}

/** Bumped when the table covers more, so rules saved before can be told apart (see rule-book.ts). */
export const ARGUMENT_TABLE_VERSION = 1;

/** Options of a program that take their value as the next word before its subcommand (`git -C dir log`). */
export const SUBCOMMAND_VALUED_OPTIONS: Readonly<Record<string, readonly string[]>> = {
  git: ["-C", "-c", "--git-dir", "--work-tree", "--namespace", "--super-prefix", "--attr-source"],
};

/**
 * Options that are the start of a row's option but an option of their own, which getopt takes as written
 * rather than as an abbreviation (`tar --checkpoint=1` is not `--checkpoint-action`).
 */
const WHOLE_OPTIONS: Readonly<Record<string, readonly string[]>> = {
  tar: ["--checkpoint"],
};

const RUNS = "runs another program";
const WRITES = "deletes or writes a file";
const SSH_COMMANDS = /command|match/i;

/** The table. */
// biome-ignore format: one row per line reads as a table
export const ARGUMENT_TABLE: readonly ArgumentEntry[] = [
  // --- find: findutils manual, "Actions"; Gemini CLI's allowlist tests (`find . -exec rm -rf {} +`, `find -delete`).
  { programs: ["find"], effect: "runs", options: ["-exec", "-execdir", "-ok", "-okdir"], does: `${RUNS} for each file`, source: "find(1) ACTIONS; Gemini CLI shell-utils tests" },
  { programs: ["find"], effect: "writes", options: ["-delete", "-fprint", "-fprint0", "-fprintf", "-fls"], does: WRITES, source: "find(1) ACTIONS" },
  // --- fd: fd(1) --exec / --exec-batch.
  { programs: ["fd", "fdfind"], effect: "runs", options: ["-x", "--exec", "-X", "--exec-batch"], letters: "xX", does: `${RUNS} for each match`, source: "fd(1) --exec" },
  // --- tar: GNU tar manual, "Running External Commands", "Using Multiple Tapes", "Remote Tape Server".
  { programs: ["tar"], effect: "runs", options: ["--to-command", "--checkpoint-action", "--use-compress-program", "--info-script", "--new-volume-script", "--rsh-command", "--rmt-command"], letters: "IF", does: RUNS, source: "GNU tar manual 4.3 (--checkpoint-action=exec), 6.7 (--to-command), 8.1.1 (-I), 9.6 (-F), --rsh-command" },
  // Old-style `tar cIf prog` bundles options without a dash in its first argument.
  { programs: ["tar"], effect: "runs", pattern: /^[A-Za-z]*[IF][A-Za-z]*$/, firstArgument: true, does: RUNS, source: "GNU tar manual 3.3.3 (old options)" },
  // --- ripgrep: rg(1) --pre; reported in this project's issue 25.
  { programs: ["rg"], effect: "runs", options: ["--pre"], does: `${RUNS} on each file`, source: "rg(1) --pre" },
  // --- sort: GNU coreutils manual, "sort invocation".
  { programs: ["sort"], effect: "runs", options: ["--compress-program"], does: `${RUNS} to compress its temporary files`, source: "coreutils sort --compress-program" },
  { programs: ["sort"], effect: "writes", options: ["--output"], letters: "o", does: WRITES, source: "coreutils sort -o" },
  // --- zip: zip(1) -TT / --unzip-command.
  { programs: ["zip"], effect: "runs", options: ["-TT", "--unzip-command"], does: `${RUNS} to test the archive`, source: "zip(1) -TT" },
  // --- rsync: rsync(1) -e / --rsh / --rsync-path; --log-file, --write-batch write files.
  { programs: ["rsync"], effect: "runs", options: ["-e", "--rsh", "--rsync-path"], letters: "e", does: `${RUNS} as its remote shell`, source: "rsync(1) -e, --rsync-path" },
  { programs: ["rsync"], effect: "writes", options: ["--log-file", "--write-batch", "--only-write-batch"], does: WRITES, source: "rsync(1)" },
  // --- ssh, scp, sftp: ssh_config(5) ProxyCommand, LocalCommand, KnownHostsCommand, Match exec; -F another config.
  { programs: ["ssh", "scp", "sftp"], effect: "runs", options: ["-o"], letters: "o", value: SSH_COMMANDS, does: `${RUNS} on this machine`, source: "ssh_config(5) ProxyCommand, LocalCommand, Match exec" },
  { programs: ["ssh", "scp", "sftp"], effect: "runs", options: ["-F", "-S"], letters: "FS", does: "reads another configuration or control socket, which can name a program to run", source: "ssh(1) -F, -S" },
  { programs: ["scp", "sftp"], effect: "runs", options: ["-S"], does: `${RUNS} instead of ssh`, source: "scp(1) -S program" },
  // --- man: man(1) -P/--pager, -H/--html (a browser).
  { programs: ["man"], effect: "runs", options: ["-P", "--pager", "-H", "--html"], letters: "PH", does: `${RUNS} as its pager or browser`, source: "man(1) -P, -H" },
  // --- less: less(1) lesskey files can set LESSOPEN, an input preprocessor it runs.
  { programs: ["less"], effect: "runs", options: ["-k", "--lesskey-file", "--lesskey-src", "--lesskey-content"], does: "reads key bindings that can set LESSOPEN, a program it runs", source: "less(1) -k, LESSOPEN" },
  // --- awk: POSIX awk system(), "cmd" | getline, print > file; gawk -f/-E/-l/-i load programs; Gemini CLI (`awk system()`).
  { programs: ["awk", "gawk", "mawk", "nawk"], effect: "runs", options: ["-f", "--file", "-E", "--exec", "-l", "--load", "-i", "--include"], does: "loads a program or extension that cannot be read here", source: "gawk manual 2.2 Command-Line Options" },
  { programs: ["awk", "gawk", "mawk", "nawk"], effect: "runs", pattern: /system|getline|\||>/, does: "may run a command or write a file (system, |, >, getline)", source: "POSIX awk; Gemini CLI shell-utils tests" },
  // --- sed: GNU sed manual, "Extended commands" (e), "w" and the s///e, s///w flags; -i edits in place.
  { programs: ["sed"], effect: "runs", options: ["-f", "--file"], does: "reads a script that cannot be read here", source: "GNU sed manual 2.2" },
  { programs: ["sed"], effect: "runs", pattern: /(^|[;\n{}]|[\d$/!]\s*)\s*[ewW](\s|;|$)|s(.)(?:\\.|(?!\3).)*\3(?:\\.|(?!\3).)*\3[gpiImM\d]*[ew]/, does: "may run a command or write a file (e, w)", source: "GNU sed manual 3.7, 3.8" },
  { programs: ["sed"], effect: "writes", options: ["-i", "--in-place"], letters: "i", rulesOnly: true, does: "edits files in place", source: "GNU sed -i; Gemini CLI shell-utils tests (`sed -i`)" },
  // --- git: git(1), git-config(1) (core.pager, core.sshCommand, alias.*), git-log(1) --output; Roo Code #11095.
  { programs: ["git"], effect: "runs", options: ["-c", "--config-env"], letters: "c", beforeSubcommand: true, does: "sets configuration, which can name programs to run (core.pager, core.sshCommand, alias.*)", source: "git(1) -c; git-config(1)" },
  { programs: ["git"], effect: "runs", pattern: /^--exec-path=/, beforeSubcommand: true, does: "runs git's helper programs from another directory", source: "git(1) --exec-path" },
  { programs: ["git"], effect: "runs", words: ["filter-branch", "filter-repo", "difftool", "mergetool", "send-email", "instaweb", "web--browse", "remote-ext", "remote-fd"], atSubcommand: true, does: `${RUNS} (a tool, an editor or a mailer)`, source: "git-difftool(1), git-mergetool(1), git-filter-branch(1), git-send-email(1)" },
  { programs: ["git"], effect: "runs", options: ["--upload-pack", "--receive-pack", "--exec", "--template", "--config", "--ext-diff", "--extcmd", "--tool"], does: RUNS, source: "git-fetch(1) --upload-pack, git-push(1) --receive-pack, git-diff(1) --ext-diff, git-clone(1) --template" },
  { programs: ["git"], effect: "writes", options: ["--output"], does: WRITES, source: "git-log(1)/git-diff(1) --output; issue 25" },
  { programs: ["git"], effect: "runs", pattern: /(^|\s)(ext|fd)::/i, does: "uses a transport that runs a program", source: "git-remote-ext(1)" },
  { programs: ["git"], effect: "runs", options: ["-u", "-c"], after: ["clone"], does: `${RUNS} or sets configuration`, source: "git-clone(1) -u, -c" },
  { programs: ["git"], effect: "runs", options: ["--exec"], letters: "x", after: ["rebase"], does: `${RUNS} after each commit`, source: "git-rebase(1) -x" },
  { programs: ["git"], effect: "runs", words: ["run"], after: ["bisect"], does: RUNS, source: "git-bisect(1) run" },
  { programs: ["git"], effect: "runs", words: ["foreach"], after: ["submodule"], does: `${RUNS} in each submodule`, source: "git-submodule(1) foreach" },
  { programs: ["git"], effect: "runs", pattern: /^(-O|--open-files-in-pager)/, after: ["grep"], does: `${RUNS} on the matching files`, source: "git-grep(1) -O" },
  { programs: ["git"], effect: "writes", options: ["-o", "--output"], after: ["archive"], does: WRITES, source: "git-archive(1) -o" },
  { programs: ["git"], effect: "runs", options: ["--add", "--unset", "--unset-all", "--replace-all", "--rename-section", "--remove-section", "-e", "--edit"], words: ["set", "unset", "edit", "rename-section", "remove-section"], after: ["config"], does: "changes a setting, which can name a program git runs later", source: "git-config(1)" },
  { programs: ["git"], effect: "runs", every: "operand", after: ["config"], unless: ["--get", "--get-all", "--get-regexp", "--get-urlmatch", "--list", "-l", "get", "list"], does: "sets a setting (only --get and --list just read), which can name a program git runs later", source: "git-config(1)" },
  // --- npm, pnpm, yarn: npm-exec(1), npm-explore(1), npm-edit(1), npm-config(1) script-shell; npm-init(1).
  { programs: ["npm", "pnpm", "yarn"], effect: "runs", options: ["--script-shell"], does: "runs scripts with another program", source: "npm-config(7) script-shell" },
  { programs: ["npm"], effect: "runs", words: ["exec", "x", "explore", "edit", "set"], does: `${RUNS}, or changes settings that name one`, source: "npm-exec(1), npm-explore(1), npm-edit(1), npm-config(1)" },
  { programs: ["npm"], effect: "runs", words: ["set", "edit", "delete", "fix"], after: ["config", "c"], does: "changes a setting, which can name a program npm runs later", source: "npm-config(1)" },
  { programs: ["npm"], effect: "runs", every: "operand", after: ["init", "create", "innit"], does: "downloads and runs a create-* package", source: "npm-init(1)" },
  { programs: ["pnpm", "yarn"], effect: "runs", words: ["exec", "dlx", "x"], does: RUNS, source: "pnpm exec/dlx, yarn exec/dlx" },
  // --- compilers: gcc(1) -wrapper, -fplugin, -specs, -B (where to find cc1, as, ld), @file (more options).
  { programs: ["cc", "gcc", "g++", "c++", "clang", "clang++"], effect: "runs", options: ["-wrapper", "-fplugin", "-specs", "--specs"], pattern: /^(-B|-fplugin|@)/, does: RUNS, source: "gcc(1) -wrapper, -fplugin, -specs, -B, @file" },
  // --- downloads: curl(1) -o/-O/-K (a config file can name outputs), wget(1) -O/-i/-e (a .wgetrc command).
  { programs: ["curl"], effect: "writes", rulesOnly: true, options: ["--output", "--remote-name", "--remote-name-all", "--config", "--output-dir", "--dump-header", "--cookie-jar", "--trace", "--trace-ascii", "--stderr", "--etag-save", "--hsts", "--alt-svc"], letters: "oOKDc", does: WRITES, source: "curl(1) -o, -O, -K, -D, -c" },
  { programs: ["wget"], effect: "writes", rulesOnly: true, options: ["--output-document", "--input-file", "--execute", "--output-file", "--append-output", "--directory-prefix", "--config"], letters: "Oieoa", does: WRITES, source: "wget(1) -O, -i, -e" },
  // --- plain writers: tee(1) writes each file it names, dd(1) of=, and cp, mv, ln, rm, install change every file they name.
  { programs: ["tee"], effect: "writes", rulesOnly: true, every: "operand", does: WRITES, source: "tee(1)" },
  { programs: ["dd"], effect: "writes", rulesOnly: true, pattern: /^of=/, does: WRITES, source: "dd(1) of=" },
  { programs: ["cp", "mv", "ln", "rm", "install", "rmdir", "shred", "truncate", "unlink"], effect: "writes", rulesOnly: true, every: "argument", does: WRITES, source: "coreutils: each argument names a file they change" },
  // --- shell builtins the policy lets through with plain arguments: test -v/-R and declare -n/-i evaluate names.
  { programs: ["test"], effect: "runs", options: ["-v", "-R"], does: "looks a variable up by a name whose subscript bash evaluates as code", source: "bash(1) test -v; this project's evaluation corpus" },
  { programs: ["declare", "typeset", "local"], effect: "runs", pattern: /^-[a-zA-Z]*[ni]/, does: "makes a name refer to another variable, or its values arithmetic, which can run code", source: "bash(1) declare -n, -i" },
];

/** One use of a table row in a command's arguments. */
export interface ArgumentHit {
  /** The row. */
  entry: ArgumentEntry;
  /** Where the argument is in the arguments (not counting the program name). */
  index: number;
  /** The argument as written (after quote removal). */
  argument: string;
}

/** Rows per program, built once. */
const BY_PROGRAM = new Map<string, ArgumentEntry[]>();
for (const entry of ARGUMENT_TABLE) {
  for (const program of entry.programs) BY_PROGRAM.set(program, [...(BY_PROGRAM.get(program) ?? []), entry]);
}

/** Whether the table has rows for this program: a prefix rule for it means less than "any arguments". */
export function inArgumentTable(program: string): boolean {
  return BY_PROGRAM.has(program);
}

/** The effects the table knows for a program (empty when it has no rows). */
export function effectsOf(program: string): ArgumentEffect[] {
  return [...new Set((BY_PROGRAM.get(program) ?? []).map((entry) => entry.effect))];
}

/** Which uses of the table `argumentHits` reports. */
export interface HitOptions {
  /** The first argument to look at; earlier ones give context only. */
  from?: number;
  /** For an "always allow" rule (all rows), or for the allowlist (rows not marked `rulesOnly`). */
  forRules?: boolean;
}

/**
 * The table's rows that the arguments from `from` on use, first first. Earlier arguments give the context
 * (`clone` before `-u`, whether the subcommand has begun) but are not reported themselves.
 */
export function argumentHits(
  program: string,
  args: readonly string[],
  options: HitOptions = {},
): ArgumentHit[] {
  const entries = BY_PROGRAM.get(program)?.filter((entry) => options.forRules || !entry.rulesOnly);
  if (!entries) return [];
  const from = options.from ?? 0;
  const subcommand = subcommandIndex(program, args);
  const hits: ArgumentHit[] = [];
  for (let index = Math.max(0, from); index < args.length; index++) {
    const argument = args[index] as string;
    for (const entry of entries) {
      if (entry.beforeSubcommand && index >= subcommand) continue;
      if (entry.atSubcommand && index !== subcommand) continue;
      if (entry.firstArgument && index !== 0) continue;
      if (entry.after && !args.slice(0, index).some((arg) => entry.after?.includes(arg))) continue;
      if (entry.unless?.some((option) => args.some((arg) => arg === option || arg.startsWith(`${option}=`))))
        continue;
      if (uses(entry, args, index, WHOLE_OPTIONS[program] ?? [])) hits.push({ entry, index, argument });
    }
  }
  return hits;
}

/** Where the program's subcommand is: the first word that is neither an option nor an option's value. */
function subcommandIndex(program: string, args: readonly string[]): number {
  const valued = SUBCOMMAND_VALUED_OPTIONS[program] ?? [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (!arg.startsWith("-")) return i;
    if (valued.includes(arg)) i++;
  }
  return args.length;
}

/** Whether `args[index]` is a use of `entry`. */
function uses(
  entry: ArgumentEntry,
  args: readonly string[],
  index: number,
  whole: readonly string[],
): boolean {
  const arg = args[index] as string;
  const option = arg.startsWith("-") && arg !== "-";
  if (entry.every === "argument") return true;
  if (entry.every === "operand" && !option) return true;
  if (entry.words?.includes(arg)) return true;
  if (entry.pattern?.test(arg)) return true;
  const value = (attached: string | undefined) =>
    !entry.value ||
    entry.value.test(attached !== undefined && attached !== "" ? attached : (args[index + 1] ?? ""));
  for (const name of entry.options ?? []) {
    if (arg === name) return value(undefined);
    if (arg.startsWith(`${name}=`)) return value(arg.slice(name.length + 1));
    // getopt_long takes any unambiguous start of a long option (`--checkpoint-act=exec=…`); counting every
    // start errs toward asking.
    const [written = ""] = arg.split("=", 1);
    if (whole.includes(written)) continue;
    if (name.startsWith("--") && written.length > 3 && written.startsWith("--") && name.startsWith(written)) {
      return value(arg.includes("=") ? arg.slice(written.length + 1) : undefined);
    }
  }
  if (entry.letters && /^-[^-]/.test(arg)) {
    // In a bundle (`-uoM`) the first letter that takes a value ends the options; what follows is its value.
    for (let at = 1; at < arg.length; at++) {
      if (entry.letters.includes(arg[at] as string)) return value(arg.slice(at + 1));
    }
  }
  return false;
}
