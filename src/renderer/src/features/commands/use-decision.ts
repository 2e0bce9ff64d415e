import { useState } from "react";
import type { ApprovalDecision } from "../../../../shared/commands";
import type { EditDecision } from "../../../../shared/edits";
import type { McpDecision } from "../../../../shared/mcp";
import type { RuleDraft } from "../../../../shared/rules";
import type { ChatApi } from "../../client/chat-api";
import { reasonOf } from "../../lib/format";
import { followTranscriptEnd } from "../chat/transcript-reveal";

/**
 * What every approval card shares, whatever it asks about (a command, a file edit): one decision in flight
 * at a time, busy until the host moves the request on (the card is then replaced), and the host's refusal
 * shown on the card in `error`.
 */
export function useDecision(
  api: ChatApi,
  approvalId: string | undefined,
  failed: (reason: string) => string,
) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const send = (decision: ApprovalDecision | EditDecision | McpDecision, rule?: RuleDraft) => {
    if (!approvalId || busy) return;
    setBusy(true);
    setError(null);
    // The person wants to see what comes of their decision.
    followTranscriptEnd();
    api.decide(rule ? { approvalId, decision, rule } : { approvalId, decision }).catch((e: unknown) => {
      setError(failed(reasonOf(e)));
      setBusy(false);
    });
  };
  return { busy, error, send };
}
