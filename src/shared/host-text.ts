import type { BackgroundState } from "./background";

/**
 * What a risk note says, as a kind and its parameters rather than an English sentence, so the page words it
 * in its own language. The host still sends its English `note` beside it (the model and the audit log read
 * English), and the page falls back to that note for a kind it does not know.
 */
export type RiskText =
  /** A note that depends only on the construct's kind (pipeline, command substitution, ...). */
  | { id: "fixed"; kind: string }
  /** What a redirection does: write, read, read-write, duplicate, close, heredoc, herestring. */
  | { id: "redirect"; kind: string }
  /** `&&` or `||`: the next command runs depending on how this one ends. */
  | { id: "list-operator"; operator: string }
  /** A glob, braces or `~` the shell expands when the line runs. */
  | { id: "pattern" }
  /** `declare -i`: every value given the variables is evaluated as arithmetic. */
  | { id: "integer" }
  /** A `for`, `while`, `if` or `case` statement. */
  | { id: "compound"; keyword: string }
  /** A command name with characters outside plain ASCII. */
  | { id: "lookalike"; name: string }
  /** A command that runs code the policy cannot check, by what it does (see `UNCHECKABLE_GROUPS`). */
  | { id: "unchecked"; name: string; group: string }
  /** A wrapper (`env`, `timeout`, `nohup`, ...) and the command it runs. */
  | { id: "runs-next"; name: string; inner: string }
  /** A variable set in the shell or in the command's environment. */
  | { id: "assignment"; name: string; reach: "shell" | "environment" }
  /** A part of the line the shell grammar could not read. */
  | { id: "unreadable" }
  /** An invisible or direction-changing character. */
  | { id: "hidden-character" };

/**
 * What a host notice in the transcript says, as a kind and its parameters, for the page to word in its
 * language; the notice's English `text` stays beside it as the fallback.
 */
export type NoticeText =
  /** A background command stopped or exited: its command line and how it ended. */
  { id: "background-ended"; command: string; state: BackgroundState };
