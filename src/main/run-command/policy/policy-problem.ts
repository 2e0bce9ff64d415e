import type { PolicyProblem } from "../../../shared/host-text";

/** Why one part of a line is refused: the English phrase, and the same as a kind when it has one. */
export interface Problem {
  /** A phrase saying why: `"cat" is not on the allowlist`. */
  why: string;
  /** The phrase as a kind and its parameters, for the page to word in its language. */
  say?: PolicyProblem;
}

/** A problem with its page wording. */
export const said = (why: string, say: PolicyProblem): Problem => ({ why, say });
