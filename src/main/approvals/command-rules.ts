import { randomUUID } from "node:crypto";
import { readFile } from "node:fs/promises";
import type { RuleOffer } from "../../shared/commands";
import type { CommandRule, RuleDraft, RuleEffect, RuleMatch, RuleScope } from "../../shared/rules";
import { UNCHECKABLE_COMMANDS, UNWRAPPED_WRAPPERS } from "../tools/command-wrappers";
import {
  MAX_COMMAND_LENGTH,
  type ParsedCommand,
  type ParsedCommandLine,
  parseCommandLine,
} from "../tools/shell-parser";
import { withFileLock, writeFileAtomic } from "./workspace-data";

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

const RULES_FILE_VERSION = 1;

/** A rule with its pattern read once, so `decide` stays synchronous and cheap. */
interface CompiledRule {
  /** The rule as the person made it. */
  rule: CommandRule;
  /** The pattern as compared with a whole line (see `lineKey`). */
  line: string;
  /** The pattern's words when it is one simple command and nothing else. */
  words?: string[];
}

/** What the rules say about a command line. */
export interface RuleVerdict {
  /** Run it without asking, or refuse it without asking. */
  effect: RuleEffect;
  /** The rule that decided (for a list of commands allowed rule by rule: the first command's rule). */
  rule: CommandRule;
}

/**
 * "Always allow / always deny" rules for one workspace: workspace rules kept in a JSON file shared by every
 * session on the workspace, and session rules kept in memory by this book only.
 */
export class RuleBook {
  private sessionRules: CompiledRule[] = [];
  private workspaceRules: CompiledRule[] = [];
  private readProblem: string | undefined;

  private constructor(private readonly file: string) {}

  /** Reads the workspace's rules file; a missing one means no rules, an unreadable one is reported by `problem()`. */
  static async open(options: {
    /** The workspace's rules JSON file. */
    file: string;
  }): Promise<RuleBook> {
    const book = new RuleBook(options.file);
    await book.reload();
    return book;
  }

  /** Reads the rules file again, to see rules another session saved since. */
  async reload(): Promise<void> {
    const loaded = await loadRulesFile(this.file);
    this.readProblem = "problem" in loaded ? loaded.problem : undefined;
    this.workspaceRules = "rules" in loaded ? loaded.rules : [];
  }

  /** Why the rules file could not be read, when it could not; its rules are then not in force. */
  problem(): string | undefined {
    return this.readProblem;
  }

  /** Session rules, then workspace rules, each oldest first. */
  list(): CommandRule[] {
    return [...this.sessionRules, ...this.workspaceRules].map((compiled) => ({ ...compiled.rule }));
  }

  /** Makes a rule; a workspace rule is saved at once. An identical rule already there is returned instead. */
  async add(draft: RuleDraft): Promise<CommandRule> {
    const compiled = await compileDraft(draft);
    const same = (other: CompiledRule) =>
      other.rule.effect === draft.effect &&
      other.rule.match === draft.match &&
      (draft.match === "prefix"
        ? sameWords(other.words ?? [], compiled.words ?? [])
        : other.line === compiled.line);
    const make = (): CompiledRule => ({
      ...compiled,
      rule: { id: randomUUID(), ...compiled.rule, createdAt: Date.now() },
    });
    if (draft.scope === "session") {
      const rule = this.sessionRules.find(same) ?? make();
      if (!this.sessionRules.includes(rule)) this.sessionRules.push(rule);
      return { ...rule.rule };
    }
    let added: CompiledRule | undefined;
    await this.changeWorkspace("saved", (rules) => {
      added = rules.find(same) ?? make();
      return rules.includes(added) ? rules : [...rules, added];
    });
    return { ...(added as CompiledRule).rule };
  }

