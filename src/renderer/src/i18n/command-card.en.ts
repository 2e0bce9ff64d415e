import type { ArgumentEffect } from "../../../shared/rules";

/** What a prefix rule leaves out, completing "except ones that …". */
export function exceptEn(except: readonly ArgumentEffect[]): string {
  const runs = except.includes("runs");
  const writes = except.includes("writes");
  if (runs && writes) return "run programs, delete or write files";
  return runs ? "run programs" : "delete or write files";
}

/** The English words of a command's card and the approval tray: states, outcomes, actions and details. */
export const commandCardEn = {
  cardLabel: (command: string) => `Command: ${command}`,
  trayHeading: (count: number) => `Needs approval (${count})`,
  trayHint:
    "The agent waits for your answer on each of these. j/k or the arrows move, Enter approves, Esc denies.",
  status: {
    pending: "Needs approval",
    running: "Running",
    succeeded: "Succeeded",
    failed: "Failed",
    "timed-out": "Timed out",
    cancelled: "Cancelled",
    denied: "Denied",
    refused: "Refused",
    interrupted: "Interrupted",
    background: "In background",
    "limit-reached": "Stopped at a limit",
  },
  limitMemory: (limit: string) =>
    `Stopped: it used more than ${limit} of memory. Raise the memory limit in Settings, or run it so that it uses less.`,
  limitProcesses: (limit: string) =>
    `Stopped: it reached ${limit} processes. Raise the process limit in Settings, or run it with fewer processes.`,
  interruptedHint: "Pi Desk stopped before this command ended, so how it ended is not known.",
  cwd: "Runs in",
  timeout: "Timeout",
  sandbox: "Sandbox",
  sandboxOn: "on, no network",
  sandboxOnNetwork: "on, with network",
  sandboxOff: "off",
  allowNetwork: "Let this command use the network",
  localServices:
    "It can reach this machine's own services too: servers on localhost ports, X11 and other abstract sockets.",
  seconds: (s: number) => `${s} s`,
  why: "Why",
  parts: "Commands in this line",
  risks: "Look twice",
  decidedByRule: (rule: string) => `Allowed by the rule “${rule}”`,
  edited: "edited",
  checking: "Waiting for the host to ask…",
  answered: "Answered; waiting for the host to act on it…",
  approve: "Approve",
  approveHint: "Run it (Enter)",
  deny: "Deny",
  denyHint: "Refuse it (Esc)",
  edit: "Edit",
  editDone: "Stop editing",
  alwaysAllow: "Always allow…",
  denyReason: "Why not? (optional, the agent reads it)",
  denyConfirm: "Deny",
  back: "Back",
  editCommand: "Command to run instead",
  editTimeout: (max: number) => `Timeout in seconds (at most ${max})`,
  editEmpty: "The command cannot be empty.",
  editTimeoutRange: (max: number) => `The timeout must be a whole number of seconds from 1 to ${max}.`,
  runEdited: "Approve the edited command",
  ruleWhat: "Which commands",
  ruleExact: (command: string) => `Exactly “${command}”`,
  rulePrefix: (prefix: string, except: readonly ArgumentEffect[]) =>
    except.length === 0
      ? `Any command starting with “${prefix}”`
      : `Any command starting with “${prefix}”, except ones that ${exceptEn(except)}`,
  ruleNotApplied: (pattern: string, argument: string, effect: ArgumentEffect) =>
    `The rule “${pattern}” is in force, but ${argument} ${effect === "runs" ? "runs another program" : "deletes or writes a file"}, which the rule does not cover: you decide this one.`,
  ruleScope: "For how long",
  scopeSession: "This chat",
  scopeWorkspace: "This workspace (kept)",
  ruleSummary: (what: string, scope: string) => `${what} will run without asking: ${scope}.`,
  ruleConfirm: "Approve and always allow",
  decideFailed: (reason: string) => `Your answer was not taken: ${reason}`,
  cancel: "Cancel",
  cancelling: "Cancelling…",
  cancelFailed: (reason: string) => `Could not cancel: ${reason}`,
  elapsed: (time: string) => `Running for ${time}`,
  countdown: (time: string) => `times out in ${time}`,
  exitCode: (code: number) => `exit ${code}`,
  duration: (time: string) => `took ${time}`,
  reason: "Reason",
  output: "Output",
  noOutput: "No output.",
  hiddenLines: (count: number) =>
    `${count.toLocaleString()} earlier ${count === 1 ? "line is" : "lines are"} not shown here.`,
  openFull: "Open full output",
  outputLoading: "Loading the output…",
  outputFailed: (reason: string) =>
    `The output could not be loaded: ${reason} Scroll away and back to try again.`,
  trimmed: "trimmed",
  trimmedHint: "The agent saw only the end of the output. The full output is saved at:",
  fullOutputError: (reason: string) => `The full output could not be saved: ${reason}`,
  fullOutputCut: (budget: string, dropped: string, lines: string) =>
    `It passed the ${budget} budget per command, so the file keeps its first and last parts: ${dropped} (${lines} lines) in the middle were left out.`,
  lines: (count: number) => (count === 1 ? "1 line" : `${count.toLocaleString()} lines`),
  preparing: "Preparing the command…",
};
