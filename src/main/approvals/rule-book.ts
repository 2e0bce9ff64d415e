import { randomUUID } from "node:crypto";
import { readFile } from "node:fs/promises";
import type { CommandRule, RuleDraft, RuleEffect } from "../../shared/rules";
import { errorMessage } from "../base/errors";
import { ARGUMENT_TABLE_VERSION, type ParsedCommandLine } from "../run-command";
import { withFileLock, writeFileAtomic } from "../storage/atomic-file";
import type { RuleSubject } from "./approval-kinds";
import { compileRuleDraft, editRuleFor } from "./edit-rules";
import { mcpRuleFor } from "./mcp-rules";
import {
  allowable,
  type CompiledRule,
  commandWords,
  lineKey,
  sameWords,
  startsWith,
  tableHitAfter,
} from "./rule-patterns";
import { findTableMiss, narrowedSince, type TableMiss } from "./rule-table";

const RULES_FILE_VERSION = 1;

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

  private constructor(private readonly store: WorkspaceRuleStore) {}

  /** Reads the workspace's rules file; a missing one means no rules, an unreadable one is reported by `problem()`. */
  static async open(options: {
    /** The workspace's rules JSON file. */
    file: string;
  }): Promise<RuleBook> {
    const book = new RuleBook({ file: options.file, rules: [], problem: undefined, listeners: new Set() });
    await book.reload();
    return book;
  }

  /**
   * A book for another chat of the same workspace: its own session rules (none yet), the workspace rules
   * shared, so a rule one chat saves is in force in every other from its next request.
   */
  forChat(): RuleBook {
    return new RuleBook(this.store);
  }

  /** Calls `listener` after the workspace rules changed through any chat's book; returns its removal. */
  onWorkspaceChange(listener: () => void): () => void {
    this.store.listeners.add(listener);
    return () => this.store.listeners.delete(listener);
  }

  /** Reads the rules file again, to see rules another session saved since. */
  async reload(): Promise<void> {
    const loaded = await loadRulesFile(this.store.file);
    this.store.problem = "problem" in loaded ? loaded.problem : undefined;
    this.store.rules = "rules" in loaded ? loaded.rules : [];
  }

  /** Why the rules file could not be read, when it could not; its rules are then not in force. */
  problem(): string | undefined {
    return this.store.problem;
  }

  private get workspaceRules(): CompiledRule[] {
    return this.store.rules;
  }

  /** Session rules, then workspace rules, each oldest first. */
  list(): CommandRule[] {
    return [...this.sessionRules, ...this.workspaceRules].map((compiled) => ({ ...compiled.rule }));
  }

  /** Makes a rule; a workspace rule is saved at once. An identical rule already there is returned instead. */
  async add(draft: RuleDraft): Promise<CommandRule> {
    const compiled = await compileRuleDraft(draft);
    const same = (other: CompiledRule) =>
      other.rule.effect === draft.effect &&
      other.rule.match === draft.match &&
      (draft.match === "prefix"
        ? sameWords(other.words ?? [], compiled.words ?? [])
        : other.line === compiled.line);
    const make = (): CompiledRule => ({
      ...compiled,
      rule: {
        id: randomUUID(),
        ...compiled.rule,
        createdAt: Date.now(),
        tableVersion: ARGUMENT_TABLE_VERSION,
      },
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
    const compiled = await compileRuleDraft(draft);
    const session = this.sessionRules.find((candidate) => candidate.rule.id === id);
    if (session) {
      const updated = {
        ...compiled,
        rule: {
          id,
          ...compiled.rule,
          createdAt: session.rule.createdAt,
          tableVersion: ARGUMENT_TABLE_VERSION,
        },
      };
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
      // Saved again under today's table: the person has seen what it covers now, so no "narrowed" mark.
      updated = {
        ...compiled,
        rule: { id, ...compiled.rule, createdAt: old.rule.createdAt, tableVersion: ARGUMENT_TABLE_VERSION },
      };
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

  /** What the rules say about a request at the gate, whatever its kind; null when no rule decides. */
  decideFor(subject: RuleSubject): RuleVerdict | null {
    if (subject.kind === "command") return this.decide(subject.parsed);
    // Pi's codemode and tool_search: no rule decides them (approval-kinds.ts, `mcpSubject`).
    if (subject.kind === "pi-tool") return null;
    if (subject.kind === "mcp-tool")
      return mcpRuleFor([...this.sessionRules, ...this.workspaceRules], subject.server, subject.tool) ?? null;
    return editRuleFor([...this.sessionRules, ...this.workspaceRules], subject.path) ?? null;
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
    // And a prefix covers only arguments the argument table does not name: `find .` is not `find . -exec`.
    let first: CommandRule | undefined;
    for (const command of commands) {
      const match = allows.find(
        ({ rule, words }) =>
          rule.match === "prefix" &&
          words !== undefined &&
          startsWith(command, words) &&
          !tableHitAfter(command, words),
      );
      if (!match) return null;
      first ??= match.rule;
    }
    return first ? { effect: "allow", rule: first } : null;
  }

  /**
   * When `decide` left a line to the person: the allow prefix rule that starts like one of its commands
   * and would have covered it but for the argument table (the first such command, the first such rule).
   */
  missedByTable(parsed: ParsedCommandLine): TableMiss | undefined {
    return findTableMiss([...this.sessionRules, ...this.workspaceRules], parsed);
  }

  /** Applies a change to the workspace rules as they are in the file now, and saves it. */
  private async changeWorkspace(
    what: string,
    change: (rules: CompiledRule[]) => CompiledRule[],
  ): Promise<void> {
    const { store } = this;
    await withFileLock(store.file, async () => {
      // Read again under the lock: another session may have saved a rule since this book last looked.
      const loaded = await loadRulesFile(store.file);
      if ("problem" in loaded) {
        store.problem = loaded.problem;
        throw new Error(
          `${loaded.problem} The rule was not ${what}, because saving would replace that file. Fix or move the file, or use a session rule for now.`,
        );
      }
      const next = change(loaded.rules);
      // `narrowed` is worked out on reading, never stored.
      const content = {
        version: RULES_FILE_VERSION,
        rules: next.map(({ rule: { narrowed: _, ...rule } }) => rule),
      };
      await writeFileAtomic(store.file, `${JSON.stringify(content, null, 2)}\n`);
      store.problem = undefined;
      store.rules = next;
    });
    for (const listener of store.listeners) listener();
  }
}

/** A workspace's saved rules, held once and shared by the books of all its chats. */
interface WorkspaceRuleStore {
  /** The workspace's rules JSON file. */
  file: string;
  /** Its rules as last read or written. */
  rules: CompiledRule[];
  /** Why it could not be read, when it could not. */
  problem: string | undefined;
  /** Told after each change, to tell every chat's page. */
  listeners: Set<() => void>;
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
    return problem(errorMessage(error));
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    return problem(`it is not valid JSON (${errorMessage(error)})`);
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
      const compiled = await compileRuleDraft(stored as RuleDraft, { saved: true });
      const tableVersion = typeof stored.tableVersion === "number" ? stored.tableVersion : undefined;
      const rule: CommandRule = {
        id: stored.id,
        ...compiled.rule,
        createdAt: stored.createdAt,
        ...(tableVersion !== undefined ? { tableVersion } : {}),
      };
      const narrowed = narrowedSince(rule, compiled.words);
      rules.push({ ...compiled, rule: narrowed ? { ...rule, narrowed } : rule });
    } catch (error) {
      return problem(`${where}: ${errorMessage(error)}`);
    }
    ids.add(stored.id);
  }
  return { rules };
}
