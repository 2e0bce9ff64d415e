import type { RuleOffer } from "../../shared/commands";
import type { CommandRule, RuleDraft, RuleEffect, RuleMatch, RuleScope } from "../../shared/rules";
import {
  type ArgumentHit,
  argumentHits,
  effectsOf,
  inArgumentTable,
  MAX_COMMAND_LENGTH,
  type ParsedCommand,
  type ParsedCommandLine,
  parseCommandLine,
  UNCHECKABLE_COMMANDS,
  UNWRAPPED_WRAPPERS,
} from "../run-command";

/*
 * How a rule's pattern reads and matches a command line: the words rules compare, the plain lines an allow
 * rule may name, the "always allow" offers, and the checks a draft passes before it becomes a rule.
 */

/**
 * Programs that run whatever code they are given. A prefix rule naming one of them with nothing but
 * options (`node`, `node -e`, `bash -c`) would allow any command at all, so none is offered or accepted;
 * `node scripts/build.js` is.
 */
const RUNS_ANY_CODE: ReadonlySet<string> = new Set([
  ...UNCHECKABLE_COMMANDS.keys(),
  ...UNWRAPPED_WRAPPERS,
  ...["node", "nodejs", "deno", "bun", "tsx", "ts-node", "python", "python2", "python3", "pypy", "pypy3"],
  ...["ruby", "perl", "php", "lua", "luajit", "Rscript", "julia", "tclsh", "pwsh", "osascript"],
  ...["awk", "gawk", "mawk", "nawk", "sed", "env", "xargs", "sudo", "eval"],
]);

/** A rule with its pattern read once, so `decide` stays synchronous and cheap. */
export interface CompiledRule {
  /** The rule as the person made it. */
  rule: CommandRule;
  /** The pattern as compared with a whole line (see `lineKey`). */
  line: string;
  /** The pattern's words when it is one simple command and nothing else. */
  words?: string[];
}

/** What "always allow" may be offered for this command, or undefined when none may be. */
export function ruleOffer(parsed: ParsedCommandLine): RuleOffer | undefined {
  if (!allowable(parsed)) return undefined;
  const exact = parsed.source.trim();
  const [command] = parsed.commands;
  if (parsed.commands.length !== 1 || !command) return { exact, prefixes: [] };
  // Each prefix is written with the words as the person saw them, so it parses back to the same words.
  const texts = [command.nameWord.text, ...command.argWords.map((word) => word.text)];
  const words = commandWords(command);
  const whole = lineKey(parsed);
  const prefixes: string[] = [];
  // A command using an argument from the table gets only its exact line: a shorter prefix would not cover
  // it, and a longer one would be a rule about running programs or writing files, made in one click.
  const usesTable = tableHitAfter(words, words.slice(0, 1)) !== undefined;
  for (let count = 1; count <= texts.length && !usesTable; count++) {
    const prefix = words.slice(0, count);
    if (prefix.at(-1) === "--" || runsAnyCode(prefix) || tablePrefixProblem(prefix)) continue;
    const text = texts.slice(0, count).join(" ");
    if (count === texts.length && text === whole) continue;
    prefixes.push(text);
  }
  const program = words[0] ?? "";
  // Said on the offer so the summary gives the rule's real meaning: "any arguments except …".
  return prefixes.length > 0 && inArgumentTable(program)
    ? { exact, prefixes, except: effectsOf(program) }
    : { exact, prefixes };
}

/**
 * The argument table's first use in a command's words from a prefix rule's last word on: why the rule does
 * not cover the command (`-exec` after `find .`). The prefix's last word counts too, read with what follows
 * it (`ssh -o` then `ProxyCommand=…`). Undefined when the table has nothing to say.
 */
export function tableHitAfter(
  command: readonly string[],
  prefix: readonly string[],
): ArgumentHit | undefined {
  const [program, ...args] = command;
  if (program === undefined) return undefined;
  return argumentHits(program, args, { from: Math.max(0, prefix.length - 2), forRules: true })[0];
}

/**
 * Why an allow prefix of these words would mislead: it ends in an argument from the table, so it would
 * cover whatever follows (`find . -exec`, `sort -o`), or every argument of the program changes a file
 * (`rm`, `cp`), so it could never cover more than itself. Undefined when the prefix is fine.
 */
