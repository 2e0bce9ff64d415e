import type { CommandRule, RuleNotApplied } from "../../shared/rules";
import { ARGUMENT_TABLE_VERSION, effectsOf, inArgumentTable, type ParsedCommandLine } from "../run-command";
import { allowable, type CompiledRule, commandWords, startsWith, tableHitAfter } from "./rule-patterns";

/*
 * The rules and the argument table, seen from the person's side: which rule did not apply to a command
 * because of the table (for the card and the audit log), and which saved rules now cover less than they did.
 */

/** An allow prefix rule that starts like a command but does not cover it, because of the argument table. */
export interface TableMiss {
  /** The rule. */
  rule: CommandRule;
  /** What the card shows. */
  notApplied: RuleNotApplied;
  /** In words, for the audit log: `-exec runs another program for each file`. */
  why: string;
}

/**
 * The allow prefix rule that starts like one of the line's commands and would have covered it but for the
 * argument table (the first such command, the first such rule); undefined when a rule covers every such
 * command, or none starts like it. Only for lines a rule may allow at all.
 */
export function findTableMiss(
  rules: readonly CompiledRule[],
  parsed: ParsedCommandLine,
): TableMiss | undefined {
  if (!allowable(parsed)) return undefined;
  const prefixes = rules.filter(
    ({ rule, words }) => rule.effect === "allow" && rule.match === "prefix" && words !== undefined,
  );
  for (const command of parsed.commands.map(commandWords)) {
    const starting = prefixes.filter(({ words }) => startsWith(command, words ?? []));
    if (starting.some(({ words }) => !tableHitAfter(command, words ?? []))) continue;
    for (const { rule, words } of starting) {
      const hit = tableHitAfter(command, words ?? []);
      if (!hit) continue;
      return {
        rule: { ...rule },
        notApplied: { pattern: rule.pattern, argument: hit.argument, effect: hit.entry.effect },
        why: `${hit.argument} ${hit.entry.does}`,
      };
    }
  }
  return undefined;
}

/**
 * What an allow prefix rule saved under an older argument table (or before there was one) no longer covers:
 * the table's effects for its program. Undefined when the rule means what it did.
 */
export function narrowedSince(
  rule: CommandRule,
  words: readonly string[] | undefined,
): CommandRule["narrowed"] {
  if (rule.effect !== "allow" || rule.match !== "prefix" || !words?.[0]) return undefined;
  if ((rule.tableVersion ?? 0) >= ARGUMENT_TABLE_VERSION || !inArgumentTable(words[0])) return undefined;
  return effectsOf(words[0]);
}
