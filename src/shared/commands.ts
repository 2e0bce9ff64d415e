import type { BackgroundState } from "./background";
import type { CommandChanges, RevertEntry } from "./changes";
import type { ProposedDiff } from "./edits";
import type { RefusalText, RiskText } from "./host-text";
import type { HostTally, NetworkChoice, NetworkMode } from "./network";
import type { ArgumentEffect, RuleNotApplied } from "./rules";

export type { BackgroundState, BackgroundStopper } from "./background";

/** How a command ended, or why it never ran; the UI shows one badge per status. */
export type CommandStatus =
  /** Exit code 0. */
  | "succeeded"
  /** A non-zero exit code. */
  | "failed"
  /** Killed at its timeout. */
  | "timed-out"
  /** Stopped by the person (or the agent's Stop), before or while it ran. */
  | "cancelled"
  /** The person said no. */
  | "denied"
  /** The host's policy or validation said no; nothing ran. */
  | "refused"
  /** The program could not be started. */
  | "spawn-error"
  /** The host stopped (quit or crashed) while it waited or ran: how it ended is not known. */
  | "interrupted"
  /** Still running when the tool returned: it went on in the background (see `CommandView.background`). */
  | "background"
  /** Stopped by a resource limit (memory, processes): which one is `RunCommandDetails.limit`. */
  | "limit-reached";

/** Which resource limit stopped a command, and its value (what the card and the model are told). */
export interface LimitStop {
  /** "memory": the kernel killed a process of it for passing the memory limit; "processes": it could not start more. */
  kind: "memory" | "processes";
  /** The limit it reached: bytes for memory, a count of processes and threads for processes. */
  limit: number;
}

/**
 * Which layer holds a command's memory, process and CPU limits: a cgroup of its own (v2, or v1), per-process
 * limits only (`setrlimit`: each process's memory on its own, no count of processes), or none.
 */
export type ResourceLimitsLayer = "cgroup-v2" | "cgroup-v1" | "process" | "none";

/** The smallest limits a person may set for a command: below them even `git status` may not run. */
export const MIN_RESOURCE_LIMITS = { memoryBytes: 16 * 1024 ** 2, processes: 16 } as const;

/** An output left out of the state, as its card needs to know it before it has it. */
export interface DeferredOutput {
  /** The session the command belongs to (the request names it, so a reply never lands in another chat). */
  sessionId: string;
  /** Lines in the left-out output, for the card to keep its height until it has them. */
  lines: number;
}

/** A command's output as the host holds it now, asked for by `commandOutput`. */
export interface CommandOutputReply {
  /** The tail of its output (what `CommandView.output` would hold). */
  output: string;
  /** Bytes printed so far. */
  totalBytes: number;
  /** Lines printed so far. */
  totalLines: number;
}

/** How a command runs, as its card says. */
export interface CommandSandboxView {
  /** Whether it runs in the sandbox. */
  enabled: boolean;
  /** Whether it may use the network. */
  network: boolean;
  /**
   * Whether it can reach this machine's own services too (servers on localhost ports, abstract sockets such as
   * X11's): the sandbox's full network is the host's. Sockets bound to a path stay hidden either way.
   */
  localServices?: boolean;
}

/** A pending command's network choice, as the card offers it. */
export interface CommandNetworkView {
  /** What it runs with unless the person picks another ("hosts" when the workspace lists any, else "off"). */
  mode: NetworkMode;
  /** The workspace's allowed hosts, as written in Settings. */
  allowedHosts: string[];
  /** Hosts the agent asked for; they count only if the person grants them. */
  askedHosts: string[];
  /** Whether host rules can apply to it (sandboxed by bubblewrap); where not, "allowed hosts" is not offered. */
  hostRules: boolean;
  /** What the person chose, once decided. */
  chosen?: NetworkMode;
}

/** The person's answer to a pending command. */
export type ApprovalDecision =
  | {
      kind: "approve";
      /** An edited command to run instead; it is validated and checked by the policy again. */
      command?: string;
      /** A different timeout in seconds, within the host's cap. */
      timeoutSeconds?: number;
      /**
       * The network for this one command: `true` is the full network (the older checkbox, still honoured);
       * a `NetworkChoice` picks off, allowed hosts (with hosts granted for this command) or full.
       */
      network?: boolean | NetworkChoice;
      /** Run it in the background (true) or not (false), whatever the agent asked; absent keeps the agent's choice. */
      background?: boolean;
    }
  | {
      kind: "deny";
      /** Why, in the person's words; the model reads it. */
      reason?: string;
    };