export function tablePrefixProblem(words: readonly string[]): string | undefined {
  const [program, ...args] = words;
  if (program === undefined) return undefined;
  const every = argumentHits(program, ["x"], { forRules: true }).find(
    (hit) => hit.entry.every === "argument",
  );
  if (every) return `every argument of ${program} names a file it changes`;
  if (args.length === 0) return undefined;
  const [last] = argumentHits(program, args, { from: args.length - 1, forRules: true });
  return last ? `it ends in ${last.argument}, which ${last.entry.does}` : undefined;
}

/** A rule as a person reads it, e.g. `allow "npm test" (prefix, workspace)`. */
export function describeRule(rule: CommandRule): string {
  return `${rule.effect} ${JSON.stringify(rule.pattern)} (${rule.match}, ${rule.scope})`;
}

/**
 * Only a plain line may be allowed by a rule: literal commands joined by `&&`, `||`, `;` or `|`, on one
 * line, that parsed cleanly. Anything else can hide a second command or a write behind familiar words.
 */
export function allowable(parsed: ParsedCommandLine): boolean {
  return (
    parsed.plain &&
    !parsed.multiline &&
    parsed.error === undefined &&
    parsed.commands.length > 0 &&
    parsed.commands.every((command) => command.literal)
  );
}

/**
 * The command's words as rules compare them: literal words after quote removal, others as written behind
 * a NUL (which no literal word can hold), so a deny rule's `~` is not the quoted `'~'`.
 */
export function commandWords(command: ParsedCommand): string[] {
  return [command.nameWord, ...command.argWords].map((word) =>
    word.literal ? word.value : `\0${word.text}`,
  );
}

export function startsWith(words: readonly string[], prefix: readonly string[]): boolean {
  return prefix.length <= words.length && prefix.every((word, i) => word === words[i]);
}

export function sameWords(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && startsWith(a, b);
}

/**
 * Tools that do many things, some of which run any code: a prefix rule must start with what they do (`npm
 * test`, `git status`), since the bare tool or its options allow `npm exec …`, `git -c alias.x='!…' x`,
 * `make --eval …`; and the subcommands listed run whatever they are given, so they need their target too.
 */
const RUNS_CODE_BY_SUBCOMMAND: ReadonlyMap<string, ReadonlySet<string>> = new Map(
  Object.entries({
    npm: ["exec", "x"],
    pnpm: ["exec", "dlx", "x"],
    yarn: ["exec", "dlx"],
    git: [],
    make: [],
    cargo: [],
    go: ["run"],
    uv: ["run", "tool"],
    pipx: ["run"],
    docker: ["run", "exec"],
    podman: ["run", "exec"],
  }).map(([tool, subcommands]) => [tool, new Set(subcommands)]),
);

/** Whether a prefix rule of these words would allow running any code at all. */
export function runsAnyCode(words: readonly string[]): boolean {
  const [program, ...rest] = words;
  if (program === undefined) return false;
  const optionsOnly = (list: readonly string[]) => list.every((word) => word.startsWith("-"));
  if (RUNS_ANY_CODE.has(program)) return optionsOnly(rest);
  const subcommands = RUNS_CODE_BY_SUBCOMMAND.get(program);
  if (!subcommands) return false;
  // Options before the subcommand (`git -c …`, `npm --script-shell …`) can make any subcommand run code.
  const [subcommand, ...after] = rest;
  if (subcommand === undefined || subcommand.startsWith("-")) return true;
  return subcommands.has(subcommand) && optionsOnly(after);
}

/**
 * The line as compared by exact rules: trimmed, and for a plain line with runs of blanks between words
 * collapsed to one space, so `npm  test` is `npm test`. Blanks inside a word (quoted, escaped) are kept:
 * the parser's word spans say where words are, so `echo "a  b"` stays distinct from `echo "a b"`. Other
 * lines are compared as trimmed text, since only deny rules can match them.
 */
export function lineKey(parsed: ParsedCommandLine): string {
  const { source } = parsed;
  if (!parsed.plain || parsed.error !== undefined) return source.trim();
  const spans = [
    ...parsed.commands.flatMap((command) => [command.nameWord, ...command.argWords]),
    ...parsed.redirects,
  ].sort((a, b) => a.start - b.start);
  let key = "";
  let at = 0;
  for (const span of spans) {
    if (span.end <= at) continue;
    const start = Math.max(at, span.start);
    key += source.slice(at, start).replace(/[ \t]+/g, " ") + source.slice(start, span.end);
    at = span.end;
  }
  return (key + source.slice(at).replace(/[ \t]+/g, " ")).trim();
}

