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
  /** A character bash keeps in a word that the shell grammar reads as a blank (`\ `, a CR, \v, \f). */
  | { id: "misread" }
  /** An invisible or direction-changing character. */
  | { id: "hidden-character" };

/**
 * What a host notice in the transcript says, as a kind and its parameters, for the page to word in its
 * language; the notice's English `text` stays beside it as the fallback.
 */
export type NoticeText =
  /** A background command stopped or exited: its command line and how it ended. */
  | { id: "background-ended"; command: string; state: BackgroundState }
  /** The person named the chat (`/name`). */
  | { id: "chat-named"; name: string }
  /** A rewind of the chat was cut short by Pi Desk stopping; at the next start it was finished or rolled back. */
  | {
      id: "rewind-recovered";
      outcome: "finished" | "rolled-back";
      /** "switch": it was a switch to another branch; "back": "Back to where I was" (absent: a rewind). */
      kind?: "switch" | "back";
    };

/**
 * One thing the command policy refused in a line, as a kind and its parameters (the host's phrase for it is
 * one part of the policy's English sentence).
 */
export type PolicyProblem =
  /** A command name that is not on the allowlist. */
  | { id: "not-allowed"; name: string }
  /** A command named by a path rather than a name looked up on PATH. */
  | { id: "path-name"; name: string }
  /** A command name only known when the line runs (`$CMD`, `$(...)`). */
  | { id: "dynamic-name"; text: string }
  /** An empty command name (`""`). */
  | { id: "empty-name" }
  /** An allowed name that PATH does not find. */
  | { id: "not-found"; name: string }
  /** An allowed name that PATH finds inside the workspace, at `path`. */
  | { id: "in-workspace"; name: string; path: string }
  /** PATH has a relative `entry` and the line changes directory, so `name` could be any file. */
  | { id: "relative-entry"; name: string; entry: string }
  /** An allowed command that runs code the policy cannot check, by its group (see `UNCHECKABLE_GROUPS`). */
  | { id: "unchecked"; name: string; group: string }
  /** An argument of a checked command that is only known when the line runs (`dynamic`) or expands to file names. */
  | { id: "unreadable-argument"; name: string; text: string; dynamic: boolean }
  /** A redirection (`text`) that reads a file named only when the line runs. */
  | { id: "redirect-dynamic-read"; text: string }
  /** A redirection from bash's /dev/tcp or /dev/udp, which opens a network connection. */
  | { id: "redirect-network"; text: string }
  /** A redirection that writes to a file (other than 2>&1 and >/dev/null). */
  | { id: "redirect-write"; text: string }
  /** A redirection that opens a file for writing some other way (`<>`, `>&file`). */
  | { id: "redirect-open"; text: string }
  /**
   * An argument of an allowed program that makes it run another program or write a file (a row of the
   * argument table): `does` is the row's phrase, which the page also uses as the key of its own wording.
   */
  | { id: "argument"; name: string; argument: string; does: string }
  /** A shell variable the line sets whose name is the shell's or the environment's (upper-case). */
  | { id: "shell-variable"; name: string }
  /** A variable put in a command's environment that is not one of the `safe` ones. */
  | { id: "environment-variable"; name: string; safe: string[] }
  /** An environment variable whose value (`text`) is only known when the line runs. */
  | { id: "dynamic-value"; name: string; text: string }
  /** A builtin (`read`, `printf -v`, ...) that would set a variable that can change what later commands run. */
  | { id: "sets-variable"; builtin: string; name: string }
  /** A wrapper (`env`, `timeout`, ...) given an argument (`text`) that is not plain text. */
  | { id: "wrapper-argument"; name: string; text: string }
  /** A wrapper given an option the policy does not know, so it cannot tell which argument is the command. */
  | { id: "wrapper-option"; name: string; option: string }
  /** A wrapper given an option that changes what its arguments mean; `does` names which way. */
  | {
      id: "wrapper-refused";
      name: string;
      option: string;
      does: "split-string" | "other-path" | "writes-report" | "running-processes";
    }
  /** A builtin given an array element (`element`) whose subscript bash evaluates as code. */
  | { id: "names-element"; name: string; element: string }
  /** `mapfile -C`/`readarray -C`: a callback run as shell code. */
  | { id: "callback"; name: string }
  /**
   * `set` or `shopt` changing an option (`option`, as written: `-k`, `-s expand_aliases`) that changes how the
   * shell reads or runs later commands; `letters` and `options` are the ones that may be changed.
   */
  | { id: "shell-option"; name: "set" | "shopt"; option: string; letters?: string; options: string[] }
  /** A declaration builtin (`export`, `unset`, ...) that would change such a variable; `safe` when it exports. */
  | { id: "declares-variable"; builtin: string; name: string; safe?: string[] }
  /**
   * A construct refused whatever runs in it: background `&`, a function, arithmetic or evaluation of a
   * variable; `refusal` says why and what to write instead, where the shell's rules say more than the kind.
   */
  | {
      id: "construct";
      text: string;
      kind: "background" | "function" | "arithmetic" | "evaluation";
      refusal?: EvaluationText;
    };