  /** Replaces a rule's content (scope changes move it to or from the file); its id and creation time stay. */
  async update(id: string, draft: RuleDraft): Promise<CommandRule> {
    const compiled = await compileDraft(draft);
    const session = this.sessionRules.find((candidate) => candidate.rule.id === id);
    if (session) {
      const updated = { ...compiled, rule: { id, ...compiled.rule, createdAt: session.rule.createdAt } };
      if (draft.scope === "workspace") await this.changeWorkspace("saved", (rules) => [...rules, updated]);
      this.sessionRules = this.sessionRules.flatMap((candidate) =>
        candidate !== session ? [candidate] : draft.scope === "session" ? [updated] : [],
      );
      return { ...updated.rule };
    }
    let updated: CompiledRule | undefined;
    await this.changeWorkspace("updated", (rules) => {
      const old = rules.find((candidate) => candidate.rule.id === id);
      if (!old) throw unknownRule(id);
      updated = { ...compiled, rule: { id, ...compiled.rule, createdAt: old.rule.createdAt } };
      const keep = draft.scope === "workspace" ? [updated] : [];
      return rules.flatMap((candidate) => (candidate === old ? keep : [candidate]));
    });
    const result = updated as CompiledRule;
    if (draft.scope === "session") this.sessionRules.push(result);
    return { ...result.rule };
  }

  /** Removes a rule, from the file if it is a workspace rule. */
  async remove(id: string): Promise<void> {
    const before = this.sessionRules.length;
    this.sessionRules = this.sessionRules.filter((candidate) => candidate.rule.id !== id);
    if (this.sessionRules.length !== before) return;
    await this.changeWorkspace("removed", (rules) => {
      if (!rules.some((candidate) => candidate.rule.id === id)) throw unknownRule(id);
      return rules.filter((candidate) => candidate.rule.id !== id);
    });
  }

  /** Forgets this book's session rules (a new conversation starts with none). */
  clearSessionRules(): void {
    this.sessionRules = [];
  }

  /** What the rules say about a parsed command line: deny wins over allow; null when no rule decides. */
  decide(parsed: ParsedCommandLine): RuleVerdict | null {
    const rules = [...this.sessionRules, ...this.workspaceRules];
    const line = lineKey(parsed);
    const commands = parsed.commands.map(commandWords);
    // Deny looks at every command, nested and wrapped ones included, whatever the line is like: refusing
    // without asking is the safe direction. A miss only means the person is asked.
    for (const { rule, line: pattern, words } of rules) {
      if (rule.effect !== "deny") continue;
      const matches =
        rule.match === "exact"
          ? pattern === line || (words !== undefined && commands.some((command) => sameWords(command, words)))
          : words !== undefined && commands.some((command) => startsWith(command, words));
      if (matches) return { effect: "deny", rule };
    }
    if (!allowable(parsed)) return null;
    const allows = rules.filter(({ rule }) => rule.effect === "allow");
    const whole = allows.find(({ rule, line: pattern }) => rule.match === "exact" && pattern === line);
    if (whole) return { effect: "allow", rule: whole.rule };
    // A list or pipeline is allowed only when each of its commands is: `npm test && rm -rf ~` must not
    // ride on "npm test".
    let first: CommandRule | undefined;
    for (const command of commands) {
      const match = allows.find(
        ({ rule, words }) => rule.match === "prefix" && words !== undefined && startsWith(command, words),
      );
      if (!match) return null;
      first ??= match.rule;
    }
    return first ? { effect: "allow", rule: first } : null;
  }

  /** Applies a change to the workspace rules as they are in the file now, and saves it. */
  private async changeWorkspace(
    what: string,
    change: (rules: CompiledRule[]) => CompiledRule[],
  ): Promise<void> {
    await withFileLock(this.file, async () => {
      // Read again under the lock: another session may have saved a rule since this book last looked.
      const loaded = await loadRulesFile(this.file);
      if ("problem" in loaded) {
        this.readProblem = loaded.problem;
        throw new Error(
          `${loaded.problem} The rule was not ${what}, because saving would replace that file. Fix or move the file, or use a session rule for now.`,
        );
      }
      const next = change(loaded.rules);
      const content = { version: RULES_FILE_VERSION, rules: next.map(({ rule }) => rule) };
      await writeFileAtomic(this.file, `${JSON.stringify(content, null, 2)}\n`);
      this.readProblem = undefined;
      this.workspaceRules = next;
    });
  }
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
  for (let count = 1; count <= texts.length; count++) {
    const prefix = words.slice(0, count);
    if (prefix.at(-1) === "--" || runsAnyCode(prefix)) continue;
    const text = texts.slice(0, count).join(" ");
    if (count === texts.length && text === whole) continue;
    prefixes.push(text);
  }
  return { exact, prefixes };
}

