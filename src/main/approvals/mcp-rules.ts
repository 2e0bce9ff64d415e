import type { CommandRule, RuleDraft, RuleEffect } from "../../shared/rules";
import type { CompiledRule, RuleContent } from "./rule-patterns";

/** The matches that are about MCP tools: one tool of a server (`server/tool`), or every tool of a server. */
const MCP_MATCHES = ["mcp-tool", "mcp-server"] as const;

/** A server's name as mcp.json allows it: letters, digits, `_` and `-` (Pi's rule). */
const SERVER_NAME = /^[A-Za-z0-9_-]+$/;

/** Whether a rule is about MCP tools. */
export function isMcpRule(rule: Pick<CommandRule, "match">): boolean {
  return (MCP_MATCHES as readonly string[]).includes(rule.match);
}

/** Checks an MCP rule's pattern: `server/tool` for one tool, `server` for all of a server's tools. */
export function compileMcpDraft(draft: RuleDraft): { rule: RuleContent; line: string } {
  const { effect, match, scope } = draft;
  const pattern = typeof draft.pattern === "string" ? draft.pattern.trim() : "";
  const slash = pattern.indexOf("/");
  const server = slash < 0 ? pattern : pattern.slice(0, slash);
  const tool = slash < 0 ? "" : pattern.slice(slash + 1);
  if (match === "mcp-server" && (!SERVER_NAME.test(pattern) || slash >= 0)) {
    throw new Error(
      `A rule for every tool of an MCP server names the server as in mcp.json (letters, digits, "_" and "-"), and ${JSON.stringify(pattern)} does not.`,
    );
  }
  if (match === "mcp-tool" && (!SERVER_NAME.test(server) || tool === "" || /[\0\r\n]/.test(tool))) {
    throw new Error(
      `A rule for one MCP tool names it as "server/tool" (e.g. "github/get_issue"), and ${JSON.stringify(pattern)} does not.`,
    );
  }
  return { rule: { effect, match, pattern, scope }, line: pattern };
}

/**
 * The rule that decides a call of `server`'s `tool`, deny before allow (whichever names it, the tool or its
 * whole server); undefined when none does. A server's own hints never count: only the person's rules do.
 */
export function mcpRuleFor(
  rules: readonly CompiledRule[],
  server: string,
  tool: string,
): { effect: RuleEffect; rule: CommandRule } | undefined {
  const matches = ({ rule }: CompiledRule) =>
    (rule.match === "mcp-tool" && rule.pattern === `${server}/${tool}`) ||
    (rule.match === "mcp-server" && rule.pattern === server);
  const deny = rules.find((compiled) => compiled.rule.effect === "deny" && matches(compiled));
  if (deny) return { effect: "deny", rule: deny.rule };
  const allow = rules.find((compiled) => compiled.rule.effect === "allow" && matches(compiled));
  return allow ? { effect: "allow", rule: allow.rule } : undefined;
}
