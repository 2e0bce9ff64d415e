import type { PolicyProblem } from "../../../shared/host-text";
import type { ShellWord } from "./shell-words";

/** Ways a wrapper's option changes what its arguments mean. */
type WrapperRefusal = Extract<PolicyProblem, { id: "wrapper-refused" }>["does"];

/** What each of them does, completing "<wrapper> <option> …". */
const WRAPPER_REFUSALS: Record<WrapperRefusal, string> = {
  "split-string": "splits a string into a command line, which the policy cannot check",
  "other-path": "looks the command up on a different PATH",
  "writes-report": "writes its report to a file the allowlist does not cover",
  "running-processes": "acts on running processes",
};

/** How a wrapper's arguments read: which argument starts the command it runs, if any. */
export type WrapperReading =
  /** The wrapper runs the command that starts at `args[index]`; `assignments` index `NAME=value` args. */
  | { kind: "runs"; index: number; assignments: number[] }
  /** The wrapper runs nothing with these arguments (`env` alone prints, `command -v` looks up). */
  | { kind: "none" }
  /** The arguments could not be read with confidence; a policy must refuse. */
  | { kind: "unclear"; reason: string; say: PolicyProblem };

/** Option grammar of a wrapper that runs its remaining arguments as a command (through execvp, not a shell). */
interface WrapperSpec {
  /** Options that take no value. */
  flags?: string[];
  /** Options that take a value: as the next argument, attached (`-n10`) or after `=` (`--signal=KILL`). */
  valued?: string[];
  /** Options that make the arguments mean something else; the value is why. */
  refused?: Record<string, WrapperRefusal>;
  /** Options after which nothing runs. */
  lookup?: string[];
  /** Positional arguments before the command (`timeout DURATION cmd`). */
  positionals?: number;
  /** Accepts `NAME=value` arguments before the command (`env`). */
  assignments?: boolean;
  /** Accepts `-<digits>` (`nice -10 cmd`). */
  numericFlag?: boolean;
}

const WRITES_FILE = "writes-report";

/**
 * Wrappers the parser unwraps so the command they run is checked like any other. Unknown options are
 * "unclear" on purpose: a wrongly skipped option would hide the real command name.
 */
const WRAPPERS: Record<string, WrapperSpec> = {
  env: {
    flags: ["-i", "-0", "-v", "-", "--ignore-environment", "--null", "--debug"],
    valued: ["-u", "--unset", "-C", "--chdir", "--default-signal", "--ignore-signal", "--block-signal"],
    refused: {
      "-S": "split-string",
      "--split-string": "split-string",
      "-P": "other-path",
    },
    assignments: true,
  },
  nohup: {},
  nice: { valued: ["-n", "--adjustment"], numericFlag: true },
  timeout: {
    flags: ["--preserve-status", "--foreground", "-v", "--verbose"],
    valued: ["-s", "--signal", "-k", "--kill-after"],
    positionals: 1,
  },
  time: {
    flags: ["-p", "-v", "-q", "--verbose", "--quiet", "--portability"],
    valued: ["-f", "--format"],
    refused: { "-o": WRITES_FILE, "--output": WRITES_FILE, "-a": WRITES_FILE, "--append": WRITES_FILE },
  },
  stdbuf: { valued: ["-i", "-o", "-e", "--input", "--output", "--error"] },
  setsid: { flags: ["-c", "-f", "-w", "--ctty", "--fork", "--wait"] },
  ionice: {
    flags: ["-t", "--ignore"],
    valued: ["-c", "--class", "-n", "--classdata"],
    refused: {
      "-p": "running-processes",
      "-P": "running-processes",
      "-u": "running-processes",
    },
  },
  // The next three are shell builtins a policy refuses anyway; unwrapping them shows a person what they run.
  command: { flags: ["-p"], lookup: ["-v", "-V"] },
  builtin: {},
  exec: { flags: ["-c", "-l"], valued: ["-a"] },
};

/** Names `readWrapper` knows how to unwrap. */
export const UNWRAPPED_WRAPPERS: ReadonlySet<string> = new Set(Object.keys(WRAPPERS));

/** What each group of commands that run code the policy cannot see does, completing "<name> ...". */
const UNCHECKABLE_WHY = {
  "shell-code": "runs its arguments as shell code or bypasses the shell's lookup",
  "shell-meaning": "changes what names or signals mean to the shell, or runs code later",
  shell: "is a shell: it runs a script or string of commands the policy cannot check",
  "built-command": "runs a command built from its input or arguments, which the policy cannot check",
  "not-unwrapped": "runs a command the policy does not unwrap",
  "other-user": "runs a command as another user or in another root, which the policy does not allow",
  "package-runner": "runs whatever package binary it names, possibly downloaded; use an npm script instead",
} as const;

