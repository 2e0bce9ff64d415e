import type {
  EditRefusalText,
  HostEntryProblem,
  PolicyProblem,
  RefusalText,
} from "../../../shared/host-text";
import { evaluationTextEn } from "./evaluations.en";
import { UNCHECKED } from "./risks.en";

/** What each refused construct does, after its text in quotes. */
const CONSTRUCT: Record<Extract<PolicyProblem, { id: "construct" }>["kind"], string> = {
  background: "runs a command in the background, where it outlives the run and its time limit",
  function: "defines a shell function, a new name that runs other commands",
  arithmetic: "evaluates a variable as arithmetic, where a value such as a[$(cmd)] runs cmd",
  evaluation: "evaluates text from a variable as shell code",
};

/** One refused part of a line, as a phrase; empty for a kind this page does not know. */
function problemEn(problem: PolicyProblem): string {
  switch (problem.id) {
    case "not-allowed":
      return `"${problem.name}" is not on the allowlist`;
    case "path-name":
      return `"${problem.name}" is a path; only allowed names, looked up on PATH, may run`;
    case "dynamic-name":
      return `the command name ${problem.text} is only known when the line runs`;
    case "empty-name":
      return "an empty command name cannot be checked";
    case "not-found":
      return `"${problem.name}" is not found on PATH`;
    case "in-workspace":
      return `"${problem.name}" resolves to ${problem.path}, inside the workspace, where the agent can change it`;
    case "relative-entry":
      return `PATH has the relative entry "${problem.entry}" and the line changes directory, so "${problem.name}" could resolve to any file`;
    case "unchecked":
      return UNCHECKED[problem.group] === undefined ? "" : `"${problem.name}" ${UNCHECKED[problem.group]}`;
    case "unreadable-argument":
      return `the argument ${problem.text} of "${problem.name}" ${problem.dynamic ? "is only known when the line runs" : "expands to file names"}, so its options cannot be checked`;
    case "redirect-dynamic-read":
      return `the redirection "${problem.text}" reads a file named only when the line runs`;
    case "redirect-network":
      return `the redirection "${problem.text}" opens a network connection`;
    case "redirect-write":
      return `the redirection "${problem.text}" writes to a file (only 2>&1 and >/dev/null are allowed)`;
    case "redirect-open":
      return `the redirection "${problem.text}" opens a file for writing`;
    case "construct": {
      const why = problem.refusal ? evaluationTextEn(problem.refusal) : CONSTRUCT[problem.kind];
      return why ? `"${problem.text}" ${why}` : "";
    }
    case "argument":
      return `${problem.name} ${problem.argument} ${problem.does}`;
    case "wrapper-argument":
      return `${problem.name}'s argument ${problem.text} is not plain text`;
    case "wrapper-option":
      return `${problem.name}'s option ${problem.option} is not one the policy knows, so it cannot tell which argument is the command`;
    case "wrapper-refused":
      return WRAPPER[problem.does] === undefined
        ? ""
        : `${problem.name} ${problem.option} ${WRAPPER[problem.does]}`;
    case "names-element":
      return `"${problem.name}" would name the array element ${problem.element}, whose subscript bash evaluates as code`;
    case "callback":
      return `${problem.name} -C runs its callback as shell code; read the lines without -C`;
    case "shell-option": {
      const safe =
        problem.letters !== undefined
          ? `-${problem.letters} and -o ${problem.options.join("/")}`
          : problem.options.join(", ");
      return `${problem.name} ${problem.option} changes how the shell reads or runs later commands (only ${safe} may be changed here)`;
    }
    case "shell-variable":
      return `setting the shell variable ${problem.name} can change what later commands run (use a lower-case name)`;
    case "environment-variable":
      return `setting ${problem.name} in a command's environment can change what it runs (only ${problem.safe.join(", ")} may be set)`;
    case "dynamic-value":
      return `the value of ${problem.name} (${problem.text}) is only known when the line runs`;
    case "sets-variable":
      return `${problem.builtin} would set the variable ${problem.name}, which can change what later commands run`;
    case "declares-variable":
      return `${problem.builtin} would change the variable ${problem.name}, which can change what later commands run (${problem.safe ? `only ${problem.safe.join(", ")} may be exported` : "use a lower-case name"})`;
    default:
      return "";
  }
}

/** What a wrapper's refused option does, completing "<wrapper> <option> …". */
const WRAPPER: Record<Extract<PolicyProblem, { id: "wrapper-refused" }>["does"], string> = {
  "split-string": "splits a string into a command line, which the policy cannot check",
  "other-path": "looks the command up on a different PATH",
  "writes-report": "writes its report to a file the allowlist does not cover",
  "running-processes": "acts on running processes",
};

const TURN_SANDBOX_OFF = "Turn the sandbox off for this workspace in settings to run commands without it.";