/** What the host records of every `run_command` call, success or not (the tool result's `details`). */
export interface RunCommandDetails {
  /** How it ended. */
  status: CommandStatus;
  /** The command as it ran (after any edit by the person), or as asked when it never ran. */
  command: string;
  /** Whether the person edited the command or its timeout before approving it. */
  edited: boolean;
  /** Where it ran: always the workspace. */
  cwd: string;
  /** The effective timeout in seconds (after the default and the cap). */
  timeoutSeconds: number;
  /** The command's own exit code; null when it timed out, was cancelled, or never ran. */
  exitCode: number | null;
  /** It was killed at its timeout. */
  timedOut: boolean;
  /** It was cancelled. */
  cancelled: boolean;
  /** The resource limit that stopped it, when one did (status "limit-reached"). */
  limit?: LimitStop;
  /** The layer that held its memory and process limits while it ran (absent: from before this was recorded). */
  limitsLayer?: ResourceLimitsLayer;
  /** Wall time in milliseconds from the start of the run (0 when it never ran). */
  durationMs: number;
  /** Whether the model saw only the tail of the output. */
  truncated: boolean;
  /** The file with the complete output, when truncated (its first and last parts when `fullOutputCut` says so). */
  fullOutputPath?: string;
  /** How the saved output was cut to the per-command budget, when the output passed it. */
  fullOutputCut?: SavedOutputCut;
  /** Why the complete output could not be saved, when that failed. */
  fullOutputError?: string;
  /** Bytes the command printed. */
  totalBytes: number;
  /** Lines the command printed. */
  totalLines: number;
  /** Why it was denied or refused, or could not start. */
  reason?: string;
  /** A refusal's reason as a kind and its parameters, for the page to word in its language (`reason` is the fallback). */
  reasonSay?: RefusalText;
  /** Asked (and approved) to keep running in the background. */
  background?: boolean;
  /** TCP ports its processes listened on when the tool returned (background commands). */
  ports?: number[];
  /** What it changed in the workspace's files, once it ended (absent when it never ran). */
  changes?: CommandChanges;
  /** The hosts it reached and was refused through the sandbox's proxy (allowed-hosts mode only). */
  hosts?: HostTally[];
}

/** The shortest and longest caps a person may set for background commands: a minute to a day. */
export const BACKGROUND_CAP_RANGE = { minSeconds: 60, maxSeconds: 24 * 60 * 60 } as const;

/** How a saved full output was cut to the per-command budget: its first and last parts are kept, the middle left out. */
export interface SavedOutputCut {
  /** Bytes of output left out between the two parts. */
  droppedBytes: number;
  /** Lines left out between the two parts. */
  droppedLines: number;
  /** The budget the file was cut to, in bytes. */
  budgetBytes: number;
}

/** A live view of a running command (the `details` of the tool's partial results). */
export interface RunCommandProgress {
  /** Always "running": final results carry a `CommandStatus` instead. */
  status: "running";
  /** The command as it runs. */
  command: string;
  /** The effective timeout in seconds, for the countdown. */
  timeoutSeconds: number;
  /** Milliseconds since it started. */
  elapsedMs: number;
  /** Bytes printed so far. */
  totalBytes: number;
  /** Lines printed so far. */
  totalLines: number;
  /** The layer that holds its memory and process limits (absent: from a host before this was said). */
  limitsLayer?: ResourceLimitsLayer;
}

/** Where a command is in its life: checked, waiting for the person, running, or ended (a `CommandStatus`). */
export type CommandPhase = "pending" | "running" | CommandStatus;

/** One command the line would run, as the parser read it (for the card's parsed view). */
export interface CommandPart {
  /** The program, after quote removal. */
  name: string;
  /** Its source text. */
  text: string;
  /** Offset of its first character in the command. */
  start: number;
  /** Offset just past its last character. */
  end: number;
}

/** A construct the person should look at twice; the card highlights its span. */
export interface CommandRiskMark {
  /** What it is: redirection, command-substitution, pipeline, ... */
  kind: string;
  /** Its source text. */
  text: string;
  /** Offset of its first character in the command. */
  start: number;
  /** Offset just past its last character. */
  end: number;
  /** Why it matters, in an English sentence (the page's fallback for a `say` it does not know). */
  note: string;
  /** Why it matters, as a kind and parameters the page words in its language. */
  say?: RiskText;
}

