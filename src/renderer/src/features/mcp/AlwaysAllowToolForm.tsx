import { type FormEvent, useId } from "react";
import type { RuleDraft, RuleScope } from "../../../../shared/rules";
import { useT } from "../../i18n/i18n";
import { useTestId } from "../commands/card-scope";
import { RuleScopeAndConfirm, useFocusOnMount } from "../commands/PendingForms";

/** What the person picks for an "always allow" of MCP calls: this tool or every tool of the server, and for how long. */
export interface ToolRuleChoice {
  what: "tool" | "server";
  scope: RuleScope;
}

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
  choice,
  onChoice,
  onConfirm,
  onBack,
  busy,
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
  const tid = useTestId();
  const name = useId();
  const first = useFocusOnMount<HTMLInputElement>();
  const options = [
    { value: "tool" as const, label: t.mcp.allowThisTool(server, tool) },
    { value: "server" as const, label: t.mcp.allowServer(server) },
  ];
  const what = options.find((option) => option.value === choice.what)?.label ?? "";
  const scope = choice.scope === "session" ? t.command.scopeSession : t.command.scopeWorkspace;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    onConfirm();
  };
  return (
    <form className="card-form" onSubmit={submit} data-testid={tid("always-allow-form")}>
      <fieldset>
        <legend>{t.command.ruleWhat}</legend>
        {options.map((option) => (
          <label key={option.value} className="choice">
            <input
              ref={option.value === "tool" ? first : undefined}
              type="radio"
              name={`${name}-what`}
              checked={choice.what === option.value}
              onChange={() => onChoice({ ...choice, what: option.value })}
              data-testid={tid(`rule-tools-${option.value}`)}
            />
            {option.label}
          </label>
        ))}
      </fieldset>
      <RuleScopeAndConfirm
        name={name}
        scope={choice.scope}
        onScope={(scope) => onChoice({ ...choice, scope })}
        summary={t.mcp.ruleSummary(what, scope)}
        onBack={onBack}
        busy={busy}
      />
    </form>
  );
}