/** A rule as a person reads it, e.g. `allow "npm test" (prefix, workspace)`. */
export function describeRule(rule: CommandRule): string {
  return `${rule.effect} ${JSON.stringify(rule.pattern)} (${rule.match}, ${rule.scope})`;
}

/**
 * Only a plain line may be allowed by a rule: literal commands joined by `&&`, `||`, `;` or `|`, on one
 * line, that parsed cleanly. Anything else can hide a second command or a write behind familiar words.
 */
function allowable(parsed: ParsedCommandLine): boolean {
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
function commandWords(command: ParsedCommand): string[] {
  return [command.nameWord, ...command.argWords].map((word) =>
    word.literal ? word.value : `\0${word.text}`,
  );
}

function startsWith(words: readonly string[], prefix: readonly string[]): boolean {
  return prefix.length <= words.length && prefix.every((word, i) => word === words[i]);
}

function sameWords(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && startsWith(a, b);
}

function runsAnyCode(words: readonly string[]): boolean {
  const [program, ...rest] = words;
  return program !== undefined && RUNS_ANY_CODE.has(program) && rest.every((word) => word.startsWith("-"));
}

/**
 * The line as compared by exact rules: trimmed, and for a plain line with runs of blanks between words
 * collapsed to one space, so `npm  test` is `npm test`. Blanks inside a word (quoted, escaped) are kept:
 * the parser's word spans say where words are, so `echo "a  b"` stays distinct from `echo "a b"`. Other
 * lines are compared as trimmed text, since only deny rules can match them.
 */
function lineKey(parsed: ParsedCommandLine): string {
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

/** Checks a draft and reads its pattern; the error says what is wrong and what to write instead. */
async function compileDraft(draft: RuleDraft): Promise<Omit<CompiledRule, "rule"> & { rule: RuleContent }> {
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
      `An allow rule for every "${pattern} ..." command would allow any code at all: ${words[0]} runs whatever it is given. Name what it runs (e.g. "node scripts/build.js"), or use an exact rule.`,
    );
  }
  return {
    rule: { effect, match, pattern, scope },
    line: lineKey(parsed),
    ...(words ? { words } : {}),
  };
}

/** A rule without its id and creation time. */
type RuleContent = Omit<CommandRule, "id" | "createdAt">;

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

function unknownRule(id: string): Error {
  return new Error(`There is no rule with id "${id}"; it may have been removed already. Reload the rules.`);
}

/** The workspace rules in a file, or why they could not be read. */
async function loadRulesFile(file: string): Promise<{ rules: CompiledRule[] } | { problem: string }> {
  const problem = (detail: string) => ({
    problem: `The rules file ${file} could not be read: ${detail}. It was left untouched, and its rules are not in force.`,
  });
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return { rules: [] };
    return problem(error instanceof Error ? error.message : String(error));
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    return problem(`it is not valid JSON (${error instanceof Error ? error.message : String(error)})`);
  }
  const content = data as { version?: unknown; rules?: unknown };
  if (typeof data !== "object" || data === null || content.version !== RULES_FILE_VERSION) {
    return problem(`it is not a version ${RULES_FILE_VERSION} rules file`);
  }
  if (!Array.isArray(content.rules)) return problem(`it has no "rules" list`);
  const rules: CompiledRule[] = [];
  const ids = new Set<string>();
  for (const [index, entry] of content.rules.entries()) {
    const stored = entry as Partial<CommandRule> | null;
    const where = `rule ${index + 1}`;
    if (typeof stored?.id !== "string" || stored.id === "" || ids.has(stored.id)) {
      return problem(`${where} has no id, or the same id as another rule`);
    }
    if (typeof stored.createdAt !== "number" || !Number.isFinite(stored.createdAt)) {
      return problem(`${where} has no creation time`);
    }
    if (stored.scope !== "workspace") return problem(`${where} is not a workspace rule`);
    try {
      const compiled = await compileDraft(stored as RuleDraft);
      rules.push({ ...compiled, rule: { id: stored.id, ...compiled.rule, createdAt: stored.createdAt } });
    } catch (error) {
      return problem(`${where}: ${error instanceof Error ? error.message : String(error)}`);
    }
    ids.add(stored.id);
  }
  return { rules };
}
