import type { RuleDraft } from "../../../../shared/rules";
import { useT } from "../../i18n/i18n";
import { AlwaysAllowChoiceForm, type RuleChoice } from "../commands/AlwaysAllowChoiceForm";

/** What the person picks for an "always allow" of MCP calls: this tool or every tool of the server, and for how long. */
export type ToolRuleChoice = RuleChoice<"tool" | "server">;

/** The rule a choice makes. */
export function toolRule(server: string, tool: string, choice: ToolRuleChoice): RuleDraft {
  return choice.what === "tool"
    ? { effect: "allow", match: "mcp-tool", pattern: `${server}/${tool}`, scope: choice.scope }
    : { effect: "allow", match: "mcp-server", pattern: server, scope: choice.scope };
}

/**
 * "Always allow" for an MCP call: calls of this tool, or of every tool of its server, for this chat or the
 * workspace. Made by the person only: a server's hints never make one.
 */
export function AlwaysAllowToolForm({
  server,
  tool,
  ...form
}: {
  server: string;
  tool: string;
  choice: ToolRuleChoice;
  onChoice: (choice: ToolRuleChoice) => void;
  onConfirm: () => void;
  onBack: () => void;
  busy: boolean;
}) {
  const t = useT();
  return (
    <AlwaysAllowChoiceForm
      {...form}
      options={[
        { value: "tool", label: t.mcp.allowThisTool(server, tool) },
        { value: "server", label: t.mcp.allowServer(server) },
      ]}
      summary={t.mcp.ruleSummary}
      testIdPrefix="rule-tools"
    />
  );
}
