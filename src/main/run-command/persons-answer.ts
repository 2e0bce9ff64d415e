import type { ApprovalDecision } from "../../shared/commands";
import type { RefusalText } from "../../shared/host-text";
import type { CommandFacts } from "./command-result";
import { resolveTimeout, type TimeoutLimits } from "./command-timeout";

/** The person's answer to a waiting command, or the turn stopped while it waited. */
export type PersonsAnswer = ApprovalDecision | { kind: "cancelled" };

/** Why the host refuses a command: the English sentence, and the same as a kind when it has one. */
export interface Refusal {
  refusal: string;
  say?: RefusalText;
}

/** Waits for the person, or for the turn to be stopped, whichever comes first. */
export async function askPerson<Request>(
  approve: (request: Request, signal: AbortSignal | undefined) => Promise<ApprovalDecision>,
  request: Request,
  signal: AbortSignal | undefined,
): Promise<PersonsAnswer> {
  if (signal?.aborted) return { kind: "cancelled" };
  const stopped = new Promise<PersonsAnswer>((resolve) =>
    signal?.addEventListener("abort", () => resolve({ kind: "cancelled" }), { once: true }),
  );
  const answer = await Promise.race([approve(request, signal), stopped]);
  return signal?.aborted ? { kind: "cancelled" } : answer;
}

/** Applies the person's edit; an edited timeout is validated like the model's. */
export function applyEdit(
  facts: CommandFacts,
  decision: Extract<ApprovalDecision, { kind: "approve" }>,
  limits: TimeoutLimits,
): { facts: CommandFacts } | Refusal {
  let { command, timeoutSeconds } = facts;
  if (decision.command !== undefined) command = decision.command;
  if (decision.timeoutSeconds !== undefined) {
    const timeout = resolveTimeout(decision.timeoutSeconds, limits);
    if (!timeout.ok) return { refusal: timeout.error, say: timeout.say };
    timeoutSeconds = timeout.seconds;
  }
  const edited = command !== facts.command || timeoutSeconds !== facts.timeoutSeconds;
  return { facts: { ...facts, command, timeoutSeconds, edited } };
}
