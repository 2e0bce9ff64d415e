import type { AllowedHostsSaved } from "../../../shared/network";
import type { Messages } from "../i18n/en";

/**
 * Resolves once the host saved the allowed hosts; otherwise throws its refusal in the page's words (the host's
 * English where the page does not know a problem), for `useAction` to show beside the control.
 */
export async function requireSaved(call: Promise<AllowedHostsSaved>, t: Messages): Promise<void> {
  const outcome = await call;
  if (outcome.saved) return;
  throw new Error(t.network.entryProblems(outcome.problems) || outcome.message);
}