/** Why `run_command` refused a command, in English; empty for a kind this page does not know. */
export function refusalTextEn(say: RefusalText): string {
  switch (say.id) {
    case "policy": {
      const problems = say.problems.map(problemEn);
      if (problems.includes("")) return "";
      return `Refused by the command policy: ${problems.join("; ")} (allowed: ${say.allowed.join(", ")}). Ask the user to run it, or use an allowed command.`;
    }
    case "empty-command":
      return "The command is empty. Give a shell command to run.";
    case "invalid-timeout":
      return `Invalid timeout: ${say.given}. Give a number of seconds above 0 (at most ${say.maxSeconds}), or leave it out for the default of ${say.defaultSeconds}.`;
    case "no-sandbox":
      return `Commands are set to run in a sandbox, but Pi Desk has no sandbox for ${say.platform}, so the command did not run. ${TURN_SANDBOX_OFF}`;
    case "no-sandbox-exec":
      return `Commands are set to run in a sandbox, but ${say.path} is missing, so the command did not run. ${TURN_SANDBOX_OFF}`;
    case "no-bubblewrap":
      return (
        "Commands are set to run in a sandbox, but bubblewrap (bwrap) is not installed or not on the PATH, so the command did not run. " +
        "Install bubblewrap (Debian/Ubuntu: apt install bubblewrap; Fedora: dnf install bubblewrap; Arch: pacman -S bubblewrap), " +
        "or turn the sandbox off for this workspace in settings."
      );
    case "background-full":
      return `${say.running} commands already run in the background, the most this workspace allows. Stop one (stop_command with its id) or run this one in the foreground.`;
    case "background-unavailable":
      return "Background commands are not available here; run it without background: true.";
    case "asked-hosts-too-many":
      return `network lists ${say.count} hosts; ask for at most ${say.max}.`;
    case "hosts-invalid": {
      const problems = say.problems.map(hostProblemEn);
      if (problems.includes("")) return "";
      const listed = problems.join(" ");
      if (say.whose === "asked") return `The hosts asked for in network are not valid: ${listed}`;
      if (say.whose === "granted") return `The hosts granted for this command are not valid: ${listed}`;
      return `The workspace's allowed hosts are not valid, so the command did not run: ${listed} Fix them in Settings.`;
    }
    case "forwarder-failed":
      return (
        `The sandbox's network forwarder could not start, so the command did not run: ${say.said} ` +
        "Run it with the network off, or turn the sandbox off for this workspace in settings."
      );
    default:
      return "";
  }
}

/** Why one allowed-host entry is not valid, as a sentence; empty for a kind this page does not know. */
export function hostProblemEn(problem: HostEntryProblem): string {
  if (problem.id === "empty")
    return "An allowed host is empty: write a host name such as registry.npmjs.org.";
  const why = HOST_PROBLEM[problem.id]?.(problem as never);
  return why === undefined ? "" : `"${problem.entry}" cannot be an allowed host: ${why}`;
}

/** What is wrong with an entry, completing `"<entry>" cannot be an allowed host: …`. */
const HOST_PROBLEM: {
  [K in Exclude<HostEntryProblem["id"], "empty">]: (problem: Extract<HostEntryProblem, { id: K }>) => string;
} = {
  characters: () => "it has spaces or non-ASCII characters. Write an international name in its xn-- form.",
  percent: () => "it is percent-encoded. Write the name itself.",
  url: () => "write a host name only (registry.npmjs.org), not a URL.",
  address: () => "it is an IP address. Rules are by host name: write the name the tool connects to.",
  port: () => "the port must be a number from 1 to 65535.",
  "trailing-dot": (p) => `drop the trailing dot: "${p.name}" already covers it.`,
  wildcard: () => "a wildcard is allowed only as a leading *. before a domain (*.githubusercontent.com).",
  name: (p) =>
    `it is not a valid host name (letters, digits, hyphens and dots, at most ${p.maxLength} characters).`,
  "public-suffix": (p) =>
    `*.${p.suffix} would allow every site under the public suffix ${p.suffix}. Name the hosts instead.`,
};

/** The edit limit as the host says it: `2 MiB (2,097,152 bytes)`. */
function limitEn(bytes: number): string {
  return `${bytes / (1024 * 1024)} MiB (${bytesEn(bytes)})`;
}

function bytesEn(bytes: number): string {
  return `${bytes.toLocaleString("en")} bytes`;
}

/** What each rule a target breaks says, completing "it …". */
const TARGET: Record<Extract<EditRefusalText, { id: "target" }>["why"], string> = {
  "dangling-link": "is reached through a symbolic link that points nowhere",
  outside: "is outside the workspace",
  private: "is in a folder Pi Desk keeps private",
  "workspace-itself": "is the workspace folder itself",
  git: "is inside a .git folder (git's own data)",
};

/** Why an edit was refused or failed, in English; empty for a kind this page does not know. */
export function editRefusalTextEn(say: EditRefusalText): string {
  switch (say.id) {
    case "target":
      return TARGET[say.why] === undefined
        ? ""
        : `Pi Desk does not let the agent edit ${say.asked}: it ${TARGET[say.why]}. Edit files inside the workspace (${say.root}) only; for anything else, ask the user.`;
    case "too-large":
      return `The new content of ${say.path} is ${bytesEn(say.bytes)}, over the ${limitEn(say.limitBytes)} an edit may write. Write large or generated files with a command the user approves.`;
    case "nul-bytes":
      return `The new content of ${say.path} holds NUL bytes: edits write text files only.`;
    case "persons-version":
      return `The version given for ${say.path} is over ${limitEn(say.limitBytes)} or holds NUL bytes; nothing was written.`;
    case "changed-on-disk":
      return `${say.path} changed on disk while the edit waited for the user (another command, or the user's editor); nothing was written, so no change was lost. Read the file again and propose the edit anew.`;
    case "binary":
      return `${say.path} is a binary file (or not UTF-8 text): edit and write change text files only. Use a command the user approves.`;
    case "cancelled":
      return "The turn was stopped before the edit was applied; nothing was written.";
    case "denied":
      return `The user denied this edit of ${say.path}; nothing was written.${say.why ? ` Their reason: ${say.why}` : ""}`;
    default:
      return "";
  }
}