/** A group of commands that run code the policy cannot see; the page words each in its language. */
export type UncheckableGroup = keyof typeof UNCHECKABLE_WHY;

// biome-ignore format: a word list reads better packed
const UNCHECKABLE_NAMES: Record<UncheckableGroup, string[]> = {
  "shell-code": ["eval", "source", ".", "exec", "command", "builtin"],
  "shell-meaning": ["alias", "unalias", "enable", "hash", "trap", "fc", "bind", "complete", "compgen", "let", "coproc"],
  shell: ["sh", "bash", "zsh", "dash", "ksh", "mksh", "fish", "csh", "tcsh", "busybox"],
  "built-command": ["xargs", "parallel", "watch", "flock", "script", "expect", "unbuffer", "strace", "ltrace", "gdb"],
  "not-unwrapped": ["chrt", "taskset", "prlimit", "systemd-run", "firejail"],
  "other-user": ["sudo", "doas", "su", "pkexec", "runuser", "chroot", "unshare", "nsenter", "sg"],
  "package-runner": ["npx", "pnpx", "bunx"],
};

/** The group of each command that runs code the policy cannot see. */
export const UNCHECKABLE_GROUPS: ReadonlyMap<string, UncheckableGroup> = new Map(
  (Object.entries(UNCHECKABLE_NAMES) as [UncheckableGroup, string[]][]).flatMap(([group, names]) =>
    names.map((name) => [name, group] as const),
  ),
);

/**
 * Commands that run code the policy cannot see, refused under an allowlist even when listed. The
 * value completes "refused: <name> ...".
 */
export const UNCHECKABLE_COMMANDS: ReadonlyMap<string, string> = new Map(
  [...UNCHECKABLE_GROUPS].map(([name, group]) => [name, UNCHECKABLE_WHY[group]] as const),
);

/** Reads a wrapper's arguments to find the command it runs; undefined when `name` is not a known wrapper. */
export function readWrapper(name: string, args: readonly ShellWord[]): WrapperReading | undefined {
  const spec = WRAPPERS[name];
  if (!spec) return undefined;
  const assignments: number[] = [];
  let i = 0;
  for (; i < args.length; i++) {
    const word = args[i] as ShellWord;
    if (!word.literal) {
      return {
        kind: "unclear",
        reason: `${name}'s argument ${word.text} is not plain text`,
        say: { id: "wrapper-argument", name, text: word.text },
      };
    }
    const arg = word.value;
    if (spec.assignments && /^[A-Za-z_][A-Za-z0-9_]*=/.test(arg)) {
      assignments.push(i);
      continue;
    }
    // Options come before assignments and the command; after them the next word is the command.
    if (assignments.length > 0 || !arg.startsWith("-") || (arg === "-" && !spec.flags?.includes("-"))) break;
    if (arg === "--") {
      i++;
      break;
    }
    const option = readOption(name, spec, arg);
    if (option.kind === "none" || option.kind === "unclear") return option;
    if (option.kind === "valued-next") i++;
  }
  i += spec.positionals ?? 0;
  if (i >= args.length) return { kind: "none" };
  return { kind: "runs", index: i, assignments };
}

type OptionReading =
  | { kind: "flag" }
  | { kind: "valued-next" }
  | { kind: "none" }
  | { kind: "unclear"; reason: string; say: PolicyProblem };

function readOption(name: string, spec: WrapperSpec, arg: string): OptionReading {
  const long = arg.startsWith("--");
  const key = long ? (arg.split("=")[0] as string) : arg.slice(0, 2);
  const refused = spec.refused?.[key];
  if (refused)
    return {
      kind: "unclear",
      reason: `${name} ${key} ${WRAPPER_REFUSALS[refused]}`,
      say: { id: "wrapper-refused", name, option: key, does: refused },
    };
  if (spec.lookup?.includes(arg)) return { kind: "none" };
  if (arg === "--help" || arg === "--version") return { kind: "none" };
  if (spec.flags?.includes(arg)) return { kind: "flag" };
  if (spec.valued?.includes(arg)) return { kind: "valued-next" };
  // `--signal=KILL` and `-n10` carry their value.
  if (spec.valued?.includes(key) && (long ? arg.includes("=") : arg.length > 2)) return { kind: "flag" };
  if (spec.numericFlag && /^-\d+$/.test(arg)) return { kind: "flag" };
  return {
    kind: "unclear",
    reason: `${name}'s option ${arg} is not one the policy knows, so it cannot tell which argument is the command`,
    say: { id: "wrapper-option", name, option: arg },
  };
}