/**
 * Checks a draft and reads its pattern; the error says what is wrong and what to write instead. A rule read
 * back from the rules file (`saved`) skips the argument table's checks: it was made under an older table,
 * and is kept (and matched narrowly, and marked) rather than dropped.
 */
export async function compileDraft(
  draft: RuleDraft,
  options: { saved?: boolean } = {},
): Promise<Omit<CompiledRule, "rule"> & { rule: RuleContent }> {
  const { effect, match, scope } = draft;
  if (!oneOf<RuleEffect>(effect, ["allow", "deny"])) {
    throw new Error(`A rule's effect must be "allow" or "deny", not ${JSON.stringify(effect)}.`);
  }
  if (!oneOf<RuleMatch>(match, ["exact", "prefix"])) {
    throw new Error(`A rule's match must be "exact" or "prefix", not ${JSON.stringify(match)}.`);
  }
  if (!oneOf<RuleScope>(scope, ["session", "workspace"])) {
    throw new Error(`A rule's scope must be "session" or "workspace", not ${JSON.stringify(scope)}.`);
  }
  if (typeof draft.pattern !== "string" || draft.pattern.trim() === "") {
    throw new Error("A rule needs a command: the pattern is empty. Type the command, or its first words.");
  }
  const pattern = draft.pattern.trim();
  if (/[\0\r\n]/.test(pattern)) {
    throw new Error("A rule's command must be a single line without NUL characters. Make one rule per line.");
  }
  if (pattern.length > MAX_COMMAND_LENGTH) {
    throw new Error(
      `A rule's command may be at most ${MAX_COMMAND_LENGTH} characters; this one has ${pattern.length}. Use a prefix rule with its first words.`,
    );
  }
  const parsed = await parseCommandLine(pattern);
  if (effect === "allow" && !allowable(parsed)) {
    throw new Error(
      `An allow rule must be a plain command (literal words; commands joined only by &&, ||, ; or |; no variables, substitutions, globs, wrappers or redirections to files), and "${pattern}" is not: ${notPlainBecause(parsed).replace(/\.+$/, "")}. Write it as a plain command, or keep approving it each time.`,
    );
  }
  const [only] = parsed.commands;
  const simple =
    parsed.error === undefined &&
    parsed.commands.length === 1 &&
    only !== undefined &&
    only.assignments.length === 0 &&
    parsed.redirects.length === 0;
  const words = simple && only ? commandWords(only) : undefined;
  if (match === "prefix" && !words) {
    throw new Error(
      `A prefix rule names the first words of one command, and "${pattern}" is not one simple command (${parsed.error ?? "it has several commands, a redirection or an assignment"}). Use an exact rule, or one prefix rule per command.`,
    );
  }
  if (effect === "allow" && match === "prefix" && words && runsAnyCode(words)) {
    throw new Error(
      `An allow rule for every "${pattern} ..." command would allow any code at all: "${pattern}" runs whatever it is given. Name what it runs (e.g. "node scripts/build.js", "npm test"), or use an exact rule.`,
    );
  }
  const tableProblem =
    effect === "allow" && match === "prefix" && words && !options.saved
      ? tablePrefixProblem(words)
      : undefined;
  if (tableProblem) {
    throw new Error(
      `An allow rule for every "${pattern} ..." command would cover more than it reads: ${tableProblem}. Use an exact rule for the whole command${(words?.length ?? 0) > 1 ? ", or a prefix that stops before that argument" : ""}.`,
    );
  }
  return {
    rule: { effect, match, pattern, scope },
    line: lineKey(parsed),
    ...(words ? { words } : {}),
  };
}

/** A rule without its id and creation time. */
export type RuleContent = Omit<CommandRule, "id" | "createdAt">;

function oneOf<T extends string>(value: unknown, choices: readonly T[]): value is T {
  return choices.includes(value as T);
}

function notPlainBecause(parsed: ParsedCommandLine): string {
  if (parsed.error !== undefined) return parsed.error;
  if (parsed.multiline) return "it spans several lines";
  if (parsed.commands.length === 0) return "it runs no command";
  const risk = parsed.risks.find((candidate) => candidate.kind !== "pipeline" && candidate.kind !== "list");
  if (risk)
    return `at ${JSON.stringify(risk.text)}, ${risk.note.charAt(0).toLowerCase()}${risk.note.slice(1)}`;
  return "some of its words are only known when it runs";
}
