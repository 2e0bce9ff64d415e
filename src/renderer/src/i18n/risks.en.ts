import type { RiskText } from "../../../shared/host-text";

/** Notes that depend only on the construct's kind. */
const FIXED: Record<string, string> = {
  arithmetic: "Evaluates a variable as arithmetic: a value such as a[$(cmd)] would run cmd.",
  evaluation: "Evaluates text from a variable as shell code: a value such as $(cmd) would run cmd.",
  "command-substitution": "Runs the command inside and uses its output here.",
  "process-substitution": "Runs the command inside and connects it to a temporary file.",
  subshell: "Runs these commands in a subshell; each one is checked.",
  group: "Runs this group of commands; each one is checked.",
  function: "Defines a shell function: a new name that runs other commands.",
  expansion: "Replaced by a value only known when the line runs.",
  comment: "A comment: the shell ignores it, so it does not say what runs.",
  newline: "A new line starts another command; each one is checked.",
  pipeline: "Sends this command's output into the next command.",
  list: "Runs another command after this one.",
  background: "Runs the command in the background, where it can outlive this run.",
};

const REDIRECT: Record<string, string> = {
  write: "Writes the command's output to a file.",
  read: "Reads the command's input from a file.",
  "read-write": "Opens a file for reading and writing.",
  duplicate: "Copies one output stream onto another.",
  close: "Closes a stream.",
  heredoc: "Feeds the following lines to the command's input.",
  herestring: "Feeds this text to the command's input.",
};

/** What each group of uncheckable commands does, completing `"name" …` (the refusals use it too). */
export const UNCHECKED: Record<string, string> = {
  "shell-code": "runs its arguments as shell code or bypasses the shell's lookup",
  "shell-meaning": "changes what names or signals mean to the shell, or runs code later",
  shell: "is a shell: it runs a script or string of commands the policy cannot check",
  "built-command": "runs a command built from its input or arguments, which the policy cannot check",
  "not-unwrapped": "runs a command the policy does not unwrap",
  "other-user": "runs a command as another user or in another root, which the policy does not allow",
  "package-runner": "runs whatever package binary it names, possibly downloaded; use an npm script instead",
};

/** A risk note in English, from its kind and parameters; empty for a kind this page does not know. */
export function riskTextEn(say: RiskText): string {
  switch (say.id) {
    case "fixed":
      return FIXED[say.kind] ?? "";
    case "redirect":
      return REDIRECT[say.kind] ?? "";
    case "list-operator":
      return `"${say.operator}" runs the next command depending on how this one ends.`;
    case "pattern":
      return "A pattern (glob, braces or ~) the shell expands when it runs.";
    case "integer":
      return "Makes the variables integers: every value given them is evaluated as arithmetic.";
    case "compound":
      return `A "${say.keyword}" statement: the commands in it may run many times or not at all.`;
    case "lookalike":
      return `The name "${say.name}" has characters outside plain ASCII: it may look like another name.`;
    case "unchecked":
      return UNCHECKED[say.group] === undefined ? "" : `"${say.name}" ${UNCHECKED[say.group]}.`;
    case "runs-next":
      return `"${say.name}" runs the command that follows it: ${say.inner}.`;
    case "assignment":
      return `Sets the variable ${say.name} in ${say.reach === "shell" ? "the shell" : "the command's environment"}.`;
    case "unreadable":
      return "The shell grammar could not read this part.";
    case "misread":
      return "bash reads this character as part of a word; the checker cannot: quote the word.";
    case "hidden-character":
      return "An invisible or direction-changing character: the line may not run the way it reads.";
  }
}