/**
 * Where bash would evaluate text from a variable as code, and what to write instead (expansion-rules.ts),
 * completing `"<construct>" …`.
 */
export type EvaluationText =
  /** An arithmetic context; `context` is the grammar's node that makes it one, naming what to write instead. */
  | { id: "arithmetic"; context?: string }
  /** An array element whose subscript bash evaluates (`a=([$x]=1)`). */
  | { id: "array-element"; element: string }
  /** `[[ -v a[$i] ]]` and the like: a variable looked up by a name with a subscript. */
  | { id: "name-subscript" }
  /** `${x@P}`: the value expanded as a prompt string. */
  | { id: "prompt-transform"; name: string }
  /** `${x@op}` with a transformation not known to be safe. */
  | { id: "transform"; operator: string; name: string }
  /** `${!x}`: x's value used as the name of another variable. */
  | { id: "indirection"; name: string }
  /** `declare a="$x"` and its kin, which re-read a value starting with `(` as an array assignment. */
  | { id: "rereads"; keyword: string };

/**
 * Why `run_command` refused a command, as a kind and its parameters, for the page to word in its language.
 * The host's English sentence (`RunCommandDetails.reason`, also the model's text) stays beside it as the
 * fallback for a kind the page does not know.
 */
export type RefusalText =
  /** The command policy refused parts of the line; `allowed` is the allowlist, in its order. */
  | { id: "policy"; problems: PolicyProblem[]; allowed: string[] }
  /** The command was empty. */
  | { id: "empty-command" }
  /** The timeout asked for is not a number of seconds above 0; `given` is it as JSON. */
  | { id: "invalid-timeout"; given: string; maxSeconds: number; defaultSeconds: number }
  /** The workspace runs commands sandboxed and Pi Desk has no sandbox for this platform (`platform` as named). */
  | { id: "no-sandbox"; platform: string }
  /** The workspace runs commands sandboxed and macOS's sandbox-exec, at `path`, is missing. */
  | { id: "no-sandbox-exec"; path: string }
  /** The workspace runs commands sandboxed and bubblewrap is not installed or not on the PATH. */
  | { id: "no-bubblewrap" }
  /** The chat already runs `running` background commands, the most it allows. */
  | { id: "background-full"; running: number }
  /** Background commands are not available where this tool runs. */
  | { id: "background-unavailable" }
  /** The agent asked for `count` hosts in `network`, more than the `max` one call may ask for. */
  | { id: "asked-hosts-too-many"; count: number; max: number }
  /** Host entries that are not valid: the ones the agent asked for, the workspace's list, or those granted for the command. */
  | { id: "hosts-invalid"; whose: "asked" | "workspace" | "granted"; problems: HostEntryProblem[] }
  /** The sandbox's network forwarder did not start, so the command did not run; `said` is what it printed. */
  | { id: "forwarder-failed"; said: string };

/** Why one allowed-host entry (`entry`, as written) is not valid (host-pattern.ts), for the page to word. */
export type HostEntryProblem =
  /** The entry is empty. */
  | { id: "empty" }
  /** It has spaces or characters outside ASCII. */
  | { id: "characters"; entry: string }
  /** It is percent-encoded. */
  | { id: "percent"; entry: string }
  /** It is a URL (has `/` or `@`), not a host name. */
  | { id: "url"; entry: string }
  /** It is an IP address. */
  | { id: "address"; entry: string }
  /** Its port is not a number from 1 to 65535. */
  | { id: "port"; entry: string }
  /** It ends with a dot; `name` is it without. */
  | { id: "trailing-dot"; entry: string; name: string }
  /** A `*` anywhere but a leading `*.`. */
  | { id: "wildcard"; entry: string }
  /** Not a host name (letters, digits, hyphens, dots, at most `maxLength` characters). */
  | { id: "name"; entry: string; maxLength: number }
  /** A wildcard on a public suffix (`*.com`); `suffix` is the suffix. */
  | { id: "public-suffix"; entry: string; suffix: string };

/** Why an `edit` or `write` was refused or failed, as a kind and its parameters, for the page to word. */
export type EditRefusalText =
  /** The target (`asked`, as the agent named it) may not be edited; `why` says which rule, `root` is the workspace. */
  | {
      id: "target";
      asked: string;
      root: string;
      why: "dangling-link" | "outside" | "private" | "workspace-itself" | "git";
    }
  /** The new content of `path` is `bytes` bytes, over the limit of `limitBytes`. */
  | { id: "too-large"; path: string; bytes: number; limitBytes: number }
  /** The new content of `path` holds NUL bytes. */
  | { id: "nul-bytes"; path: string }
  /** The person's own version of `path` is over the limit of `limitBytes` or holds NUL bytes. */
  | { id: "persons-version"; path: string; limitBytes: number }
  /** `path` changed on disk while the edit waited for the person. */
  | { id: "changed-on-disk"; path: string }
  /** `path` is a binary file or not UTF-8 text. */
  | { id: "binary"; path: string }
  /** The turn was stopped before the edit was applied. */
  | { id: "cancelled" }
  /** The person denied the edit of `path`, with their reason in their own words when they gave one. */
  | { id: "denied"; path: string; why?: string };
