import type { CommandRule, RuleDraft, RuleEffect, RuleScope } from "../../shared/rules";
import { compileMcpDraft, isMcpRule } from "./mcp-rules";
import { type CompiledRule, compileDraft, type RuleContent } from "./rule-patterns";

/** The matches that are about file edits, not commands: one file, or every edit in the workspace. */
const EDIT_MATCHES = ["file", "any-file"] as const;

/** Whether a rule is about file edits (its pattern a path, or `*`). */
export function isEditRule(rule: Pick<CommandRule, "match">): boolean {
  return (EDIT_MATCHES as readonly string[]).includes(rule.match);
}

/**
 * Checks a draft and reads its pattern, whatever its kind: a file-edit rule names a workspace-relative
 * path (`file`) or `*` (`any-file`), an MCP rule a tool or a server (mcp-rules.ts); anything else is a
 * command rule, read by the shell parser.
 */
export async function compileRuleDraft(
  draft: RuleDraft,
  options: { saved?: boolean } = {},
): Promise<Omit<CompiledRule, "rule"> & { rule: RuleContent }> {
  if (!isEditRule(draft) && !isMcpRule(draft)) return compileDraft(draft, options);
  const { effect, match, scope } = draft;
  if (!(["allow", "deny"] as RuleEffect[]).includes(effect)) {
    throw new Error(`A rule's effect must be "allow" or "deny", not ${JSON.stringify(effect)}.`);
  }
  if (!(["session", "workspace"] as RuleScope[]).includes(scope)) {
    throw new Error(`A rule's scope must be "session" or "workspace", not ${JSON.stringify(scope)}.`);
  }
  if (isMcpRule(draft)) return compileMcpDraft(draft);
  const pattern = typeof draft.pattern === "string" ? draft.pattern.trim() : "";
  if (match === "any-file" && pattern !== "*") {
    throw new Error('A rule for every edit in the workspace has the pattern "*".');
  }
  if (match === "file") {
    const parts = pattern.split("/");
    if (
      pattern === "" ||
      /[\0\r\n\\]/.test(pattern) ||
      pattern.startsWith("/") ||
      parts.some((part) => part === "" || part === "." || part === "..")
    ) {
      throw new Error(
        `A rule for edits to one file names it relative to the workspace with / between folders (e.g. "src/app.ts"), and ${JSON.stringify(pattern)} does not.`,
      );
    }
  }
  return { rule: { effect, match, pattern, scope }, line: pattern };
}

/** The rule that decides an edit of `path` (workspace-relative), deny before allow; undefined when none does. */
export function editRuleFor(
  rules: readonly CompiledRule[],
  path: string,
): { effect: RuleEffect; rule: CommandRule } | undefined {
  const matches = ({ rule }: CompiledRule) =>
    (rule.match === "file" && rule.pattern === path) || rule.match === "any-file";
  const deny = rules.find((compiled) => compiled.rule.effect === "deny" && matches(compiled));
  if (deny) return { effect: "deny", rule: deny.rule };
  const allow = rules.find((compiled) => compiled.rule.effect === "allow" && matches(compiled));
  return allow ? { effect: "allow", rule: allow.rule } : undefined;
}