/** What an "always allow" rule may be made of for a command; absent when none may be offered. */
export interface RuleOffer {
  /** The exact command. */
  exact: string;
  /** Word prefixes the person may pick, shortest first (e.g. "npm", "npm test"). */
  prefixes: string[];
  /**
   * What a prefix rule leaves out after its prefix for this program (the allowlist's argument table):
   * "any arguments except ones that run programs, delete or write files". Absent: any arguments.
   */
  except?: ArgumentEffect[];
}

/** A file a pending command will write, previewed before it runs: only where the line's writes are known exactly. */
export interface WritePreviewFile {
  /** The file, relative to the workspace, `/` separators. */
  path: string;
  /** It does not exist yet. */
  isNew: boolean;
  /** From the file as it is now to what the command will leave in it. */
  diff: ProposedDiff;
}

/** What a pending command's known writes will do to the workspace's files. */
export interface WritePreview {
  /** Each file, in the order the line writes them. */
  files: WritePreviewFile[];
  /** The line goes on past its known writes (`npm test` after a heredoc): what follows may change the files too. */
  then?: string;
}

/** Everything the UI shows of one `run_command` call, from the moment the agent asks to the end. */
export interface CommandView {
  /** The agent's tool call id: stable for the whole life of the command. */
  id: string;
  /** The codemode call whose script asked for this command (Pi's `parentToolCallId`); absent otherwise. */
  parentToolCallId?: string;
  /** Where it is now. */
  phase: CommandPhase;
  /** The command: as asked while pending, as run once approved (edits included). */
  command: string;
  /** Where it runs: the workspace. */
  cwd: string;
  /** The effective timeout in seconds. */
  timeoutSeconds: number;
  /** The most an edited timeout may ask. */
  maxTimeoutSeconds: number;
  /** The id a decision must name; set only while pending. */
  approvalId?: string;
  /** The commands the line would run. */
  parts: CommandPart[];
  /** Risky constructs in the line. */
  risks: CommandRiskMark[];
  /** What an "always allow" rule may be, when one may be offered. */
  ruleOffer?: RuleOffer;
  /**
   * Why an "always allow" prefix rule that starts like this command did not spare the question: an
   * argument after its prefix runs another program or writes a file (`find .` is allowed, `-exec` is not).
   */
  ruleNotApplied?: RuleNotApplied;
  /** Why the agent wants it, in its own words, when it said so. */
  why?: string;
  /** The files it will write, diffed before it runs, when the line's writes are known exactly. */
  writePreview?: WritePreview;
  /** When it started running (ms since the epoch), for the elapsed time and the countdown. */
  startedAt?: number;
  /** The tail of its output so far; empty in a state that left it out (see `deferredOutput`). */
  output: string;
  /**
   * Set when the state sent to the page left a long ended output out (a reopened chat of hundreds of
   * commands would otherwise carry every one): the card asks for it with `commandOutput` when drawn.
   */
  deferredOutput?: DeferredOutput;
  /** Bytes printed so far. */
  totalBytes: number;
  /** Lines printed so far. */
  totalLines: number;
  /** Who decided: the person, or a rule (named in `rule`). */
  decidedBy?: "person" | "rule";
  /** The rule that decided, as the person would read it. */
  rule?: string;
  /** Whether it runs sandboxed, and with the network. */
  sandbox?: CommandSandboxView;
  /** The network choice the pending card offers (sandboxed commands): the default, the workspace's hosts, the agent's asks. */
  network?: CommandNetworkView;
  /** The hosts it reached and was refused so far through the sandbox's proxy, updated as it runs. */
  hosts?: HostTally[];
  /** Whether it is to run in the background: asked by the agent, switched by the person while pending. */
  runInBackground?: boolean;
  /** How long it may run in the background, in seconds (the host's cap), for the card to say. */
  backgroundCapSeconds?: number;
  /** Its life in the background, once `run_command` returned while it still ran. */
  background?: BackgroundState;
  /** The final record, once it ended. */
  details?: RunCommandDetails;
  /** The layer that holds its memory and process limits, from its first live update (the record says it too). */
  limitsLayer?: ResourceLimitsLayer;
  /** Undos of its changes and restores to before it, oldest first. */
  reverts?: RevertEntry[];
  /** Its change record was dropped to keep the records within their budget: no undo or restore any more. */
  changesDropped?: boolean;
}
